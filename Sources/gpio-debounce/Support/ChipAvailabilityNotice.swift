import EventLoop
import LineInput
import Pipeline

/// `watch --wait-for-chips`: a chip that goes away or comes back while watched, said on standard
/// error (the events stay on standard output).
final class ChipAvailabilityNotice: Sink {
    var consumesEdges: Bool { false }
    /// It writes nothing for an output.
    var writesOutputsAtOnce: Bool { true }

    func consume(_ output: PipelineOutput, nowNs: Int64) {}

    func availabilityChanged(_ change: ChipAvailability, atNs nowNs: Int64) {
        if change.isAvailable {
            printToStandardError("gpio-debounce: \(change.chip) is back: watching its lines again")
        } else {
            printToStandardError("gpio-debounce: \(change.chip) went away (unplugged, or its driver unloaded): waiting for it to come back (SIGTERM stops)")
        }
    }
}
