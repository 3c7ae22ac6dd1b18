/// An output as an input's actions see it: the `on:` word it answers (`press`, `cw`, `on`, `pulse`,
/// `code`), a wider word it answers too (`rotate` for either direction, `change` for either state,
/// `rate` for a pulse, which also gives a rate), a click's count, and when it was decided. Plain
/// values: what its commands get in their environment is asked for only when an action matches
/// (`InputPresenter.actionEnvironment(for:)`).
package struct ActionOccasion: Sendable, Hashable {
    /// The word the output is, as `on:` writes it and a preview shows it.
    package var on: String
    /// A wider word the output also answers; nil for none.
    package var alsoOn: String?
    /// For a button's clicks, how many (`count:` in a binding); nil where a binding's count is not asked.
    package var count: Int?
    /// When the output was decided, in nanoseconds of `CLOCK_MONOTONIC`.
    package var timeNs: Int64

    package init(on: String, alsoOn: String? = nil, count: Int? = nil, timeNs: Int64) {
        self.on = on
        self.alsoOn = alsoOn
        self.count = count
        self.timeNs = timeNs
    }
}
