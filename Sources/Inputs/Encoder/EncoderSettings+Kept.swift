import ConfigurationFile
import CounterState

extension EncoderSettings {
    /// What the state directory keeps of this encoder, input `input`: its position, with
    /// `restore: true` (written at most every 5 s after a detent); nil without.
    func kept(input: Int) -> CounterStore.Encoder? {
        restore ? CounterStore.Encoder(name: name, input: input, flushIntervalNs: CounterSettings.defaultIntervalNs) : nil
    }
}
