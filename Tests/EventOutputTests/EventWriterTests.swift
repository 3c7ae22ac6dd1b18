import DebounceCore
import EventOutput
import Foundation
import SystemPackage
import Testing

@Suite struct EventWriterTests {
    /// Runs `body` with an output buffer writing into a temporary file, and returns the file's text.
    /// `flushThreshold` 0 writes every line at once, as `watch` does (JSON lines then go straight from
    /// the stack).
    func captured(flushThreshold: Int = 64 * 1024, _ body: (OutputBuffer) throws -> Void) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-\(UUID().uuidString).out").path
        try "".write(toFile: path, atomically: false, encoding: .utf8)
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
            try writer.write(ButtonEvent(kind: .release, timeNs: -3, onsetNs: -9_223_372_036_854_775_807, heldNs: 1_500_000))
            try writer.write(ButtonEvent(kind: .press, timeNs: 1_234_567_890_123, onsetNs: 1_234_567_890_123))  // eager: onset = time
        }
        #expect(text == """
            {"event":"press","time_ns":52989250,"onset_ns":50000812}
            {"event":"release","time_ns":-3,"onset_ns":-9223372036854775807,"held_ns":1500000}
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
}
