import EventLoop

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

    /// After a reload: the inputs of `next` (all watched: a reload naming a chip that is away is
    /// refused) replace this sink's, and the availability topics of the inputs gone are emptied.
    func adoptAvailability(_ next: MQTTInputAvailability) {
        let kept = Set(next.inputs.map(\.name))
        let gone = inputAvailability.inputs.filter { !kept.contains($0.name) }
        inputAvailability = next
        guard mode == .run else { return }
        let emptied = gone.map { OutboundMessage(topic: settings.availabilityTopic(input: $0.name), payload: [], retain: true) }
        guard connection.state == .connected else {
            // Not connected: the next connect publishes every input's; the emptied topics go with the removal.
            pendingRemoval += emptied
            return
        }
        for message in emptied { _ = publishControl(message) }
        publishInputAvailability()
    }

    private func publishAvailability(of name: String, _ isAvailable: Bool) {
        _ = publishControl(OutboundMessage(topic: settings.availabilityTopic(input: name), text: isAvailable ? "online" : "offline", retain: true))
    }
}
