#if canImport(Glibc)
import Glibc
#endif
import DebounceCore
import EventOutput
import InputModel
import Inputs
import Recording
import SystemPackage
import Testing

/// The printer's start: a contact's state always, every other line's with `printsInitialStates`.
@Suite struct EventPrinterInitialStateTests {
    /// What a printer of three lines (a button, an encoder's raw line, a contact) writes at its start.
    static func started(printsInitialStates: Bool, format: EventFormat = .json, restored: [any InputPresenter] = []) throws -> String {
        var template = Array("/tmp/gpio-debounce-initial-XXXXXX".utf8CString)
        let file = mkstemp(&template)
        try #require(file >= 0)
        defer { close(file); unlink(template) }
        let writer = EventWriter(format: format, output: OutputBuffer(fileDescriptor: FileDescriptor(rawValue: file), flushThreshold: 0))
        let fields = (0..<3).map { EventFields([.integer("line", Int64($0))]) }
        let printer = EventPrinter(
            writer: writer, lineFields: fields, printsInitialStates: printsInitialStates, restored: restored,
            printers: [1: EncoderPrinter(fields: EventFields([.text("encoder", "volume")])), 2: SensorPrinter(line: 2, fields: fields[2])])
        printer.start(linesPressed: [true, nil, false], levels: [.low, .high, .high], atNs: 42)
        try printer.finish(atNs: 42)
        let length = Int(lseek(file, 0, SEEK_END))
        var bytes = [UInt8](repeating: 0, count: length)
        try #require(pread(file, &bytes, length, 0) == length)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func everyLinesStateAtTheStartWhenAsked() throws {
        #expect(try Self.started(printsInitialStates: true) == """
            {"event":"state","state":"off","time_ns":42,"onset_ns":42,"initial":true,"line":2}
            {"event":"initial","state":"pressed","level":0,"time_ns":42,"line":0}
            {"event":"initial","level":1,"time_ns":42,"line":1}

            """)
    }

    @Test func onlyTheContactsStateOtherwise() throws {
        #expect(try Self.started(printsInitialStates: false) == """
            {"event":"state","state":"off","time_ns":42,"onset_ns":42,"initial":true,"line":2}

            """)
    }

    /// An encoder that starts from a kept position (`restore: true`) says so at the start, after the
    /// lines' states, in JSON and in text (`InputPresenter.printedRestoredStart`); an input with
    /// nothing to show of a kept value (a counter) shows nothing.
    @Test func aRestoredEncodersPositionAtTheStart() throws {
        let volume = EncoderPresenter(name: "volume", input: 1, chip: "sim", lines: [5, 6], lineIndices: [1], startPosition: -4)
        let meter = CounterPresenter(
            name: "energy", input: 2, chip: "sim", line: 7, lineIndex: 2, perUnit: 1000, unit: "kWh", deviceClass: "energy", startTotal: 41_000, publishIntervalNs: 1)
        #expect(try Self.started(printsInitialStates: false, restored: [volume, meter]) == """
            {"event":"state","state":"off","time_ns":42,"onset_ns":42,"initial":true,"line":2}
            {"event":"position","position":-4,"time_ns":42,"restored":true,"encoder":"volume","chip":"sim","lines":[5,6]}

            """)
        let text = try Self.started(
            printsInitialStates: false, format: .text, restored: [EncoderPresenter(name: "volume", input: 1, chip: "sim", lines: [5, 6], startPosition: 37)])
        #expect(text.hasSuffix("position 37 time=0.000000042 (restored) encoder=volume chip=sim lines=5,6\n"), "\(text)")
    }
}
