import DebounceCore
import EventOutput
import Foundation
import SystemPackage
import Testing

/// A line's state at the start (`watch --initial-state`), as the writer prints it.
@Suite struct InitialStateWriterTests {
    func captured(format: EventFormat, _ body: (EventWriter) throws -> Void) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-\(UUID().uuidString).out").path
        try "".write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = try FileDescriptor.open(FilePath(path), .writeOnly)
        let buffer = OutputBuffer(fileDescriptor: descriptor, flushThreshold: 0)
        try body(EventWriter(format: format, output: buffer))
        try buffer.flush()
        try descriptor.close()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    static let fields = EventFields([.text("chip", "gpiochip0"), .integer("line", 17)])

    @Test func jsonSaysInitialTheStateAndTheLevel() throws {
        let text = try captured(format: .json) { writer in
            try writer.write(initialLevel: .low, pressed: true, timeNs: 1_500_000_000, fields: Self.fields)
            try writer.write(initialLevel: .high, pressed: false, timeNs: 1_500_000_000, fields: Self.fields)
            try writer.write(initialLevel: .high, pressed: nil, timeNs: 7)
        }
        #expect(text == """
            {"event":"initial","state":"pressed","level":0,"time_ns":1500000000,"chip":"gpiochip0","line":17}
            {"event":"initial","state":"released","level":1,"time_ns":1500000000,"chip":"gpiochip0","line":17}
            {"event":"initial","level":1,"time_ns":7}

            """)
        for line in text.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["event"] as? String == "initial")
        }
    }

    @Test func textSaysInitialTheStateAndTheLevel() throws {
        let text = try captured(format: .text) { writer in
            try writer.write(initialLevel: .low, pressed: true, timeNs: 1_500_000_000, fields: Self.fields)
            try writer.write(initialLevel: .low, pressed: false, timeNs: 0, fields: Self.fields)
            try writer.write(initialLevel: .high, pressed: nil, timeNs: 0)
        }
        #expect(text == """
            initial pressed  level=0 time=1.500000000 chip=gpiochip0 line=17
            initial released level=0 time=0.000000000 chip=gpiochip0 line=17
            initial level=1 time=0.000000000

            """)
    }
}
