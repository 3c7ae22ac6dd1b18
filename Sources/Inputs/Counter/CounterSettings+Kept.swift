import ConfigurationFile
import CounterState

extension CounterSettings {
    /// What the state directory keeps of this counter, input `input`: its total, in the counters'
    /// file, written at most every `flush:` after a pulse.
    package func kept(input: Int) -> StateStore.Entry? {
        StateStore.Entry(name: name, input: input, file: .counters, flushIntervalNs: flushIntervalNs)
    }
}
