import ConfigurationFile
import DebounceCore
import Pipeline
import Testing

/// Each key of a keypad with `code:` has one role: ending, clearing or shortening a code, being part
/// of one, or a role of its own (an action for it by name, a keyboard key). Two roles are refused with
/// what to write; a key with its own role is no key of a code by default, so its events and actions
/// never tell a code's keys apart.
@Suite struct CodeKeyRoleTests {
    static func door(code: String, extra: String = "") -> String {
        """
        keypads:
          - name: door
            rows: [5, 6, 13, 19]
            columns: [12, 16, 20, 21]
            code: {\(code)}
        \(extra)
        """
    }

    @Test(arguments: [
        ("end_keys: \"#\", clear_keys: \"#\"", "door.code.clear_keys", "'#' is both an end key and a clear key: a key has one role; take it out of one list, e.g. clear_keys: ''"),
        ("end_keys: \"#\", back_keys: \"#D\"", "door.code.back_keys", "'#' is both an end key and a back key: a key has one role; take it out of one list, e.g. back_keys: 'D'"),
        ("clear_keys: \"*\", back_keys: \"*\"", "door.code.back_keys", "'*' is both a clear key and a back key"),
        // `end_keys:` is "#" unless given.
        ("clear_keys: \"#*\"", "door.code.clear_keys", "'#' is both an end key and a clear key (`end_keys:` is '#' by default): a key has one role; take it out of one list, e.g. clear_keys: '*'"),
        // `clear_keys:` is "*" unless given: the end key given is the list to change.
        ("end_keys: \"*\"", "door.code.end_keys", "'*' is both an end key and a clear key (`clear_keys:` is '*' by default)"),
        ("allowed_keys: \"0123456789#\"", "door.code.allowed_keys", "'#' is both an end key and a key of the code"),
    ])
    func aKeyInTwoRolesIsRefused(code: String, key: String, message: String) throws {
        let error = try #require(ConfigurationValidationTests.failure(Self.door(code: code)))
        #expect(error.key == key.replacingOccurrences(of: "door", with: "keypads[0]"), "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.line == 5, "\(error)")
    }

    /// The README's door: `A` rings the bell. It is no key of a code, so its events name it and its action
    /// runs for it alone; the digits, B, C and D are the code's, written `?`.
    @Test func aKeyWithItsOwnActionIsNoKeyOfACode() throws {
        let configuration = try ConfigurationLoader.load(
            Self.door(code: "min_length: 4, end_keys: \"#\", clear_keys: \"*\"", extra: "    actions: [{on: code, run: [/bin/true]}, {on: press, keys: \"A\", run: [/bin/true, bell]}]"),
            file: "door.yaml")
        let keypad = try #require(configuration.keypads.first)
        #expect(keypad.code?.allowedKeys == Array("123456B789C0D"))
        #expect(keypad.namesKey("A") && !keypad.namesKey("5") && !keypad.namesKey("B"))
        var collector = CodeCollector(try #require(keypad.code))
        var entered: [EnteredCode] = []
        for key in "12A34#" { if let code = collector.press(key, atNs: 0) { entered.append(code) } }
        #expect(entered.map(\.code) == ["1234"], "the bell's key in the middle of a code leaves it as typed")
    }

    /// A key that types (`key_map:`) is no key of a code unless `allowed_keys:` lists it.
    @Test func aKeyThatTypesIsAKeyOfACodeOnlyWhenListed() throws {
        let typing = try ConfigurationLoader.load(Self.door(code: "min_length: 4", extra: "    key_map: {\"1\": KEY_1, \"#\": KEY_ENTER}"), file: "door.yaml")
        #expect(typing.keypads[0].code?.allowedKeys == Array("23A456B789C0D"))
        #expect(typing.keypads[0].namesKey("1"))
        let listed = try ConfigurationLoader.load(Self.door(code: "allowed_keys: \"0123456789\"", extra: "    key_map: default"), file: "door.yaml")
        #expect(listed.keypads[0].code?.allowedKeys == Array("0123456789") && !listed.keypads[0].namesKey("1"))
    }

    @Test func allowedKeysMayNotListAKeyWithItsOwnAction() throws {
        let error = try #require(ConfigurationValidationTests.failure(
            Self.door(code: "allowed_keys: \"0123456789A\"", extra: "    actions: [{on: press, keys: \"A\", run: [/bin/true]}]")))
        #expect(error.key == "keypads[0].code.allowed_keys" && error.line == 5, "\(error)")
        #expect(error.message.contains("'A' has its own action (door's actions[0]), which would tell it from the code's other keys"), "\(error)")
        #expect(error.message.contains("allowed_keys: '0123456789'"), "\(error)")
    }

    @Test func aPadWithNoKeyLeftForACodeIsRefused() throws {
        let error = try #require(ConfigurationValidationTests.failure(Self.door(code: "min_length: 4", extra: "    key_map: default")))
        #expect(error.key == "keypads[0].code" && error.message.contains("no key is left for a code"), "\(error)")
        #expect(error.message.contains("list the code's keys in `allowed_keys:`"), "\(error)")
    }

    /// An action for every key (no `keys:`) gives no key a role: the code keeps its keys.
    @Test func anActionForEveryKeyLeavesTheCodesKeys() throws {
        let configuration = try ConfigurationLoader.load(
            Self.door(code: "min_length: 4", extra: "    actions: [{on: press, run: [/bin/true, beep]}]"), file: "door.yaml")
        #expect(configuration.keypads[0].code?.allowedKeys == Array("123A456B789C0D"))
    }
}
