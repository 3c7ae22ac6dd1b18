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
        ("0,1\n5,1,1\n", 2, "level must be 0 or 1"),
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

@Suite struct WriterTests {
    /// Runs `body` with an output buffer writing into a temporary file, and returns the file's text.
    /// `flushThreshold` 0 writes every line at once, as `watch` does (JSON lines then go straight from
    /// the stack).
    func captured(flushThreshold: Int = 64 * 1024, _ body: (OutputBuffer) throws -> Void) throws -> String {
        let path = try temporaryFile("")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = try FileDescriptor.open(FilePath(path), .writeOnly)
        let buffer = OutputBuffer(fileDescriptor: descriptor, flushThreshold: flushThreshold)
        try body(buffer)
        try buffer.flush()
        try descriptor.close()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test(arguments: [0, 64 * 1024])
    func jsonHasExactlyTheDocumentedKeys(flushThreshold: Int) throws {
        let text = try captured(flushThreshold: flushThreshold) { buffer in
            let writer = EventWriter(format: .json, output: buffer)
            try writer.write(ButtonEvent(kind: .press, timeNs: 52_989_250, onsetNs: 50_000_812))
            try writer.write(ButtonEvent(kind: .release, timeNs: -3, onsetNs: -9_223_372_036_854_775_807))
            try writer.write(ButtonEvent(kind: .press, timeNs: 1_234_567_890_123, onsetNs: 1_234_567_890_123))  // eager: onset = time
        }
        #expect(text == """
            {"event":"press","time_ns":52989250,"onset_ns":50000812}
            {"event":"release","time_ns":-3,"onset_ns":-9223372036854775807}
            {"event":"press","time_ns":1234567890123,"onset_ns":1234567890123}

            """)
    }

    /// A printer's fields table hands back each line's bytes as they were formatted, lines with no
    /// fields included, and an event written from it is the same line as one written from the fields.
    @Test func aFieldTableGivesEachLinesBytes() throws {
        let fields = [
            EventFields([.text("chip", "gpiochip0"), .integer("line", 17)]), .none,
            EventFields([.text("button", "door \"bell\"\u{1B}"), .integer("line", -1)]),
        ]
        let table = EventFieldTable(fields)
        for (line, lineFields) in fields.enumerated() {
            #expect(Array(table.json(line: line)) == lineFields.json)
            #expect(Array(table.text(line: line)) == lineFields.text)
        }
        let event = ButtonEvent(kind: .press, timeNs: 5, onsetNs: 3)
        for format in EventFormat.allCases {
            let fromFields = try captured { try EventWriter(format: format, output: $0).write(event, fields: fields[2], trailing: .integer("raw_edges", 4)) }
            let fromTable = try captured {
                try EventWriter(format: format, output: $0).write(
                    event, fieldsJSON: table.json(line: 2), fieldsText: table.text(line: 2), trailing: .integer("raw_edges", 4))
            }
            #expect(fromTable == fromFields)
            #expect(fromTable.contains("door"))
        }
    }

    /// The JSON line is formatted into a buffer sized in advance (`ByteWriter`): the longest values
    /// (the most negative times, a huge count, text that is all control characters, quotes and
    /// backslashes, non-ASCII) fit, and come out as the plain formatting says.
    @Test(arguments: [0, 64 * 1024])
    func jsonOfTheLongestValuesFitsAndIsExact(flushThreshold: Int) throws {
        let nasty = String(repeating: "\u{01}\"\\\u{1F}é😀", count: 40)
        let fields = EventFields([.text("button", nasty), .integer("line", .min), .text("chip", "")])
        let event = ButtonEvent(kind: .click, timeNs: .min, onsetNs: .min, count: .max)
        let text = try captured(flushThreshold: flushThreshold) { buffer in
            try EventWriter(format: .json, output: buffer).write(event, fields: fields, trailing: .integer("lost_events", .max))
        }
        let expected = "{\"event\":\"click\",\"time_ns\":\(Int64.min),\"onset_ns\":\(Int64.min),\"count\":\(Int.max)"
            + ",\"button\":\(JSONText.quoted(nasty)),\"line\":\(Int64.min),\"chip\":\"\",\"lost_events\":\(Int64.max)}\n"
        #expect(text == expected)
        #expect(JSONText.quoted(nasty).contains("\\u0001\\\"\\\\\\u001fé😀"))
    }

    /// Numbers are formatted two digits at a time: every digit count (1 to 19), every bit length,
    /// both signs, the boundaries of each pair, and both ends of `Int64`, printed as Swift prints them.
    @Test func numbersOfEveryLengthAreExact() throws {
        var values: [Int64] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, Int64.max, Int64.min, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, power * 9 / 7]
        }
        // The digit count is estimated from the bit length: every bit length's ends too.
        values += (0..<63).flatMap { [Int64(1) << $0, (Int64(1) << $0) - 1] }
        values += values.filter { $0 != .min }.map { -$0 }
        let text = try captured { buffer in
            for value in values {
                buffer.append(value)
                buffer.append(" ")
            }
        }
        #expect(text == values.map { "\($0) " }.joined())
    }

    /// Text fields are formatted into memory sized in advance too: text that is all control
    /// characters (C0, DEL, C1) and non-ASCII fits, escaped exactly as `TerminalText` says.
    @Test func textOfTheLongestValuesFitsAndIsExact() throws {
        let nasty = String(repeating: "\u{01}\u{7F}\u{9F}\u{1B}[2Jé😀", count: 40)
        let event = ButtonEvent(kind: .press, timeNs: 1, onsetNs: 1)
        let text = try captured { buffer in
            try EventWriter(format: .text, output: buffer).write(
                event, fields: EventFields([.text("button", nasty), .integer("line", .min)]), trailing: .text("chip", nasty))
        }
        let escaped = TerminalText.escaped(nasty)
        #expect(text == "press   time=0.000000001 onset=0.000000001 (+0.000ms) button=\(escaped) line=\(Int64.min) chip=\(escaped)\n")
        #expect(escaped.contains("\\u{1}\\u{7F}\\u{9F}\\u{1B}[2Jé😀"))
    }

    @Test func textShowsSecondsAndTheDelay() throws {
        let text = try captured { buffer in
            try EventWriter(format: .text, output: buffer).write(
                ButtonEvent(kind: .press, timeNs: 52_989_250, onsetNs: 50_000_812),
                fields: EventFields([.text("chip", "gpio\u{1B}[2J"), .integer("line", 17)]), trailing: .integer("raw_edges", 9))
        }
        #expect(text == "press   time=0.052989250 onset=0.050000812 (+2.988ms) chip=gpio\\u{1B}[2J line=17 raw_edges=9\n")
    }

    @Test func traceWriterOutputReadsBackIdentically() throws {
        let edges = Array(LineBackendsFreeEdges.sample)
        let text = try captured { buffer in
            let writer = try TraceWriter(output: buffer, comments: ["test"], initialLevel: .high, atNs: 0)
            for edge in edges { try writer.write(edge) }
        }
        #expect(try readAll(text) == [Edge(level: .high, timeNs: 0)] + edges)
    }
}

enum LineBackendsFreeEdges {
    static let sample = (1...500).map { Edge(level: $0 % 2 == 0 ? .high : .low, timeNs: Int64($0) * 997) }
}
