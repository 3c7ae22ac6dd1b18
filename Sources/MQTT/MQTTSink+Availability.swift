import EventLoop
import LineInput

/// Each input's availability on `<base>/<input>/availability` (`MQTTInputAvailability`), retained:
/// every input's at each connect (`online`, or `offline` for one whose chip is away), then each change
/// as a chip goes away or comes back. Like the daemon's own availability, these bypass the queue: a
/// connect publishes what is true then, so a change while the broker is unreachable waits for it.
extension MQTTSink {
    package func availabilityChanged(_ change: ChipAvailability, atNs nowNs: Int64) {
        guard mode == .run else { return }
        let changes = inputAvailability.note(change)
        guard connection.state == .connected else { return }
        for (name, isAvailable) in changes { publishAvailability(of: name, isAvailable) }
    }

    /// At a connect: every input's availability now (`run`), or an empty retained message on each
    /// input's availability topic (`--remove-discovery`: the broker forgets them).
    func publishInputAvailability() {
        for (index, input) in inputAvailability.inputs.enumerated() {
            if mode == .run {
                publishAvailability(of: input.name, inputAvailability.isAvailable(index))
            } else {
                _ = publishControl(OutboundMessage(topic: settings.availabilityTopic(input: input.name), payload: [], retain: true))
            }
        }
    }

    private func publishAvailability(of name: String, _ isAvailable: Bool) {
        _ = publishControl(OutboundMessage(topic: settings.availabilityTopic(input: name), text: isAvailable ? "online" : "offline", retain: true))
    }
}
