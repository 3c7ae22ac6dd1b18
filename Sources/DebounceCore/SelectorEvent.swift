/// A selector switch's lines settled on a reading other than the one last reported (`SelectorDecoder`).
public struct SelectorEvent: Sendable, Hashable {
    /// What the lines settled on.
    public enum Kind: Sendable, Hashable {
        /// A valid position; `previous` is the one reported before (`nil`: none was, as after a start
        /// whose reading was invalid). After an invalid reading the position may be the previous one.
        case select(position: Int, previous: Int?)
        /// No valid position (two lines of a one-hot switch at once, none for longer than the settle
        /// time, a BCD digit above 9, a value above the highest): the lines read active, as bits.
        case invalid(activeLines: UInt32)
    }

    public var kind: Kind
    /// When it was reported, in nanoseconds of `CLOCK_MONOTONIC`: its onset plus the settle time.
    public var timeNs: Int64
    /// When the lines began to read what settled, in nanoseconds: the last line change before it held.
    /// Always `onsetNs <= timeNs`.
    public var onsetNs: Int64

    @inlinable
    public init(kind: Kind, timeNs: Int64, onsetNs: Int64) {
        self.kind = kind
        self.timeNs = timeNs
        self.onsetNs = onsetNs
    }
}
