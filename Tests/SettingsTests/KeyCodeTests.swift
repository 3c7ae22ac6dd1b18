import Settings
import Testing

/// The key names of `linux/input-event-codes.h` (`KeyCode`).
@Suite struct KeyCodeTests {
    @Test func everyNameOfTheTableMapsBackToItsCode() {
        #expect(KeyCode.allNames.count > 600)
        for name in KeyCode.allNames {
            let code = KeyCode.code(named: name)
            #expect(code != nil && code.flatMap(KeyCode.name(of:)).flatMap(KeyCode.code(named:)) == code, "\(name)")
        }
        #expect(KeyCode.code(named: "KEY_ENTER") == 28)
        #expect(KeyCode.code(named: "BTN_A") == 0x130)
        #expect(KeyCode.code(named: "KEY_MUTE") == 113)
        #expect(KeyCode.code(named: "KEY_MAX") == nil)
    }
}
