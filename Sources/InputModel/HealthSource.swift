/// Where an input's health counts (`InputHealth`) are read in the pipeline.
package enum HealthSource: Sendable, Hashable {
    /// One run line's: an input of one line.
    case line(Int)
    /// An input's own stage, by its identity (`OutputSource.input`): a decoder of two lines as one.
    case input(Int)
    /// Several run lines' counts added up: a matrix's keys.
    case lines([Int])
}
