/// One message on its way to the broker.
package struct OutboundMessage: Sendable, Hashable {
    package var topic: String
    package var payload: [UInt8]
    package var retain: Bool

    package init(topic: String, payload: [UInt8], retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }

    package init(topic: String, text: String, retain: Bool) {
        self.init(topic: topic, payload: Array(text.utf8), retain: retain)
    }
}

/// The events and states on their way to the broker, in order, bounded: pure bookkeeping, no I/O.
///
/// A message is *waiting* until it is handed to the client, then *in flight* until the broker
/// acknowledges it (its message id comes back). At most `window` are in flight at once, so that
/// a connected but stalled broker cannot make the client's own queue grow without bound; the rest
/// wait here. Waiting and in-flight messages together are at most `limit`: when a new one comes to a
/// full queue, the oldest *waiting* one is dropped (and counted); in-flight messages are never
/// dropped, since the client will send them again after a reconnect.
///
/// A retained value where only the latest matters (an encoder's position) goes in with
/// `appendLatest`: it replaces the one still waiting on its topic, so however fast such values
/// come, at most one per topic waits.
package struct OutboundQueue: Sendable {
    /// The most messages kept, waiting and in flight together (at least 1).
    package let limit: Int
    /// The most messages in flight at once (at most `limit`).
    package let window: Int
    /// Waiting messages, oldest first.
    package private(set) var waiting: [OutboundMessage] = []
    private var waitingStart = 0
    /// Message ids in flight, in the order they were handed over.
    package private(set) var inFlight: [Int32] = []
    /// Messages dropped because the queue was full, since the start.
    package private(set) var dropped = 0
    /// Messages acknowledged, since the start.
    package private(set) var acknowledged = 0
    /// Waiting messages replaced by a newer one on their topic (`appendLatest`), since the start.
    package private(set) var superseded = 0

    package init(limit: Int, window: Int = 20) {
        self.limit = max(1, limit)
        self.window = max(1, min(window, self.limit))
    }

    /// Messages waiting (not yet handed over).
    package var waitingCount: Int { waiting.count - waitingStart }
    /// Messages waiting or in flight.
    package var count: Int { waitingCount + inFlight.count }
    package var isEmpty: Bool { count == 0 }

    /// Adds `message` at the end; returns how many were dropped to make room (0 or 1).
    @discardableResult
    package mutating func append(_ message: OutboundMessage) -> Int {
        var droppedNow = 0
        if count >= limit {
            if waitingCount > 0 {
                waitingStart += 1
                droppedNow = 1
            } else {
                // Everything is in flight (limit == window): the new message is the one that goes.
                dropped += 1
                return 1
            }
        }
        dropped += droppedNow
        waiting.append(message)
        compact()
        return droppedNow
    }

    /// Adds `message` at the end after removing the message waiting on its topic, if one is (counted
    /// in `superseded`, not `dropped`): for a retained value where only the latest matters. Messages
    /// in flight are left alone. Returns how many were dropped to make room (0 or 1). Looks through
    /// the waiting messages from the newest, so it stops at once in a burst (the previous value is
    /// among the last few) and reads them all only when none waits on the topic.
    @discardableResult
    package mutating func appendLatest(_ message: OutboundMessage) -> Int {
        if let index = waiting[waitingStart...].lastIndex(where: { $0.topic == message.topic }) {
            waiting.remove(at: index)
            superseded += 1
        }
        return append(message)
    }

    /// The next message to hand over, if the window has room.
    package var next: OutboundMessage? {
        guard inFlight.count < window, waitingCount > 0 else { return nil }
        return waiting[waitingStart]
    }

    /// The message `next` returned was handed over as `mid`.
    package mutating func handedOver(mid: Int32) {
        guard waitingCount > 0 else { return }
        waitingStart += 1
        inFlight.append(mid)
        compact()
    }

    /// The broker acknowledged `mid`; returns whether it was one of ours.
    @discardableResult
    package mutating func acknowledge(mid: Int32) -> Bool {
        guard let index = inFlight.firstIndex(of: mid) else { return false }
        inFlight.remove(at: index)
        acknowledged += 1
        return true
    }

    /// Drops everything (the end of the run): returns how many messages were not delivered.
    package mutating func removeAll() -> Int {
        let lost = count
        waiting.removeAll()
        waitingStart = 0
        inFlight.removeAll()
        return lost
    }

    private mutating func compact() {
        if waitingStart > 64, waitingStart * 2 > waiting.count {
            waiting.removeFirst(waitingStart)
            waitingStart = 0
        }
    }
}
