import InputModel

/// What the inputs' updates become on the broker: a message on `<base>/<input>/<channel>`, an event
/// not retained, a state retained; the states of an input with `stateIntervalNs`, throttled.
extension MQTTSink {
    /// The channel whose messages an input's `stateIntervalNs` throttles.
    static let throttledChannel = "state"

    /// Each input's index in `inputs`, by its `InputDescription.input` (the first, should two claim one).
    static func indexByInput(_ inputs: [any InputPresenter]) -> [Int: Int] {
        Dictionary(inputs.enumerated().map { ($1.description.input, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `update` of input `index` (in `presenters`) as a message.
    func message(_ update: InputUpdate, of index: Int) -> OutboundMessage {
        OutboundMessage(
            topic: settings.topic(input: presenters[index].description.name, channel: update.channel), payload: update.payload,
            retain: update.delivery != .event)
    }

    /// Queues `update` of input `index`, or keeps it for later if its input's interval says so.
    func publish(_ update: InputUpdate, of index: Int, atNs nowNs: Int64) {
        var update = update
        if update.channel == Self.throttledChannel, var throttle = stateThrottles[index] {
            let allowed = throttle.offer(update, atNs: nowNs)
            stateThrottles[index] = throttle
            guard let allowed else { return }
            update = allowed
        }
        enqueue(message(update, of: index), latestOnly: update.delivery == .latestState)
    }

    /// Queues the throttled states that are due by `nowNs`, or all of them with `all`.
    func publishDueStates(atNs nowNs: Int64, all: Bool = false) {
        for index in stateThrottles.indices {
            guard var throttle = stateThrottles[index] else { continue }
            let update = all ? throttle.flush(atNs: nowNs) : throttle.due(atNs: nowNs)
            stateThrottles[index] = throttle
            guard let update else { continue }
            enqueue(message(update, of: index), latestOnly: update.delivery == .latestState)
        }
    }
}
