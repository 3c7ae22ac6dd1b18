import DebounceCore
import EventLoop
import Foundation
import LineInput
import Pipeline
import Simulation
import SystemPackage
import Testing
import TraceFormat
import TraceInput

/// A recorded trace as a run's input: one button's line or an encoder's two, text or VCD, through the
/// event loop in virtual time, as `replay` runs it.
@Suite struct TraceEdgeSourceTests {
    // MARK: Helpers

    /// A sink keeping the debounced events and the rotations.
    final class Outputs: Sink {
        var events: [ButtonEvent] = []
        var rotations: [EncoderEvent] = []
        func consume(_ output: PipelineOutput, nowNs: Int64) {
            switch output {
            case .event(_, let event): events.append(event)
            case .rotation(_, let event): rotations.append(event)
            default: break
            }
        }
    }

    /// `trace` through `plans` (and `encoders`) in virtual time, as `replay` runs it.
    static func replay(
        _ trace: some TraceLinesSource, plans: [LinePlan], encoders: [EncoderPlan] = []
    ) throws -> (outputs: Outputs, source: TraceEdgeSource, error: LoopError?) {
        let source = try TraceEdgeSource(trace: trace)
        let sink = Outputs()
        let loop = try EventLoop(clock: .virtual(startNs: source.startNs), source: source, plan: PipelinePlan(lines: plans, encoders: encoders), sinks: [sink])
        do {
            _ = try loop.run()
            return (sink, source, nil)
        } catch {
            return (sink, source, error)
        }
    }

    /// The text trace `text` (`t_ns,level`, or with `lines` the line column), named `t.csv`.
    static func textTrace(_ text: String, lines: [Int]? = nil) throws -> TraceLinesReader {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-\(UUID().uuidString).csv").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = TraceReader(
            fileDescriptor: try FileDescriptor.open(FilePath(path), .readOnly), sourceName: "t.csv", ownsFileDescriptor: true,
            readsLineColumn: lines != nil)
        return TraceLinesReader(reader: reader, lines: lines ?? [0])
    }

    /// The VCD `text`'s `channels` (one channel: `channel`), named `t.vcd`.
    static func vcdTrace(_ text: String, channels: [String]) throws -> VCDReader {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-\(UUID().uuidString).vcd").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = try FileDescriptor.open(FilePath(path), .readOnly)
        if channels.count == 1 {
            return VCDReader(fileDescriptor: descriptor, sourceName: "t.vcd", ownsFileDescriptor: true, channel: channels[0])
        }
        return VCDReader(fileDescriptor: descriptor, sourceName: "t.vcd", ownsFileDescriptor: true, channels: channels)
    }

    static let deferPlan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 5_000_000)))

    // MARK: One line

    /// A simulated bouncy button's edges as a text trace and as a VCD, with the released initial level.
    static func recordings(of button: BouncyButton) -> (edges: [Edge], text: String, vcd: String) {
        let edges = Array(button)
        var text = "t_ns,level\n0,1\n"
        var vcd = "$timescale 1 ns $end\n$var wire 1 ! button $end\n$enddefinitions $end\n#0 1!\n"
        for edge in edges {
            text += "\(edge.timeNs),\(edge.level == .high ? 1 : 0)\n"
            vcd += "#\(edge.timeNs) \(edge.level == .high ? 1 : 0)!\n"
        }
        return (edges, text, vcd)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aButtonsTraceGivesTheEventsOfItsDebouncerDrivenAlone(seed: UInt64) throws {
        let recording = Self.recordings(of: BouncyButton(seed: seed, presses: 25))
        var debouncer = Debouncer(configuration: Self.deferPlan.debounce!, initialLevel: .high)
        var expected: [ButtonEvent] = []
        for edge in recording.edges {
            if let event = debouncer.receive(edge) { expected.append(event) }
            if let event = debouncer.advance(toNs: edge.timeNs) { expected.append(event) }
        }
        if let event = debouncer.finish() { expected.append(event) }
        #expect(expected.filter { $0.kind == .press }.count == 25)

        for trace in [try Self.textTrace(recording.text), try Self.vcdTrace(recording.vcd, channels: ["button"])] as [any TraceLinesSource] {
            let run = try Self.replay(trace, plans: [Self.deferPlan])
            #expect(run.error == nil)
            #expect(run.outputs.events.map { [$0.timeNs, $0.onsetNs] } == expected.map { [$0.timeNs, $0.onsetNs] })
            #expect(run.outputs.events.map(\.kind) == expected.map(\.kind))
            #expect(run.source.lineCount == 1)
            #expect(run.source.deliveredEdges == recording.edges.count)
            #expect(run.source.readLevel(line: 0) == recording.edges.last?.level)
        }
    }

    @Test func theRunStartsAtTheInitialLevelsTimestampAndReadsThatLevel() throws {
        let source = try TraceEdgeSource(trace: Self.textTrace("# a trace\n7000,0\n9000,1\n"))
        #expect(source.startNs == 7000)
        #expect(source.readLevel(line: 0) == .low)
        #expect(source.nextDueNs == 9000)
        #expect(source.deliveredEdges == 0)
        #expect(!source.isExhausted)
    }

    @Test func aBadLineEndsAButtonsRunAtTheLastGoodEdgeWithTheEventsBeforeIt() throws {
        // A press (settled at 15 ms), a release (settled at 45 ms), an edge at 60 ms whose press would
        // settle at 65 ms, then a bad line: the run ends at 60 ms, so that press is not reported.
        let text = "0,1\n10000000,0\n40000000,1\n60000000,0\n70000000,x\n80000000,1\n"
        let run = try Self.replay(Self.textTrace(text), plans: [Self.deferPlan])
        #expect(run.outputs.events.map(\.kind) == [.press, .release])
        #expect(run.outputs.events.map(\.timeNs) == [15_000_000, 45_000_000])
        guard case .malformedLine(_, let line, _, _)? = run.source.failure else { Issue.record("\(String(describing: run.source.failure))"); return }
        #expect(line == 5)
        #expect(run.source.deliveredEdges == 3)
        guard case .line(.inputUnreadable)? = run.error else { Issue.record("\(String(describing: run.error))"); return }
    }

    @Test(.timeLimit(.minutes(1)))
    func aTraceBeingWrittenIsFollowedWithoutWaitingForMoreThanTheNextRecord() throws {
        // 100 records in a pipe whose writer is still open: fewer than the source reads ahead, so a
        // source that waited to fill its read-ahead would never return.
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { try? writeEnd.close() }
        let text = "0,1\n" + (1...99).map { "\($0 * 1_000_000),\($0 % 2)\n" }.joined()
        _ = try Array(text.utf8).withUnsafeBytes { try writeEnd.writeAll($0) }
        let reader = TraceReader(fileDescriptor: readEnd, sourceName: "<pipe>", ownsFileDescriptor: true)
        let source = try TraceEdgeSource(trace: TraceLinesReader(reader: reader))
        var batch = EdgeBatch()
        try source.deliverDue(byNs: 50_000_000, into: &batch)
        #expect(batch.edges.count == 50)
        #expect(source.deliveredEdges == 50)
        #expect(source.nextDueNs == 51_000_000)
        #expect(source.readLevel(line: 0) == .low)
    }

    @Test func aTraceWithoutARecordHasNoData() throws {
        #expect(throws: TraceError.noData(source: "t.csv")) { try TraceEdgeSource(trace: Self.textTrace("# nothing\nt_ns,level\n")) }
    }

    // MARK: An encoder's two lines

    /// One detent clockwise (A leads), then one counter-clockwise, with line 2 (not asked for) between.
    static let encoderText = """
        # an encoder on lines 0 (A) and 1 (B)
        t_ns,line,level
        0,0,1
        0,1,1
        1000,0,0
        1500,2,1
        2000,1,0
        3000,0,1
        4000,1,1
        10000,1,0
        11000,0,0
        12000,1,1
        13000,0,1
        """

    /// The same turns as a two-channel VCD, in microseconds.
    static let encoderVCD = """
        $timescale 1 us $end
        $scope module libsigrok $end
        $var wire 1 ! D0 $end
        $var wire 1 " D1 $end
        $upscope $end
        $enddefinitions $end
        #0 1! 1"
        #1 0!
        #2 0"
        #3 1!
        #4 1"
        #10 0"
        #11 0!
        #12 1"
        #13 1!
        #14
        """

    static let encoder = [EncoderPlan(lineA: 0, lineB: 1)]

    @Test func oneDetentEachWayIsReplayedToOneRotationEachWay() throws {
        // The text trace in ns, the VCD in us: the same times.
        for trace in [try Self.textTrace(Self.encoderText, lines: [0, 1]), try Self.vcdTrace(Self.encoderVCD, channels: ["D0", "D1"])]
            as [any TraceLinesSource]
        {
            let run = try Self.replay(trace, plans: [.raw], encoders: Self.encoder)
            #expect(run.error == nil)
            #expect(run.source.lineCount == 2)
            #expect(run.outputs.rotations.map(\.direction) == [.clockwise, .counterClockwise])
            #expect(run.outputs.rotations.map(\.position) == [1, 0])
            #expect(run.outputs.rotations.map(\.timeNs) == [4000, 13000])
        }
    }

    @Test func aBadLineEndsTheRunAtTheLastGoodEdgeWithTheDetentsBeforeIt() throws {
        let text = Self.encoderText.replacingOccurrences(of: "11000,0,0", with: "11000,0,0,0")
        let run = try Self.replay(Self.textTrace(text, lines: [0, 1]), plans: [.raw], encoders: Self.encoder)
        #expect(run.outputs.rotations.map(\.direction) == [.clockwise])
        guard case .malformedLine(_, let line, _, _)? = run.source.failure else { Issue.record("\(String(describing: run.source.failure))"); return }
        #expect(line == 11)
        #expect(run.error != nil)
    }

    @Test func eachLinesInitialLevelMustComeBeforeTheOtherLinesEdges() throws {
        #expect(throws: TraceError.noInitialLevel(source: "t.csv", line: "line 1")) {
            try TraceEdgeSource(trace: Self.textTrace("0,0,1\n5,0,0\n6,1,1\n", lines: [0, 1]))
        }
        #expect(throws: TraceError.noInitialLevel(source: "t.csv", line: "line 1")) {
            try TraceEdgeSource(trace: Self.textTrace("0,0,1\n", lines: [0, 1]))
        }
        #expect(throws: TraceError.noData(source: "t.csv")) { try TraceEdgeSource(trace: Self.textTrace("# nothing\n", lines: [0, 1])) }
        // Each line reads its own initial level.
        let source = try TraceEdgeSource(trace: Self.textTrace("0,1,0\n2,0,1\n5,0,0\n", lines: [0, 1]))
        #expect([source.readLevel(line: 0), source.readLevel(line: 1)] == [.high, .low])
        #expect(source.startNs == 0)
        #expect(source.nextDueNs == 5)
    }

    /// The simulated encoder's edges as a text trace with the line column, and as a two-channel VCD
    /// (in ns), with both lines' initial levels first.
    static func recordings(of encoder: BouncyEncoder) -> (text: String, vcd: String) {
        var text = "t_ns,line,level\n0,0,1\n0,1,1\n"
        var vcd = "$timescale 1 ns $end\n$var wire 1 a A $end\n$var wire 1 b B $end\n$enddefinitions $end\n#0 1a 1b\n"
        var encoder = encoder
        while let record = encoder.next() {
            let level = record.edge.level == .high ? 1 : 0
            text += "\(record.edge.timeNs),\(record.line),\(level)\n"
            vcd += "#\(record.edge.timeNs) \(level)\(record.line == 0 ? "a" : "b")\n"
        }
        return (text, vcd)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func aRecordingOfTheSimulatedEncoderReplaysToTheDetentsItWasTurnedBy(seed: UInt64) throws {
        var truth = BouncyEncoder(seed: seed, gestures: 30, recordsDetents: true)
        while truth.next() != nil {}
        let turned = truth.takeDetents().map { $0.clockwise ? EncoderEvent.Direction.clockwise : .counterClockwise }
        #expect(turned.count > 10)
        let recordings = Self.recordings(of: BouncyEncoder(seed: seed, gestures: 30))
        for trace in [try Self.textTrace(recordings.text, lines: [0, 1]), try Self.vcdTrace(recordings.vcd, channels: ["A", "B"])]
            as [any TraceLinesSource]
        {
            let run = try Self.replay(trace, plans: [.raw], encoders: Self.encoder)
            #expect(run.error == nil)
            #expect(run.outputs.rotations.map(\.direction) == turned)
        }
    }
}
