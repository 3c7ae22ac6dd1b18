/// The keys a keypad types on the virtual keyboard with `key_map: default`: the digits as KEY_0 to
/// KEY_9, letters as KEY_A to KEY_Z, `*` as KEY_KPASTERISK and `#` as KEY_ENTER (the key that ends a
/// code on most pads, as Enter ends a line); other keys type nothing.
package enum KeypadKeyMap {
    /// The default key code of `key`, or nil for a key with none.
    package static func defaultCode(for key: Character) -> UInt16? {
        if let digit = key.wholeNumberValue, key.isASCII { return KeyCode.code(named: "KEY_\(digit)") }
        if key.isASCII, key.isLetter { return KeyCode.code(named: "KEY_\(key.uppercased())") }
        switch key {
        case "*": return KeyCode.code(named: "KEY_KPASTERISK")
        case "#": return KeyCode.code(named: "KEY_ENTER")
        default: return nil
        }
    }
}
