import Settings

extension MQTTSettings {
    /// `<base>/<keypad>/event`: a keypad's key presses and entered codes as Home Assistant's `event`
    /// entity reads them (`MQTTKeypad.pressPayload`, `.codePayload`), not retained.
    package func eventTopic(keypad: String) -> String { "\(base)/\(keypad)/event" }
}
