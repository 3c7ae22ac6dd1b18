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
    /// An event's type, one of its entity's `EventType` names (`double_click`, `rotate_right`, `5`):
    /// what the payload's template (or its `event_type`) names, for a consumer that reads no JSON
    /// (ESPHome's API); nil for a state, or an event no entity shows.
    package var eventType: String?
    /// The numbers of a JSON payload's fields that entities read (`EntityDescription.Value.number`'s
    /// `field`: a meter's `value` and `rate`), for a consumer that reads no JSON; empty otherwise.
    package var numbers: [String: Double]

    package init(channel: String, payload: [UInt8], delivery: Delivery, eventType: String? = nil, numbers: [String: Double] = [:]) {
        self.channel = channel
        self.payload = payload
        self.delivery = delivery
        self.eventType = eventType
        self.numbers = numbers
    }

    package init(channel: String, text: String, delivery: Delivery, eventType: String? = nil, numbers: [String: Double] = [:]) {
        self.init(channel: channel, payload: Array(text.utf8), delivery: delivery, eventType: eventType, numbers: numbers)
    }
}
