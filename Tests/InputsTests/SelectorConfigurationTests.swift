import ConfigurationFile
import DebounceCore
import Inputs
import Pipeline
import Testing

/// `selectors:` in a configuration: reading, refusals, its lines in the run, its plan and what `check` says.
@Suite struct SelectorConfigurationTests {
    static let panel = """
        buttons:
          - {name: start, line: 17}
        selectors:
          - name: mode
            lines: [GPIO5, GPIO6, GPIO13]
            positions: [off, auto, on]
            settle: 30ms
            actions:
              - {on: select, run: [/usr/bin/logger, mode]}
          - name: address
            lines: [20, 21, 26, 16]
            code: bcd
            active: high
            bias: pull-down
        """

    @Test func aSelectorIsReadWithEveryKey() throws {
        let configuration = try ConfigurationLoader.load(Self.panel, file: "p.yaml")
        let selectors = configuration.roster.inputs(of: SelectorSettings.self).map(\.settings)
        let mode = try #require(selectors.first)
        #expect(mode.name == "mode" && mode.lines.map(\.line) == ["GPIO5", "GPIO6", "GPIO13"])
        #expect(mode.configuration == SelectorConfiguration(code: .oneHot, lineCount: 3, settleNs: 30_000_000, highestValue: 3))
        #expect(mode.positions == ["off", "auto", "on"] && mode.activeLevel == .activeLow)
        #expect(mode.actions.map(\.on) == [.select] && mode.actions.first?.action.name == "mode.select")
        #expect(mode.lines.allSatisfy { $0.bias == .pullUp && $0.kernelDebounceNs == 0 })
        let address = try #require(selectors.last)
        #expect(address.configuration == SelectorConfiguration(code: .bcd, lineCount: 4))
        #expect(address.activeLevel == .activeHigh && address.lines.allSatisfy { $0.bias == .pullDown })
        #expect(address.positionName(7) == "7" && mode.positionName(2) == "auto")
        // One list of inputs: the button, then each selector with its lines in `lines:` order.
        #expect(configuration.roster.inputs.map(\.name) == ["start", "mode", "address"])
        #expect(configuration.roster.lines.map(\.settings?.line) == ["17", "GPIO5", "GPIO6", "GPIO13", "20", "21", "26", "16"])
        #expect(configuration.roster.inputs[1].lines.map(\.index) == [1, 2, 3])
    }

    /// Its lines stay raw in the plan, its decoder takes them, and its actions are bound to its input.
    @Test func itsPlanDecodesItsRawLines() throws {
        let plan = DaemonPlan(try ConfigurationLoader.load(Self.panel, file: "p.yaml"))
        #expect(plan.pipeline.selectors.map(\.lines) == [[1, 2, 3], [4, 5, 6, 7]])
        #expect(plan.pipeline.selectors.map(\.input) == [1, 2])
        #expect(plan.pipeline.selectors.map(\.activeLevel) == [.activeLow, .activeHigh])
        #expect(plan.plans[1...].allSatisfy { $0.debounce == nil })
        #expect(plan.actionBindings.map(\.input) == [1] && plan.actionBindings.map(\.on) == ["select"])
    }

    @Test(arguments: [
        ("selectors: [{name: m, lines: [5]}]", "a list of 2 to 31 lines"),
        ("selectors: [{name: m, lines: 5}]", "a selector needs `lines:`"),
        ("selectors: [{name: m, lines: [5, 6, 5]}]", "selectors[0].lines[2]: is already `lines[0]`"),
        ("selectors: [{name: m, lines: [5, 6], code: octal}]", "one_hot"),
        ("selectors: [{name: m, lines: [5, 6], positions: [a, b, c]}]", "names more positions than 2 lines can show in this code (one_hot)"),
        ("selectors: [{name: m, lines: [5, 6], code: binary, positions: [a, b, c, d, e]}]", "names more positions than 2 lines"),
        ("selectors: [{name: m, lines: [5, 6], positions: [a, a]}]", "'a' is already `positions[0]`"),
        ("selectors: [{name: m, lines: [5, 6], positions: [a]}]", "at least two names"),
        ("selectors: [{name: m, lines: [5, 6], settle: soon}]", "the settle time"),
        ("selectors: [{name: m, lines: [5, 6], actions: [{on: turn, run: [x]}]}]", "allowed: select, invalid"),
        ("selectors: [{name: m, lines: [5, 6], debounce: 5ms}]", "debounce"),
        ("buttons: [{name: b, line: 5}]\nselectors: [{name: m, lines: [6, 5]}]", "selectors[0].lines[1]: line 5 of the 40-pin header's chip is already the line of button 'b'"),
        ("buttons: [{name: m, line: 5}]\nselectors: [{name: m, lines: [6, 7]}]", "the name 'm' is already that of button 'm'"),
    ])
    func mistakesAreRefusedWithWhatToWrite(yaml: String, message: String) {
        #expect {
            try ConfigurationLoader.load(yaml, file: "bad.yaml")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func selectorsAloneAreAConfiguration() throws {
        let configuration = try ConfigurationLoader.load("selectors: [{name: dip, lines: [5, 6, 13, 19], code: binary}]", file: "d.yaml")
        #expect(configuration.roster.inputs.map(\.kind) == [.selector] && configuration.buttons.isEmpty)
    }
}
