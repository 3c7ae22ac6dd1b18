import ConfigurationFile
import KeptState

extension CounterSettings {
    /// What the state directory keeps of this counter, input `input`: its total, in the counters'
    /// file, written at most every `flush:` after a pulse.
    package func kept(input: Int) -> StateStore.Entry? {
        StateStore.Entry(name: name, input: input, file: .counters, flushIntervalNs: flushIntervalNs)
    }

    package static var stateFiles: [StateFile] { [.counters] }

    package static var resetHelp: String? {
        "A counter's total, in pulses: without --to it starts again from 0; kept in the state directory as a pulse's would be."
    }
}
