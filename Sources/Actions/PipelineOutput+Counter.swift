import DebounceCore
import Pipeline

extension PipelineOutput {
    /// A counter's report as its actions see it (`CounterActionBinding`): its line, the total in
    /// pulses, the rate (in the counter's rate unit) and when it was decided, with the pulse itself
    /// for a pulse (`.count`) and nil for a fall of the rate with no pulse (`.rate`); nil for any other
    /// output.
    var counterReport: (line: Int, total: Int64, rate: Double, timeNs: Int64, pulse: PulseCount?)? {
        switch self {
        case .count(let source, let pulse): (source.lineIndex, pulse.total, pulse.rate, pulse.timeNs, pulse)
        case .rate(let source, let fall): (source.lineIndex, fall.total, fall.rate, fall.timeNs, nil)
        default: nil
        }
    }
}
