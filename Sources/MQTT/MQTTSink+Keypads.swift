import DebounceCore

/// What a matrix keypad's outputs become on the broker (`MQTTKeypad`): a key's press and an entered
/// code, each on the keypad's event topic, not retained (an event entity has no state to restore).
/// A keypad's keys' releases, holds and repeats are not published (its entity's event types are the
/// keys themselves), nor are the presses of the keys a code is made of without `publish_code: true`.
/// No message here is ever logged: a code's digits must not reach a log.
extension MQTTSink {
    /// A key's event: its press as `{"event_type":"5",…}`; any other kind, or a key not published, nothing.
    func consumeKey(_ event: ButtonEvent, line: Int) {
        guard event.kind == .press, let place = keyByLine[line] else { return }
        let keypad = keypads[place.keypad]
        guard let payload = keypad.pressPayload(key: place.key, timeNs: event.timeNs) else { return }
        enqueue(OutboundMessage(topic: settings.eventTopic(keypad: keypad.name), payload: payload, retain: false))
    }

    /// An entered code of keypad `index` (in `keypads`): its length, and the code itself only
    /// when the keypad publishes codes.
    func consume(_ entered: EnteredCode, keypad index: Int) {
        guard keypads.indices.contains(index) else { return }
        let keypad = keypads[index]
        enqueue(OutboundMessage(topic: settings.eventTopic(keypad: keypad.name), payload: keypad.codePayload(entered), retain: false))
    }
}

extension MQTTKeypad {
    /// Where a key's run line is: its keypad's index among the sink's keypads, and the key's index in it.
    struct Place: Sendable, Hashable {
        var keypad: Int
        var key: Int
    }

    /// The place of every key's run line of `keypads` (the first keypad's, should two claim one line).
    static func places(_ keypads: [MQTTKeypad]) -> [Int: Place] {
        var result: [Int: Place] = [:]
        for (keypadIndex, keypad) in keypads.enumerated() {
            for (keyIndex, line) in keypad.lineIndices.enumerated() where result[line] == nil {
                result[line] = Place(keypad: keypadIndex, key: keyIndex)
            }
        }
        return result
    }
}
