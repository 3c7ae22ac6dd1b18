import EventLoop
import EventOutput
import Recording
import SystemPackage
import Testing

/// A printer has written each event by the time `consume` returns only when its output writes every
/// line at once: then a loop on one CPU hands the CPU to the reader right after the events.
@Suite struct EventPrinterHandOverTests {
    static func printer(flushThreshold: Int) -> EventPrinter {
        let output = OutputBuffer(fileDescriptor: FileDescriptor(rawValue: -1), flushThreshold: flushThreshold)
        return EventPrinter(writer: EventWriter(format: .json, output: output), lineFields: [EventFields([.text("button", "door")])])
    }

    @Test func aPrinterWritingEachLineWritesItsOutputsAtOnce() {
        #expect(Self.printer(flushThreshold: 0).writesOutputsAtOnce)
    }

    @Test func aPrinterKeepingLinesForALaterFlushDoesNot() {
        #expect(!Self.printer(flushThreshold: 64 * 1024).writesOutputsAtOnce)
    }
}
