import DebounceCore
import EventLoop
import Foundation
import Pipeline
import Simulation
import SystemPackage
import Testing
import TraceFormat

/// Traces of several lines (an encoder's A and B): the text format's line column, a VCD's channels,
/// and a trace of the simulated encoder replayed through the decoder to the detents it was turned by.
@Suite struct TraceLinesTests {
    /// One detent clockwise (A leads), then one counter-clockwise, with line 2 (not asked for) between.
    static let text = """
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

    static func records(_ source: some TraceLinesSource) throws -> [LineEdge] {
        var records: [LineEdge] = []
        while let record = try source.nextLineEdge() { records.append(record) }
        return records
    }

    static func textReader(_ text: String, lines: [Int]) throws -> TraceLinesReader {
        let path = try temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = TraceReader(
            fileDescriptor: try FileDescriptor.open(FilePath(path), .readOnly), sourceName: "t.csv", ownsFileDescriptor: true,
            readsLineColumn: true)
        return TraceLinesReader(reader: reader, lines: lines)
    }

    static func vcdReader(_ text: String, channels: [String]) throws -> VCDReader {
        let path = try VCD.file(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return VCDReader(
            fileDescriptor: try FileDescriptor.open(FilePath(path), .readOnly), sourceName: "t.vcd", ownsFileDescriptor: true,
            channels: channels)
    }

    /// `records` as `(line, level, t)` triples, for short expectations.
    static func triples(_ records: [LineEdge]) -> [String] {
        records.map { "\($0.line),\($0.edge.level == .high ? 1 : 0),\($0.edge.timeNs)" }
    }

    @Test func theLineColumnGivesEachRecordItsLineAndSkipsLinesNotAskedFor() throws {
        let records = try Self.records(Self.textReader(Self.text, lines: [0, 1]))
        #expect(
            Self.triples(records) == [
                "0,1,0", "1,1,0", "0,0,1000", "1,0,2000", "0,1,3000", "1,1,4000", "1,0,10000", "0,0,11000", "1,1,12000", "0,1,13000",
            ])
        // Asked for in the other order, line 1 is index 0.
        let swapped = try Self.records(Self.textReader(Self.text, lines: [1, 0]))
        #expect(swapped.prefix(2).map(\.line) == [1, 0])
        // A t_ns,level line is line 0.
        let mixed = try Self.records(Self.textReader("0,1\n0,1,1\n5,0\n", lines: [0, 1]))
        #expect(Self.triples(mixed) == ["0,1,0", "1,1,0", "0,0,5"])
    }

    @Test(arguments: [
        ("0,1\n0,1,1\n5,x,0\n", 3, "level must be 0 or 1"),
        ("0,1\n0,1,1\n5,64,0\n", 3, "line must be a whole number from 0 to 63"),
        ("0,1\n0,1,1\n5,1,2\n", 3, "level must be 0 or 1"),
        ("0,1\n0,1,1\n5,1,\n", 3, "level must be 0 or 1"),
    ])
    func aBadLineColumnNamesTheLine(text: String, line: Int, problem: String) throws {
        let reader = try Self.textReader(text, lines: [0, 1])
        #expect(throws: TraceError.self) { try Self.records(reader) }
        do {
            _ = try Self.records(Self.textReader(text, lines: [0, 1]))
        } catch {
            guard case .malformedLine(_, let reported, let reportedProblem, _) = error as? TraceError else { Issue.record("\(error)"); return }
            #expect(reported == line)
            #expect(reportedProblem == problem)
        }
    }

    @Test func aOneLineReaderRefusesTheLineColumnSayingHowToReplayIt() throws {
        for text in [Self.text, "0,1\n5,1,0\n"] {
            #expect(throws: TraceError.self) { try readAll(text) }
            do { _ = try readAll(text) } catch {
                guard case .malformedLine(_, _, let problem, _) = error as? TraceError else { Issue.record("\(error)"); continue }
                #expect(problem == TraceReader.lineColumnRefused)
            }
        }
    }

    static let vcd = """
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

    @Test(arguments: [["D0", "D1"], ["0", "1"], ["libsigrok.D0", "1"]])
    func aVCDsChannelsAreReadTogetherInTheFilesOrder(channels: [String]) throws {
        let reader = try Self.vcdReader(Self.vcd, channels: channels)
        #expect(
            Self.triples(try Self.records(reader)) == [
                "0,1,0", "1,1,0", "0,0,1000", "1,0,2000", "0,1,3000", "1,1,4000", "1,0,10000", "0,0,11000", "1,1,12000", "0,1,13000",
            ])
        #expect(reader.chosenChannels.map(\.name) == ["D0", "D1"])
    }

    @Test(arguments: [
        (["D0", "D2"], "no channel 'D2' in the VCD"),
        (["D0", "0"], "'0' is channel libsigrok.D0 again"),
    ])
    func aVCDsChannelsMustBeTwoDifferentOnes(channels: [String], problem: String) throws {
        #expect(throws: TraceError.self) { try Self.vcdReader(Self.vcd, channels: channels).readHeader() }
        do { try Self.vcdReader(Self.vcd, channels: channels).readHeader() } catch {
            #expect(VCD.isMalformed(error, line: 6, problem))
        }
    }

    @Test func aVCDOfOneChannelSaysAnEncoderNeedsTwo() throws {
        let one = Self.vcd.split(separator: "\n").filter { !$0.contains("\"") }.joined(separator: "\n")
        do {
            try Self.vcdReader(one, channels: ["D0", "D1"]).readHeader()
            Issue.record("read")
        } catch {
            #expect(VCD.isMalformed(error, line: 5, "the VCD has 1 1-bit channel (D0), and 2 are needed"))
        }
    }

    // MARK: The edge source

    /// A sink keeping the rotations.
    final class Rotations: Sink {
        var events: [EncoderEvent] = []
        func consume(_ output: PipelineOutput, nowNs: Int64) {
            if case .rotation(_, let event) = output { events.append(event) }
        }
    }

    /// `trace` through the encoder's decoder in virtual time, as `replay --encoder` runs it.
    static func replay(_ trace: some TraceLinesSource) throws -> (events: [EncoderEvent], source: TraceLinesEdgeSource, error: LoopError?) {
        let source = try TraceLinesEdgeSource(trace: trace)
        let sink = Rotations()
        let loop = try EventLoop(
            clock: .virtual(startNs: source.startNs), source: source, plans: [.raw], encoders: [EncoderPlan(lineA: 0, lineB: 1)], sinks: [sink])
        do {
            _ = try loop.run()
            return (sink.events, source, nil)
        } catch {
            return (sink.events, source, error)
        }
    }

    @Test func oneDetentEachWayIsReplayedToOneRotationEachWay() throws {
        // The text trace in ns, the VCD in us: the same times.
        for trace in [try Self.textReader(Self.text, lines: [0, 1]), try Self.vcdReader(Self.vcd, channels: ["D0", "D1"])] as [any TraceLinesSource] {
            let run = try Self.replay(trace)
            #expect(run.error == nil)
            #expect(run.events.map(\.direction) == [.clockwise, .counterClockwise])
            #expect(run.events.map(\.position) == [1, 0])
            #expect(run.events.map(\.timeNs) == [4000, 13000])
        }
    }

    @Test func aBadLineEndsTheRunAtTheLastGoodEdgeWithTheDetentsBeforeIt() throws {
        let text = Self.text.replacingOccurrences(of: "11000,0,0", with: "11000,0,0,0")
        let run = try Self.replay(Self.textReader(text, lines: [0, 1]))
        #expect(run.events.map(\.direction) == [.clockwise])
        guard case .malformedLine(_, let line, _, _)? = run.source.failure else { Issue.record("\(String(describing: run.source.failure))"); return }
        #expect(line == 11)
        #expect(run.error != nil)
    }

    @Test func eachLinesInitialLevelMustComeBeforeTheOtherLinesEdges() throws {
        #expect(throws: TraceError.noInitialLevel(source: "t.csv", line: "line 1")) {
            try TraceLinesEdgeSource(trace: Self.textReader("0,0,1\n5,0,0\n6,1,1\n", lines: [0, 1]))
        }
        #expect(throws: TraceError.noInitialLevel(source: "t.csv", line: "line 1")) {
            try TraceLinesEdgeSource(trace: Self.textReader("0,0,1\n", lines: [0, 1]))
        }
        #expect(throws: TraceError.noData(source: "t.csv")) { try TraceLinesEdgeSource(trace: Self.textReader("# nothing\n", lines: [0, 1])) }
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
        for trace in [try Self.textReader(recordings.text, lines: [0, 1]), try Self.vcdReader(recordings.vcd, channels: ["A", "B"])] as [any TraceLinesSource] {
            let run = try Self.replay(trace)
            #expect(run.error == nil)
            #expect(run.events.map(\.direction) == turned)
        }
    }
}
