/// An output as an input's actions and keys see it: the `on:` word it answers (`press`, `cw`, `on`,
/// `pulse`, `code`), a wider word it answers too (`rotate` for either direction, `change` for either
/// state, `rate` for a pulse, which also gives a rate), a click's count, how far it moves a relative
/// axis, whether it lets go of the keys its line holds, and when it was decided. Plain values: what
/// its commands get in their environment is asked for only when an action matches
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
    /// How far it moves a relative axis bound to it (`axis:`), signed: an encoder's detent, by its
    /// increment, up clockwise; 0 for an output that moves none.
    package var step: Int
    /// Whether the keys its line holds (bindings with `isHeld`) come up: a button's or a key's release.
    package var releasesHeldKeys: Bool

    package init(on: String, alsoOn: String? = nil, count: Int? = nil, timeNs: Int64, step: Int = 0, releasesHeldKeys: Bool = false) {
        self.on = on
        self.alsoOn = alsoOn
        self.count = count
        self.timeNs = timeNs
        self.step = step
        self.releasesHeldKeys = releasesHeldKeys
    }

    /// Whether this output, of run line `line`, answers a binding's word `on` (this output's word or
    /// its wider one), its `count` when it asks one, and its `boundLine` when it names one (a key's).
    package func answers(_ on: String, count: Int?, boundLine: Int?, line: Int) -> Bool {
        (on == self.on || on == alsoOn) && (count == nil || count == self.count) && (boundLine == nil || boundLine == line)
    }
}
