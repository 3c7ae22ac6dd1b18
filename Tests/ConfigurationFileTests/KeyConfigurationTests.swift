import ConfigurationFile
import LinuxSys
import Testing

/// `key:` on buttons and actions, and `keyboard:`: names checked against linux/input-event-codes.h with
/// the nearest one suggested, and every mix-up refused with the key's place and what to write instead.
@Suite struct KeyConfigurationTests {
    static func message(_ text: String) -> String? {
        do {
            _ = try ConfigurationLoader.load(text, file: "k.yaml")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func keysAreReadAsCodesInTheirOrderWithTheirEvents() throws {
        let configuration = try ConfigurationLoader.load(
            """
            keyboard: {name: kiosk buttons, autorepeat: true}
            buttons:
              - name: a
                line: 1
                key: KEY_ENTER
                clicks: {window: 300ms}
                hold: 1s
                actions:
                  - {on: click, count: 2, key: [KEY_LEFTCTRL, KEY_C]}
                  - {on: hold, key: KEY_POWER}
                  - {on: press, run: [/bin/true]}
            """, file: "k.yaml")
        #expect(configuration.keyboard.name == "kiosk buttons")
        #expect(configuration.keyboard.autorepeat)
        let button = try #require(configuration.buttons.first)
        #expect(button.keys.map(\.on) == [.press, .click, .hold])
        #expect(button.keys.map(\.count) == [nil, 2, nil])
        #expect(button.keys.map(\.keys) == [[28], [29, 46], [116]])
        #expect(button.keys.map(\.isHeld) == [true, false, true])
        #expect(button.actions.count == 1)
    }

    @Test func theKeyboardHasItsDefaultsWhenNotConfigured() throws {
        let configuration = try ConfigurationLoader.load("buttons: [{line: 1, key: KEY_A}]", file: "k.yaml")
        #expect(configuration.keyboard.name == "gpio-debounce")
        #expect(!configuration.keyboard.autorepeat)
    }

    /// The configuration's limit on the keyboard's name (`badKeyboardSettingsAreRefused`) is the
    /// kernel's, which the uinput device reads from the header.
    @Test func theKeyboardsNameLimitIsTheKernels() {
        #expect(KeyboardSettings.maximumNameBytes == UInputDevice.maximumNameBytes)
    }

    @Test(arguments: [
        ("key: KEY_ENTR", "unknown key 'KEY_ENTR' (did you mean KEY_ENTER?)"),
        ("key: enter", "unknown key 'enter' (did you mean KEY_ENTER?)"),
        ("key: south", "(did you mean BTN_SOUTH?)"),
        ("key: KEY_NOSUCHTHING_AT_ALL", "unknown key 'KEY_NOSUCHTHING_AT_ALL'; names as in linux/input-event-codes.h"),
        ("key: []", "a combination lists 1 to 8 keys"),
        ("key: [KEY_A, KEY_A]", "KEY_A is already in this combination"),
        ("key: {a: 1}", "must be a single value"),
        ("key: 28", "unknown key '28'"),
    ])
    func badKeysAreRefusedWithTheNearestName(extra: String, expected: String) throws {
        let message = try #require(Self.message("buttons:\n  - {name: a, line: 1, \(extra)}\n"))
        #expect(message.contains(expected), "\(message)")
        #expect(message.contains("k.yaml:2"), "\(message)")
    }

    @Test(arguments: [
        ("{on: press, key: KEY_A, run: [/bin/true]}", "give either `key:` (keys to send) or `run:`"),
        ("{on: press, key: KEY_A, shell: 'true'}", "give either `key:` (keys to send) or `shell:`"),
        ("{on: press, key: KEY_A, policy: drop}", "`policy` goes with `run:` or `shell:`"),
        ("{on: press, key: KEY_A, timeout: 1s}", "`timeout` goes with `run:` or `shell:`"),
        ("{on: hold, key: KEY_POWER}", "`on: hold` needs the button's `hold: DURATION`"),
        ("{on: press, count: 2, key: KEY_A}", "`count` goes with `on: click` only"),
        ("{on: press}", "or `key: KEY_NAME`"),
    ])
    func keyActionsAreCheckedLikeOtherActions(action: String, expected: String) throws {
        let message = try #require(Self.message("buttons:\n  - name: a\n    line: 1\n    actions: [\(action)]\n"))
        #expect(message.contains(expected), "\(message)")
    }

    @Test(arguments: [
        ("keyboard: {name: ''}", "cannot be empty"),
        ("keyboard: {nam: x}", "unknown key 'nam'"),
        ("keyboard: {autorepeat: maybe}", "allowed: true, false"),
        ("keyboard: {name: \(String(repeating: "é", count: 41))}", "at most 79 bytes"),
        ("keyboard: [a]", "must be a mapping"),
    ])
    func badKeyboardSettingsAreRefused(keyboard: String, expected: String) throws {
        let message = try #require(Self.message("\(keyboard)\nbuttons: [{line: 1, key: KEY_A}]\n"))
        #expect(message.contains(expected), "\(message)")
    }
}
