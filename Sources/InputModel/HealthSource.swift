/// Where an input's health counts (`InputHealth`) are read in the pipeline.
public enum HealthSource: Sendable, Hashable {
    /// One run line's (a button's, a contact's, a counter's).
    case line(Int)
    /// An input's own stage, by its identity (`OutputSource.input`): an encoder's decoder.
    case input(Int)
    /// Several run lines' counts added up: a keypad's keys.
    case lines([Int])
}
