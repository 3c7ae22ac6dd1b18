import DebounceCore
import Foundation
import SystemPackage
import Testing
import TraceFormat

/// Writes `text` to a fresh temporary file and returns its path.
func temporaryFile(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-\(UUID().uuidString).csv").path
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    return path
}

/// Reads every record of `text` through a reader with a small buffer, so lines straddle refills.
func readAll(_ text: String, bufferBytes: Int = 4097) throws -> [Edge] {
    let path = try temporaryFile(text)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reader = TraceReader(
        fileDescriptor: try FileDescriptor.open(FilePath(path), .readOnly), sourceName: "t.csv", ownsFileDescriptor: true,
        bufferBytes: bufferBytes)
    var edges: [Edge] = []
    while let edge = try reader.next() { edges.append(edge) }
    return edges
}

@Suite struct TraceReaderTests {
    @Test func readsDataSkippingCommentsBlanksAndHeader() throws {
        let text = "# a comment\n\nt_ns,level\n0,1\n  \n# more\n50000812,0\r\n-5, 1\n+7 ,0"
        #expect(try readAll(text) == [
            Edge(level: .high, timeNs: 0), Edge(level: .low, timeNs: 50_000_812),
            Edge(level: .high, timeNs: -5), Edge(level: .low, timeNs: 7),
        ])
    }

    /// Spreadsheet programs save CSV with a UTF-8 byte-order mark; on the first line it is skipped,
    /// before a header or data; elsewhere it is not a number.
    @Test func aByteOrderMarkStartingTheFileIsSkipped() throws {
        let edges = [Edge(level: .high, timeNs: 0), Edge(level: .low, timeNs: 1000)]
        #expect(try readAll("\u{FEFF}t_ns,level\r\n0,1\r\n1000,0\r\n") == edges)
        #expect(try readAll("\u{FEFF}0,1\n1000,0\n") == edges)
        #expect(throws: TraceError.self) { try readAll("0,1\n\u{FEFF}1000,0\n") }
    }

    @Test func streamsLongTracesAcrossBufferRefills() throws {
        let count = 20_000
        var text = "t_ns,level\n"
        for index in 0..<count { text += "\(Int64(index) * 1_000_003),\(index % 2)\n" }
        let edges = try readAll(text)
        #expect(edges.count == count)
        #expect(edges.last == Edge(level: .high, timeNs: Int64(count - 1) * 1_000_003))
    }

    @Test(arguments: [
        ("0,1\n5,2\n", 2, "level must be 0 or 1"),
        ("0,1\nabc\n", 2, "t_ns is not a whole number"),
        ("0,1\n\n12 0\n", 3, "expected a comma"),
        ("0,1\n99999999999999999999,0\n", 2, "out of range"),
        ("0,1\nt_ns,level\n", 2, "not a whole number"),
        ("0,1\n5,1,1\n", 2, "a line column (t_ns,line,level): this trace holds several lines; replay it with --encoder A,B"),
        ("0,1\n5,\n", 2, "level must be 0 or 1"),
    ])
    func malformedLinesNameTheLineAndTheProblem(text: String, line: Int, problem: String) throws {
        #expect {
            _ = try readAll(text)
        } throws: { error in
            guard case .malformedLine(let source, let reportedLine, let reportedProblem, _) = error as? TraceError else { return false }
            return source == "t.csv" && reportedLine == line && reportedProblem.contains(problem)
        }
    }

    @Test func overlongLineIsAnErrorNotUnboundedMemory() throws {
        let text = "0,1\n" + String(repeating: "1", count: 10_000) + ",0\n"
        #expect(throws: TraceError.lineTooLong(source: "t.csv", line: 2, limitBytes: TraceReader.maximumLineBytes)) {
            _ = try readAll(text, bufferBytes: 8192)
        }
    }

    @Test func missingFileSaysWhichAndWhy() {
        #expect(throws: TraceError.cannotOpen(path: "/nonexistent/x.csv", errno: .noSuchFileOrDirectory)) {
            _ = try TraceReader.open("/nonexistent/x.csv")
        }
        #expect(TraceError.cannotOpen(path: "x.csv", errno: .noSuchFileOrDirectory).description.contains("x.csv"))
    }
}

@Suite struct TraceWriterTests {
    @Test func traceWriterOutputReadsBackIdentically() throws {
        let edges = Array(LineBackendsFreeEdges.sample)
        let text = try VCD.captured { buffer in
            let writer = try TraceWriter(output: buffer, comments: ["test"], initialLevel: .high, atNs: 0)
            for edge in edges { try writer.write(edge) }
        }
        #expect(try readAll(text) == [Edge(level: .high, timeNs: 0)] + edges)
    }
}

enum LineBackendsFreeEdges {
    static let sample = (1...500).map { Edge(level: $0 % 2 == 0 ? .high : .low, timeNs: Int64($0) * 997) }
}
