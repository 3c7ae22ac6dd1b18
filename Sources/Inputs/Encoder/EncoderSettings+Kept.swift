import ConfigurationFile
import KeptState

extension EncoderSettings {
    /// What the state directory keeps of this encoder, input `input`: its position, in the positions
    /// file, with `restore: true` (written at most every 5 s after a detent); nil without.
    package func kept(input: Int) -> StateStore.Entry? {
        restore ? StateStore.Entry(name: name, input: input, file: .positions, flushIntervalNs: StateStore.defaultFlushIntervalNs) : nil
    }

    package static var stateFiles: [StateFile] { [.positions] }

    package static var resetHelp: String? {
        "An encoder's position: without --to it goes to its reset_to: (0 when it has none), clamped into its min...max; "
            + "kept in the state directory with restore: true, as a detent's would be."
    }
}
