#if canImport(Glibc)
import Glibc
#endif
import DebounceCore
import EventOutput
import Inputs
import Pipeline
import Recording
import SystemPackage
import Testing

/// An encoder's reset (`PipelineOutput.positionReset`) as the printer writes it, in JSON and in text,
/// with the encoder's fields.
@Suite struct EventPrinterResetTests {
    static func written(_ format: EventFormat, _ outputs: [PipelineOutput]) throws -> String {
        var template = Array("/tmp/gpio-debounce-reset-XXXXXX".utf8CString)
        let file = mkstemp(&template)
        try #require(file >= 0)
        defer { close(file); unlink(template) }
        let writer = EventWriter(format: format, output: OutputBuffer(fileDescriptor: FileDescriptor(rawValue: file), flushThreshold: 0))
        let printer = EventPrinter(
            writer: writer, lineFields: (0..<3).map { EventFields([.integer("line", Int64($0))]) },
            printers: [0: EncoderPrinter(fields: EventFields([.text("encoder", "volume")]))])
        for output in outputs { try printer.consume(output, nowNs: 0) }
        try printer.finish(atNs: 0)
        let length = Int(lseek(file, 0, SEEK_END))
        var bytes = [UInt8](repeating: 0, count: length)
        try #require(pread(file, &bytes, length, 0) == length)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aResetIsAnEventWithThePositionItSet() throws {
        let detent = PipelineOutput.rotation(OutputSource(input: 0, line: 0), EncoderEvent(direction: .clockwise, position: 8, timeNs: 40, onsetNs: 30))
        #expect(try Self.written(.json, [detent, .positionReset(OutputSource(input: 0, line: 0), position: -2, atNs: 213_000_000)]) == """
            {"event":"rotate","direction":"cw","position":8,"velocity":0,"time_ns":40,"onset_ns":30,"encoder":"volume"}
            {"event":"reset","position":-2,"time_ns":213000000,"encoder":"volume"}

            """)
        #expect(try Self.written(.text, [.positionReset(OutputSource(input: 0, line: 0), position: 50, atNs: 1_500_000_000)]) == "reset  position=50 time=1.500000000 encoder=volume\n")
        #expect(EventWriter.jsonObject(resetPosition: 0, timeNs: 7) == Array(#"{"event":"reset","position":0,"time_ns":7}"#.utf8))
    }
}
