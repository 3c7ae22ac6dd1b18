import ConfigurationFile
import DebounceCore
import Testing

@Suite struct ConfigurationTests {
    static let valid = """
        defaults:
          debounce: defer:5ms
        groups:
          screens: {lockout: 500ms}
        buttons:
          - name: lights
            line: 17
            press: eager:30ms,glitch:100us
            clicks: {window: 400ms, policy: exclusive, max: 3}
            actions:
              - on: click
                count: 2
                run: [/usr/bin/true, "a b"]
                policy: parallel
                limit: 2
                timeout: 5s
          - name: shutdown
            line: GPIO3
            chip: gpiochip0
            bias: as-is
            active: high
            hold: 3s
            group: screens
            actions:
              - on: hold
                shell: systemctl poweroff
        """

    /// A list of inputs may be empty while another has inputs (a list emptied by commenting out its
    /// entries); with no input anywhere, the first list is refused with what to write.
    @Test func aListMayBeEmptyWhileAnotherHasInputs() throws {
        let configuration = try ConfigurationLoader.load("buttons: [{name: b, line: 4}]\nsensors: []\nkeypads: []\n", file: "e.yaml")
        #expect(configuration.roster.inputs.map(\.name) == ["b"])
        #expect {
            try ConfigurationLoader.load("sensors: []\ncounters: []\n", file: "e.yaml")
        } throws: { "\($0)".contains("e.yaml:1:10: sensors: must be a list (`- name: front-door` entries with `line:`), at least one") }
    }

    @Test func readsEveryKey() throws {
        let configuration = try ConfigurationLoader.load(Self.valid, file: "buttons.yaml")
        #expect(configuration.buttons.map(\.name) == ["lights", "shutdown"])
        let lights = configuration.buttons[0], shutdown = configuration.buttons[1]
        #expect(lights.debounce.press == .eager(lockoutNs: 30_000_000, glitchNs: 100_000))
        #expect(lights.debounce.release == .defer(windowNs: 5_000_000))
        #expect(lights.gestures.clickWindowNs == 400_000_000 && lights.gestures.clickPolicy == .exclusive && lights.gestures.maxClickCount == 3)
        #expect(lights.actions[0].count == 2 && lights.actions[0].action.arguments == ["/usr/bin/true", "a b"])
        #expect(lights.actions[0].action.policy == .parallel(2) && lights.actions[0].action.timeoutNs == 5_000_000_000)
        #expect(shutdown.lineSettings == LineSettings(chip: "gpiochip0", line: "GPIO3", bias: .asIs))
        #expect(shutdown.debounce.activeLevel == .activeHigh && shutdown.gestures.holdNs == 3_000_000_000)
        #expect(shutdown.group == "screens" && configuration.groups["screens"] == 500_000_000)
        #expect(shutdown.actions[0].action.arguments == ["/bin/sh", "-c", "systemctl poweroff"])
    }

    /// Each mistake names the file, line, column and key, and what is allowed.
    @Test(arguments: [
        ("buttons:\n  - line: 17\n    hodl: 3s\n", "buttons.yaml:3:5: buttons[0]: unknown key 'hodl' (did you mean hold?); allowed: name, line"),
        ("buttons:\n  - line: 17\n    hold: 3x\n", "buttons.yaml:3:11: buttons[0].hold: '3x' is not a duration"),
        ("buttons:\n  - line: 17\n    press: lazy:5ms\n", "buttons.yaml:3:12: buttons[0].press: 'lazy:5ms' is not a debounce strategy"),
        ("buttons:\n  - name: a\n", "buttons.yaml:2:5: buttons[0]: a button needs `line:`"),
        ("buttons:\n  - line: 1\n    bias: up\n", "buttons.yaml:3:11: buttons[0].bias: 'up' is not allowed; allowed: pull-up, pull-down, disabled, as-is"),
        ("buttons:\n  - line: 1\n    group: g\n", "buttons.yaml:3:12: buttons[0].group: no group 'g' under `groups:`"),
        ("buttons:\n  - line: 1\n    actions:\n      - on: hold\n        run: [x]\n", "buttons.yaml:4:13: buttons[0].actions[0].on: `on: hold` needs the button's `hold: DURATION`"),
        ("buttons:\n  - line: 1\n    actions:\n      - on: press\n        run: x\n", "buttons.yaml:5:14: buttons[0].actions[0].run: must be a list"),
        ("buttons:\n  - line: 1\n    actions:\n      - on: press\n        count: 2\n        run: [x]\n", "buttons[0].actions[0].count: `count` goes with `on: click` only"),
        ("buttons:\n  - {name: a, line: 1}\n  - {name: a, line: 2}\n", "the name 'a' is already that of button 'a' (buttons[0])"),
        ("buttons: []\n", "buttons.yaml:1:10: buttons: must be a list (`- name: door` entries with `line:`), at least one"),
        ("groups: {}\n", "there is nothing to watch: no list of inputs (`buttons:`, `encoders:`, `sensors:`, `counters:`, `keypads:` or `selectors:`)"),
        ("buttons:\n  - line: [1\n", "not valid YAML"),
        ("", "the file is empty"),
    ])
    func mistakesSayWhereAndWhatIsAllowed(text: String, message: String) {
        #expect {
            _ = try ConfigurationLoader.load(text, file: "buttons.yaml")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.description.contains(message)
        }
    }
}
