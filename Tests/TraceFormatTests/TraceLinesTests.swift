import DebounceCore
import Foundation
import SystemPackage
import Testing
import TraceFormat

/// Traces of several lines (an encoder's A and B): the text format's line column and a VCD's channels.
/// (Their replay through the loop is in TraceInputTests.)
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

    static func records(_ source: some TraceLinesSource) throws -> [(line: Int, edge: Edge)] {
        var records: [(line: Int, edge: Edge)] = []
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
    static func triples(_ records: [(line: Int, edge: Edge)]) -> [String] {
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

    @Test func overAReaderWithoutTheLineColumnItReadsTheOneLineOfATextTrace() throws {
        let path = try temporaryFile("t_ns,level\n0,1\n5,0\n9,1\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let oneLine = TraceLinesReader(reader: try TraceReader.open(path))
        #expect(oneLine.lineCount == 1)
        #expect(Self.triples(try Self.records(oneLine)) == ["0,1,0", "0,0,5", "0,1,9"])
        let refusing = try temporaryFile("0,1\n5,1,0\n")
        defer { try? FileManager.default.removeItem(atPath: refusing) }
        do {
            _ = try Self.records(TraceLinesReader(reader: try TraceReader.open(refusing)))
            Issue.record("a line column was read")
        } catch {
            guard case .malformedLine(_, 2, let problem, _) = error as? TraceError else { Issue.record("\(error)"); return }
            #expect(problem == TraceReader.lineColumnRefused)
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
}
