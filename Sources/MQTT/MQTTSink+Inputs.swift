import DebounceCore
import EventOutput

/// What each input's outputs become on the broker: an encoder's detent, a contact's change, a
/// counter's pulse or falling rate (the buttons' events and states are in `MQTTSink.consume`).
extension MQTTSink {
    /// A detent: its JSON on the encoder's event topic, then its position (replacing one still waiting).
    func consume(_ detent: EncoderEvent, encoder index: Int) {
        guard encoders.indices.contains(index) else { return }
        let encoder = encoders[index]
        let event = EventWriter.jsonObject(rotation: detent, fields: encoderFields[index])
        enqueue(OutboundMessage(topic: settings.eventTopic(encoder: encoder.name), payload: event, retain: false))
        enqueue(positionState(encoder, detent.position), latestOnly: true)
    }

    /// A contact's change: its JSON on the sensor's event topic, then its state.
    func consume(_ change: ContactEvent, line: Int) {
        guard let index = sensorByLine[line] else { return }
        let sensor = sensors[index]
        let event = EventWriter.jsonObject(contact: change, fields: sensorFields[index])
        enqueue(OutboundMessage(topic: settings.eventTopic(sensor: sensor.name), payload: event, retain: false))
        enqueue(sensorState(sensor, isOn: change.isOn))
    }

    /// A counter's pulse or its rate's fall: its state now if the counter's interval allows, else kept for later.
    func consume(_ state: MQTTCounter.State, line: Int, nowNs: Int64) {
        guard let index = counterByLine[line], let state = counterThrottles[index].offer(state, atNs: nowNs) else { return }
        enqueue(counterState(counters[index], state), latestOnly: true)
    }

    /// Queues the counters' waiting states that are due by `nowNs`, or all of them with `all`.
    func publishDueCounts(atNs nowNs: Int64, all: Bool = false) {
        for index in counterThrottles.indices {
            let state = all ? counterThrottles[index].flush(atNs: nowNs) : counterThrottles[index].due(atNs: nowNs)
            guard let state else { continue }
            enqueue(counterState(counters[index], state), latestOnly: true)
        }
    }

    /// An encoder's position, retained on its position topic (queued `latestOnly`: only the latest matters).
    func positionState(_ encoder: MQTTEncoder, _ position: Int) -> OutboundMessage {
        OutboundMessage(topic: settings.positionTopic(encoder: encoder.name), text: String(position), retain: true)
    }

    func sensorState(_ sensor: MQTTSensor, isOn: Bool) -> OutboundMessage {
        OutboundMessage(topic: settings.stateTopic(sensor: sensor.name), text: isOn ? MQTTSensor.onPayload : MQTTSensor.offPayload, retain: true)
    }

    func counterState(_ counter: MQTTCounter, _ state: MQTTCounter.State) -> OutboundMessage {
        OutboundMessage(topic: settings.stateTopic(counter: counter.name), payload: counter.statePayload(state), retain: true)
    }
}
