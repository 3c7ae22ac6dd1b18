import ConfigurationFile
import EventLoop
import LineInput
import Logging
import Pipeline

/// The daemon's log of chips that go away and come back while it runs (`run` waits for them): a
/// warning naming the inputs that are gone, and a notice when they are watched again.
final class ChipAvailabilityLog: Sink {
    /// Each run line's input name, in the run's line order.
    private let inputNames: [String]
    private let logger: Logger

    init(roster: Roster, logger: Logger) {
        inputNames = roster.lines.map { roster.input(owning: $0.id).name }
        self.logger = logger
    }

    var consumesEdges: Bool { false }
    /// It writes nothing for an output.
    var writesOutputsAtOnce: Bool { true }

    func consume(_ output: PipelineOutput, nowNs: Int64) {}

    func availabilityChanged(_ change: ChipAvailability, atNs nowNs: Int64) {
        let inputs = Self.inputs(change.lines, names: inputNames).joined(separator: ", ")
        if change.isAvailable {
            logger.notice("\(change.chip) is back: watching \(inputs) again")
        } else {
            logger.warning(
                "\(change.chip) went away (unplugged, or its driver unloaded): \(inputs) unavailable until it comes back; the other inputs go on")
        }
    }

    /// The names of the inputs on `lines`, each once (an encoder's two lines are one input), in order.
    static func inputs(_ lines: [Int], names: [String]) -> [String] {
        var seen: Set<String> = []
        return lines.compactMap { $0 < names.count ? names[$0] : nil }.filter { seen.insert($0).inserted }
    }
}
