import ConfigurationFile
import Inputs
import DebounceCore
import Pipeline
import Settings
import Testing

/// `keypads:`: read into the roster as one input whose lines are its keys (row by row, after every
/// other input), planned as debounced buttons with the keypad's gestures, actions, keys and code
/// entry; refused with what to write when wrong.
@Suite struct KeypadConfigurationTests {
    static let door = """
        buttons:
          - {name: bell, line: 4}
        keypads:
          - name: door
            rows: [5, 6, 13, 19]
            columns: [12, 16, 20, 21]
            debounce: "defer:20ms"
            hold: 1s
            key_map: default
            code: {min_length: 4, max_length: 6, end_keys: "#", clear_keys: "*", back_keys: "D", allowed_keys: "0123456789", timeout: 8s}
            actions:
              - {on: code, run: [/bin/true, checked]}
              - {on: press, keys: "AB", run: [/bin/true, letter]}
        """

    @Test func aKeypadsKeysAreLinesAfterTheOtherInputsPlannedAsButtons() throws {
        let configuration = try ConfigurationLoader.load(Self.door, file: "k.yaml")
        let keypad = try #require(configuration.keypads.first)
        #expect(keypad.layout.map { String($0) } == ["123A", "456B", "789C", "*0#D"])
        #expect(keypad.matrix == MatrixConfiguration(rows: 4, columns: 4))
        #expect(keypad.rows.map(\.bias) == [.pullUp, .pullUp, .pullUp, .pullUp] && keypad.columns.map(\.bias) == [.asIs, .asIs, .asIs, .asIs])
        let roster = configuration.roster
        #expect(roster.lines.count == 17 && roster.pinLines.count == 1)
        #expect(roster.keypads.first?.keys.map(\.index) == Array(1...16))
        #expect(roster.label(of: roster.lines[6].id) == "door key 5")
        #expect(roster.pins.map(\.label).suffix(2) == ["door (column 3)", "door (column 4)"])
        let plan = DaemonPlan(configuration)
        #expect(plan.plans[6] == LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 20_000_000)), gestures: keypad.gestures, input: 1))
        // Every key with a default key code types it: 0-9, A-D, * and # (16 keys).
        #expect(plan.keyBindings.count == 16 && plan.keyBindings.allSatisfy { $0.on == "press" && $0.isHeld && $0.input == 1 })
        #expect(plan.keyBindings.first { $0.line == 6 }?.keys == KeyCode.code(named: "KEY_5").map { [$0] })
        #expect(plan.keyBindings.first { $0.line == 15 }?.keys == KeyCode.code(named: "KEY_ENTER").map { [$0] })
        // `on: press, keys: "AB"`: bound to A's and B's lines only; the code's action to the keypad.
        #expect(plan.actionBindings.filter { $0.on == "press" }.map(\.line) == [4, 8])
        // The keypad is the roster's second input, after the button: its codes and their actions name it so.
        #expect(plan.actionBindings.filter { $0.on == "code" } == [InputActionBinding(input: 1, on: "code", action: 0)])
        #expect(plan.actionBindings.allSatisfy { $0.input == 1 })
        let code = try #require(plan.pipeline.codes.first)
        #expect(code.input == 1)
        #expect(code.configuration.minLength == 4 && code.configuration.maxLength == 6 && code.configuration.backKeys == ["D"])
        #expect(code.configuration.timeoutNs == 8_000_000_000)
        #expect(code.keys.count == 16 && code.keys[4] == CodePlan.KeyLine(line: 5, key: "4"))
        // The keys a code is made of are not named in events; its end, clear and back keys are, and A (its own action).
        #expect(keypad.namesKey("#") && keypad.namesKey("*") && keypad.namesKey("D") && !keypad.namesKey("5") && keypad.namesKey("A"))
    }

    @Test func aThreeColumnPadHasItsPrintedLayoutAndAnyOtherSizeNeedsKeys() throws {
        let three = try ConfigurationLoader.load("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], diodes: true, scan_settle: 50us, scan_interval: 20ms}]", file: "p.yaml")
        #expect(three.keypads[0].layout.map { String($0) } == ["123", "456", "789", "*0#"])
        #expect(three.keypads[0].matrix == MatrixConfiguration(rows: 4, columns: 3, diodes: true, settleNs: 50_000, scanIntervalNs: 20_000_000))
        let two = try ConfigurationLoader.load("keypads: [{name: p, rows: [1, 2], columns: [5, 6], keys: [\"ab\", \"cd\"]}]", file: "p.yaml")
        #expect(two.keypads[0].layout.map { String($0) } == ["ab", "cd"])
    }

    /// A keypad's keys take a button's gestures: clicks, with an action on a double click of `#`.
    @Test func aKeypadsKeysTakeAButtonsGestures() throws {
        let configuration = try ConfigurationLoader.load(
            """
            keypads:
              - name: p
                rows: [1, 2, 3, 4]
                columns: [5, 6, 7]
                clicks: {window: 300ms, max: 2}
                actions: [{on: click, count: 2, keys: "#", run: [/bin/true]}]
            """, file: "p.yaml")
        let keypad = try #require(configuration.keypads.first)
        #expect(keypad.gestures.clickWindowNs == 300_000_000 && keypad.gestures.maxClickCount == 2)
        let plan = DaemonPlan(configuration)
        #expect(plan.actionBindings == [InputActionBinding(input: 0, line: 11, on: "click", count: 2, action: 0)])
        #expect(plan.plans[11].gestures.clickWindowNs == 300_000_000)
        #expect {
            try ConfigurationLoader.load("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], actions: [{on: click, run: [/bin/true]}]}]", file: "p.yaml")
        } throws: { "\($0)".contains("`on: click` needs the keypad's `clicks: {window: DURATION}`") }
    }

    @Test(arguments: [
        ("keypads: [{name: p, rows: [1, 2], columns: [5, 6]}]", "needs `keys:`"),
        ("keypads: [{name: p, columns: [5, 6]}]", "needs `rows:` and `columns:`"),
        ("keypads: [{name: p, rows: [1, 2], columns: [5, 6], keys: [\"ab\", \"c\"]}]", "has 1 keys and the keypad 2 columns"),
        ("keypads: [{name: p, rows: [1, 2], columns: [5, 6], keys: [\"ab\", \"cb\"]}]", "is already in the layout"),
        ("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7, 4]}]", "keypads[0].columns[3]: line 4 of the 40-pin header's chip is already a line of keypad 'p' (keypads[0])"),
        ("buttons: [{name: b, line: 5}]\nkeypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7, 8]}]", "is already the line of button 'b'"),
        ("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], code: {end_keys: \"\"}}]", "give `end_keys:` or `max_length:`"),
        ("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], code: {end_keys: \"X\"}}]", "'X' is not a key of this keypad"),
        ("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], publish_code: true}]", "goes with `code:`"),
        ("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], actions: [{on: code, run: [/bin/true]}]}]", "`on: code` needs the keypad's `code:`"),
        ("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], actions: [{on: press, keys: \"X\", run: [/bin/true]}]}]", "not a key of this keypad"),
        ("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], key_map: {\"X\": KEY_1}}]", "is not a key of this keypad"),
        ("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], key_map: all}]", "key_map"),
        ("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], scan_settle: 5ms, scan_interval: 10ms}]", "make `scan_interval:` longer"),
        ("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], scan_sette: 5us}]", "scan_settle"),
    ])
    func aBadKeypadIsRefusedWithWhatToWrite(yaml: String, message: String) {
        #expect {
            try ConfigurationLoader.load(yaml, file: "bad.yaml")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    /// A mapping with several wrong entries is refused at the first in the file, the same one on every
    /// reading (the libFuzzer target found two readings of one file naming different keys).
    @Test func aKeyMapIsCheckedInFileOrder() {
        let yaml = "keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], key_map: {\"1\": KEY_1, x: KEY_2, shell: KEY_3, y: KEY_4, z: KEY_5}}]"
        let messages = Set((0..<20).map { _ in ConfigurationYAMLTests.failure(yaml).map { "\($0)" } ?? "loaded" })
        #expect(messages.count == 1)
        #expect(messages.first?.contains("key_map.x: 'x' is not a key of this keypad") == true)
        let password = "mqtt: {url: mqtt://b, pass: a, password: b}\nbuttons: [{name: b, line: 4}]"
        #expect(ConfigurationYAMLTests.failure(password).map { "\($0)" }?.contains("mqtt.pass:") == true)
    }

    /// A reload keeps a keypad whose settings are the same, and carries its keys' lines to their new
    /// places (after an added button's line); a keypad whose layout changed carries none.
    @Test func aReloadKeepsAKeypadAndCarriesItsKeys() throws {
        let old = try ConfigurationLoader.load("keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7]}]", file: "a.yaml").roster
        let new = try ConfigurationLoader.load("buttons: [{name: b, line: 9}]\nkeypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7]}]", file: "b.yaml").roster
        let change = RosterChange(from: old, to: new)
        #expect(change.kept == ["p"] && change.added == ["b"])
        #expect(change.previousLine == [nil] + (0..<12).map { $0 })
        let relaid = try ConfigurationLoader.load(
            "keypads: [{name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], keys: [\"321\", \"654\", \"987\", \"#0*\"]}]", file: "c.yaml").roster
        let changed = RosterChange(from: old, to: relaid)
        #expect(changed.changed == ["p"] && changed.previousLine.allSatisfy { $0 == nil })
    }

    /// The layout `watch --keypad` and the demo give a pad: the printed one of a 4×4 or 4×3 pad, else
    /// digits and letters row by row, from 0 again after the 62nd key.
    @Test func aPadWithoutKeysHasThePrintedLayoutOrDigitsAndLetters() {
        #expect(KeypadSettings.defaultLayout(rows: 4, columns: 4).map { String($0) } == ["123A", "456B", "789C", "*0#D"])
        #expect(KeypadSettings.defaultLayout(rows: 4, columns: 3).map { String($0) } == ["123", "456", "789", "*0#"])
        #expect(KeypadSettings.defaultLayout(rows: 2, columns: 3).map { String($0) } == ["012", "345"])
        let large = KeypadSettings.defaultLayout(rows: 16, columns: 4)
        #expect(large.count == 16 && large.allSatisfy { $0.count == 4 })
        #expect(String(large[15]) == "yz01")
    }
}

