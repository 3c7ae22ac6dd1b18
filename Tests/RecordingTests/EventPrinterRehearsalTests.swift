#if canImport(Glibc)
import Glibc
#endif
import DebounceCore
import EventLoop
import EventOutput
import Pipeline
import Recording
import SystemPackage
import Testing

/// The printer's rehearsal (`Sink.rehearse`) formats an event as `consume` would, but writes nothing
/// and counts nothing: the first real event's line is the same as without it.
@Suite struct EventPrinterRehearsalTests {
    /// What `body` leaves written to a printer's output file, the printer counting raw edges.
    static func written(_ body: (EventPrinter) throws -> Void) throws -> String {
        var template = Array("/tmp/gpio-debounce-printer-XXXXXX".utf8CString)
        let file = mkstemp(&template)
        try #require(file >= 0)
        defer { close(file); unlink(template) }
        let writer = EventWriter(format: .json, output: OutputBuffer(fileDescriptor: FileDescriptor(rawValue: file), flushThreshold: 0))
        let printer = EventPrinter(writer: writer, lineFields: [EventFields([.text("button", "door"), .text("chip", "gpiochip0"), .integer("line", 17)])], tallyField: .rawEdges)
        try body(printer)
        let length = Int(lseek(file, 0, SEEK_END))
        var bytes = [UInt8](repeating: 0, count: length)
        try #require(pread(file, &bytes, length, 0) == length)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aRehearsalWritesNothingAndCountsNothing() throws {
        let edge = PipelineOutput.edge(LineEdge(line: 0, edge: Edge(level: .low, timeNs: 900)))
        let press = PipelineOutput.event(.line(0), ButtonEvent(kind: .press, timeNs: 1_000, onsetNs: 900))
        let rehearsed = try Self.written { printer in
            for _ in 0..<3 { printer.rehearse(edge) }
            printer.rehearse(press)
            printer.rehearse(.loss(line: 0, count: 2, atNs: 950))
            #expect(printer.tally(line: 0).rawEdgesSinceEvent == 0)
            #expect(printer.tally(line: 0).lostEvents == 0)
            try printer.consume(edge, nowNs: 1_000)
            try printer.consume(press, nowNs: 1_000)
        }
        let plain = try Self.written { printer in
            try printer.consume(edge, nowNs: 1_000)
            try printer.consume(press, nowNs: 1_000)
        }
        #expect(rehearsed == plain)
        #expect(plain.contains("\"raw_edges\":1"), "\(plain)")
    }
}
