import ConfigurationFile
import CounterState

extension EncoderSettings {
    /// What the state directory keeps of this encoder, input `input`: its position, in the positions
    /// file, with `restore: true` (written at most every 5 s after a detent); nil without.
    package func kept(input: Int) -> StateStore.Entry? {
        restore ? StateStore.Entry(name: name, input: input, file: .positions, flushIntervalNs: CounterSettings.defaultIntervalNs) : nil
    }
}
