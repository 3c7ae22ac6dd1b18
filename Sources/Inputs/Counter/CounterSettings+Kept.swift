import ConfigurationFile
import CounterState

extension CounterSettings {
    /// What the state directory keeps of this counter, on run line `line`: its total, written at most
    /// every `flush:` after a pulse.
    func kept(line: LineID) -> CounterStore.Counter {
        CounterStore.Counter(name: name, line: line.index, flushIntervalNs: flushIntervalNs)
    }
}
