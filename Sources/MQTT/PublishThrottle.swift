import DebounceCore

/// When a value where only the latest matters (a pulse counter's state) goes out: at most one message
/// per `intervalNs`, nanoseconds on the loop's clock. Pure bookkeeping, no I/O.
///
/// A value offered after a quiet interval (none sent within `intervalNs` before it) goes at once; one
/// offered sooner waits as *pending* until the interval since the last one sent has passed
/// (`deadlineNs`), and a newer one replaces it while it waits. So a burst of any length costs one
/// message at its start and one per interval after, and the last value of the burst is always sent
/// (at the deadline, or by `flush` at shutdown).
package struct PublishThrottle<Value: Sendable>: Sendable {
    /// The least time between two values sent, in nanoseconds (0 or less: every value at once).
    package let intervalNs: Int64
    /// When the last value was sent, in nanoseconds; `nil` before the first.
    package private(set) var lastSentNs: Int64?
    /// The latest value offered and not sent yet.
    package private(set) var pending: Value?

    package init(intervalNs: Int64) {
        self.intervalNs = intervalNs
    }

    /// When `pending` is due, in nanoseconds; `nil` when nothing waits.
    package var deadlineNs: Int64? {
        guard pending != nil else { return nil }
        return (lastSentNs ?? .min).adding(durationNs: intervalNs)
    }

    /// A value was sent at `nowNs` outside `offer` (the state published at the start): the next one
    /// waits for the interval from then.
    package mutating func noteSent(atNs nowNs: Int64) {
        lastSentNs = nowNs
    }

    /// Offers `value` at `nowNs`: returns it when it is to be sent now (it is noted as sent), or keeps
    /// it as `pending` (replacing the one waiting) and returns `nil`.
    package mutating func offer(_ value: Value, atNs nowNs: Int64) -> Value? {
        if pending == nil, lastSentNs.map({ nowNs.durationNs(since: $0) >= intervalNs }) ?? true {
            lastSentNs = nowNs
            return value
        }
        pending = value
        return nil
    }

    /// The pending value if its deadline has come by `nowNs` (it is noted as sent), else `nil`.
    package mutating func due(atNs nowNs: Int64) -> Value? {
        guard let deadlineNs, deadlineNs <= nowNs else { return nil }
        return flush(atNs: nowNs)
    }

    /// The pending value now, whatever its deadline (shutdown: nothing is lost), or `nil` for none.
    package mutating func flush(atNs nowNs: Int64) -> Value? {
        guard let value = pending else { return nil }
        pending = nil
        lastSentNs = nowNs
        return value
    }
}
