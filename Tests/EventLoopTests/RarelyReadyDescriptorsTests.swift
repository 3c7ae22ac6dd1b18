#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DebounceCore
import EventLoop
import LineInput
import LinuxSys
import Pipeline
import SystemPackage
import Testing

/// A loop with more descriptors than the kernel's `ppoll` keeps wait entries for on its stack (9):
/// the rarely ready ones (the stop switch, a source's chip watch) are waited on through one epoll
/// descriptor, and each is still handled as its own when it is ready; with few descriptors, all are
/// polled directly.
@Suite struct RarelyReadyDescriptorsTests {
    /// Lines on descriptors of their own (eventfds standing for line requests) and a chip watch after
    /// them. A line made readable has one press ready; the chip watch, once read, stops the run. Line
    /// 3's read makes line 5 (when there is one) and the chip watch ready.
    final class WatchedLines: EdgeSource {
        let lines: [StopSwitch]
        let chipWatch: StopSwitch
        let loopStop: StopSwitch
        /// What the loop handed over, in order: a line's index, or -1 for the chip watch, with whether it was readable.
        private(set) var handed: [(descriptor: Int, readable: Bool)] = []
        /// The descriptors some epoll descriptor of this process watched while the chip watch was read.
        private(set) var watchedByAnEpoll: Set<Int32> = []

        init(lineCount: Int, loopStop: StopSwitch) throws {
            lines = try (0..<lineCount).map { _ in try StopSwitch() }
            chipWatch = try StopSwitch()
            self.loopStop = loopStop
        }

        var lineCount: Int { lines.count }
        var descriptors: [FileDescriptor] { lines.map(\.descriptor) + [chipWatch.descriptor] }
        func isRarelyReady(descriptor: Int) -> Bool { descriptor == lines.count }
        func readLevel(line: Int) -> Level { .high }
        func readReady(descriptor: Int, events: PollEvents, into batch: inout EdgeBatch) {
            if descriptor == lines.count {
                handed.append((-1, events.isReadable))
                _ = chipWatch.take()
                watchedByAnEpoll = Self.descriptorsWatchedByEpolls()
                loopStop.stop()
            } else {
                handed.append((descriptor, events.isReadable))
                _ = lines[descriptor].take()
                batch.edges.append(LineEdge(line: descriptor, edge: Edge(level: .low, timeNs: MonotonicClock.nowNs)))
                // Line 3's read makes line 5 and the chip watch ready for the same wait.
                if descriptor == 3, lines.count > 5 { lines[5].stop() }
                chipWatch.stop()
            }
        }

        /// Every `tfd:` of every epoll descriptor of this process (`/proc/self/fdinfo`).
        static func descriptorsWatchedByEpolls() -> Set<Int32> {
            var watched: Set<Int32> = []
            guard let directory = opendir("/proc/self/fdinfo") else { return [] }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard Int32(name) != nil else { continue }
                let descriptor = open("/proc/self/fdinfo/\(name)", O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { continue }
                defer { close(descriptor) }
                var bytes = [UInt8](repeating: 0, count: 16_384)
                let count = Glibc.read(descriptor, &bytes, bytes.count)
                guard count > 0 else { continue }
                for line in String(decoding: bytes.prefix(count), as: UTF8.self).split(separator: "\n") where line.hasPrefix("tfd:") {
                    if let number = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Int32($0) }) {
                        watched.insert(number)
                    }
                }
            }
            return watched
        }
    }

    /// A sink with one descriptor (an eventfd), readable from the start, that says whether it keeps it open.
    final class DescriptorSink: Sink {
        let ready: StopSwitch
        let keepsDescriptorsOpen: Bool
        /// Each `descriptorReady`: the index, and whether it was readable.
        private(set) var readyCalls: [(index: Int, readable: Bool)] = []

        init(keepsDescriptorsOpen: Bool) throws {
            ready = try StopSwitch()
            ready.stop()
            self.keepsDescriptorsOpen = keepsDescriptorsOpen
        }

        var descriptors: [FileDescriptor] { [ready.descriptor] }
        func descriptorReady(_ index: Int, events: PollEvents) {
            readyCalls.append((index, events.isReadable))
            _ = ready.take()
        }
        func consume(_ output: PipelineOutput, nowNs: Int64) {}
    }

    /// Runs a loop over `lineCount` lines with line 3 (or the last) readable, read at the start: its
    /// press; then, in one wait, line 5's press and the chip watch; then the stop switch the chip
    /// watch's read pressed.
    static func run(lineCount: Int, sink: DescriptorSink? = nil) throws -> (source: WatchedLines, outputs: [PipelineOutput], reason: StopReason, stop: StopSwitch) {
        let stop = try StopSwitch()
        let source = try WatchedLines(lineCount: lineCount, loopStop: stop)
        source.lines[min(3, lineCount - 1)].stop()
        var outputs: [PipelineOutput] = []
        let loop = try EventLoop(
            clock: .monotonic, source: source,
            plan: PipelinePlan(lines: [LinePlan(debounce: DebounceConfiguration(both: .eager(lockoutNs: 1_000_000)))]),
            sinks: [CallbackSink { outputs.append($0) }] + (sink.map { [$0] } ?? []), stopSwitch: stop, limits: LoopLimits(durationNs: 5_000_000_000))
        let reason = try loop.run()
        return (source, outputs, reason, stop)
    }

    @Test func withEightLinesTheStopSwitchAndTheChipWatchAreWaitedOnThroughOneEpollDescriptor() throws {
        let (source, outputs, reason, stop) = try Self.run(lineCount: 8)
        #expect(reason == .interrupted(signal: nil))
        // A line ready in the same wait as its chip watch is read first, as when all were polled directly.
        #expect(source.handed.map(\.descriptor) == [3, 5, -1])
        #expect(source.handed.map(\.readable) == [true, true, true])
        for line in [3, 5] {
            #expect(outputs.contains { if case .event(.line(line), let event) = $0 { event.kind == .press } else { false } })
        }
        #expect(source.watchedByAnEpoll.isSuperset(of: [stop.descriptor.rawValue, source.chipWatch.descriptor.rawValue]))
        #expect(source.watchedByAnEpoll.isDisjoint(with: source.lines.map(\.descriptor.rawValue)))
    }

    @Test func withOneLineEveryDescriptorIsPolledDirectly() throws {
        let (source, _, reason, stop) = try Self.run(lineCount: 1)
        #expect(reason == .interrupted(signal: nil))
        #expect(source.handed.map(\.descriptor) == [0, -1])
        #expect(!source.watchedByAnEpoll.contains(stop.descriptor.rawValue))
        #expect(!source.watchedByAnEpoll.contains(source.chipWatch.descriptor.rawValue))
    }

    /// A sink's descriptor goes behind the epoll descriptor only when the sink keeps it open (an action's
    /// pidfd does not); either way the sink hears of it, by its own index.
    @Test(arguments: [true, false])
    func aSinksDescriptorIsWaitedOnThroughTheEpollDescriptorOnlyWhenTheSinkKeepsItOpen(keepsOpen: Bool) throws {
        let sink = try DescriptorSink(keepsDescriptorsOpen: keepsOpen)
        let (source, _, reason, _) = try Self.run(lineCount: 8, sink: sink)
        #expect(reason == .interrupted(signal: nil))
        #expect(sink.readyCalls.map(\.index) == [0])
        #expect(sink.readyCalls.map(\.readable) == [true])
        #expect(source.watchedByAnEpoll.contains(sink.ready.descriptor.rawValue) == keepsOpen)
        #expect(source.watchedByAnEpoll.contains(source.chipWatch.descriptor.rawValue))
    }
}
