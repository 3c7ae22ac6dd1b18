import DebounceCore

/// What the broker still holds, retained, under this daemon's own topics: collected after a connect
/// so that what the daemon no longer has can be cleared (`MQTTSink+Stale.swift`). Pure bookkeeping
/// on the loop's clock: the sink subscribes to `filters`, hands over each SUBACK and message, and
/// when `deadlineNs` comes takes `found` and unsubscribes.
///
/// Retained messages come right after their subscription's SUBACK, so the sweep is due `settleNs`
/// after the last SUBACK; a broker that never acknowledges gives the sweep up `giveUpNs` after it began.
struct RetainedTopicSweep: Sendable {
    /// How long after the last SUBACK retained messages are collected: 500 ms, in nanoseconds.
    static let settleNs: Int64 = 500_000_000
    /// How long after subscribing the sweep waits for the SUBACKs at most: 5 s, in nanoseconds.
    static let giveUpNs: Int64 = 5_000_000_000

    /// The topic filters subscribed to (`+` for one level, `#` for the rest).
    let filters: [String]
    /// The subscriptions not acknowledged yet, by message id.
    private var waitingFor: Set<Int32>
    /// The topics whose retained message was not empty, in the order they came.
    private(set) var found: [String] = []
    /// When the sweep is due, on the loop's clock.
    private(set) var deadlineNs: Int64

    /// A sweep of `filters`, subscribed at `nowNs` as the subscriptions `mids`.
    init(filters: [String], mids: [Int32], atNs nowNs: Int64) {
        self.filters = filters
        self.waitingFor = Set(mids)
        self.deadlineNs = nowNs.adding(durationNs: Self.giveUpNs)
    }

    /// Whether every subscription was acknowledged: what `found` holds is all the broker had.
    var isComplete: Bool { waitingFor.isEmpty }

    /// The broker acknowledged subscription `mid` at `nowNs`; after the last one, the sweep is due in `settleNs`.
    mutating func noteSubscribed(mid: Int32, atNs nowNs: Int64) {
        guard waitingFor.remove(mid) != nil, waitingFor.isEmpty else { return }
        deadlineNs = nowNs.adding(durationNs: Self.settleNs)
    }

    /// A message arrived: kept when it is retained, not empty and on one of `filters`. Returns whether
    /// it was one of the sweep's.
    @discardableResult
    mutating func note(topic: String, payload: [UInt8], retained: Bool) -> Bool {
        guard filters.contains(where: { Self.filter($0, matches: topic) }) else { return false }
        if retained, !payload.isEmpty, !found.contains(topic) { found.append(topic) }
        return true
    }

    /// Whether the MQTT topic filter `filter` matches `topic`: `+` stands for one level, a final `#`
    /// for any number of levels (none included).
    static func filter(_ filter: String, matches topic: String) -> Bool {
        let filterLevels = filter.split(separator: "/", omittingEmptySubsequences: false)
        let topicLevels = topic.split(separator: "/", omittingEmptySubsequences: false)
        for (index, level) in filterLevels.enumerated() {
            if level == "#" { return index == filterLevels.count - 1 }
            guard index < topicLevels.count, level == "+" || level == topicLevels[index] else { return false }
        }
        return filterLevels.count == topicLevels.count
    }
}
