import DebounceCore
import Foundation
import SystemPackage
import Testing

@testable import TraceFormat

/// An endless stream of lines that hold no data (`yes '' |`, `yes '#' |`) used to be read for ever:
/// the text reader now stops after `maximumSkippedLines` of them in a row, with a message.
@Suite struct SkippedLinesTests {
    /// The edges and the error of reading `text` from a temporary file named `t.csv` in its own directory.
    static func read(_ text: String) throws -> (edges: [Edge], error: TraceError?) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.csv").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let reader = TraceReader(
            fileDescriptor: try .open(path, .readOnly), sourceName: "t.csv", ownsFileDescriptor: true)
        return Hostile.read(reader)
    }

    @Test(arguments: ["\n", "#\n", "   \r\n", "# lost 3 events\n"])
    func anEndlessStreamOfLinesWithoutDataEnds(pattern: String) throws {
        let stream = try Hostile.Stream(prefix: "0,1\n", pattern: pattern)
        let reader = TraceReader(fileDescriptor: stream.readEnd, sourceName: "<stdin>", ownsFileDescriptor: false)
        let (edges, error) = Hostile.read(reader)
        let written = try stream.finish()
        #expect(edges == [Edge(level: .high, timeNs: 0)])
        let limit = TraceReader.maximumSkippedLines
        #expect(error == .tooManySkippedLines(source: "<stdin>", line: limit + 2, limit: limit))
        #expect(written < Hostile.boundBytes + limit * pattern.utf8.count)
        #expect(error?.description.contains("<stdin>:\(limit + 2): more than \(limit) blank or comment lines in a row") == true)
    }

    /// The count is of lines in a row: a data line starts it again, so a long trace with comments
    /// between its edges, and a file that ends with a full run of them, are read whole.
    @Test func aDataLineStartsTheCountAgain() throws {
        let run = String(repeating: "# comment\n", count: TraceReader.maximumSkippedLines)
        // The header is one of the lines in a row; each run is as long as allowed, none longer.
        let (edges, error) = try Self.read("t_ns,level\n" + run.dropFirst(10) + "0,1\n" + run + "5,0\n" + run)
        #expect(error == nil)
        #expect(edges == [Edge(level: .high, timeNs: 0), Edge(level: .low, timeNs: 5)])
    }

    /// Before the first data line the header, blank lines and comments count too.
    @Test func aFileOfNothingButCommentsIsAnErrorNotAWait() throws {
        let run = String(repeating: "\n", count: TraceReader.maximumSkippedLines + 1)
        let (edges, error) = try Self.read(run + "0,1\n")
        #expect(edges.isEmpty)
        #expect(error == .tooManySkippedLines(source: "t.csv", line: TraceReader.maximumSkippedLines + 1, limit: TraceReader.maximumSkippedLines))
    }
}
