/// What one output changes of what an input shows: a payload on one of its channels.
package struct InputUpdate: Sendable, Hashable {
    /// How the payload is to be kept.
    package enum Delivery: Sendable, Hashable {
        /// An event: each one counts, in order; nothing is kept once it is delivered.
        case event
        /// A state: the latest is the truth (kept for whoever comes later), and every change is delivered.
        case state
        /// A state of which only the latest matters: one still waiting is replaced by it (a position, a total).
        case latestState
    }

    /// The input's channel (`EntityDescription.channel`).
    package var channel: String
    /// JSON, or a state word (`on`, `pressed`) or number as text, in UTF-8.
    package var payload: [UInt8]
    package var delivery: Delivery

    package init(channel: String, payload: [UInt8], delivery: Delivery) {
        self.channel = channel
        self.payload = payload
        self.delivery = delivery
    }

    package init(channel: String, text: String, delivery: Delivery) {
        self.init(channel: channel, payload: Array(text.utf8), delivery: delivery)
    }
}
