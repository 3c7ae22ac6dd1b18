import ConfigurationFile
import Daemon
import DebounceCore
import Pipeline
import Testing

/// `replay --config`: the configuration's button, sensor or counter that a trace of one line goes
/// through, its line as line 0.
@Suite struct ReplayedInputTests {
    static let file = """
        groups:
          screens: {lockout: 300ms}
        buttons:
          - {name: bell, line: 22, group: screens, hold: 1s}
        encoders:
          - {name: volume, lines: [17, 27]}
        sensors:
          - {name: door, line: 23, debounce: "defer:50ms"}
        counters:
          - {name: energy, line: 24, per_unit: 1000, unit: kWh}
        """

    @Test func aNameChoosesTheInputWithItsStagesAndTheGroups() throws {
        let configuration = try ConfigurationLoader.load(Self.file, file: "panel.yaml")
        let door = try ReplayedInput(configuration, name: "door")
        #expect(door.kind == .changes)
        #expect(door.pipeline.lines.count == 1)
        #expect(door.pipeline.lines[0].debounce?.press == .defer(windowNs: 50_000_000))
        if case .contact = door.pipeline.lines[0].role {} else { Issue.record("a sensor's line is a contact: \(door.pipeline.lines[0].role)") }
        let bell = try ReplayedInput(configuration, name: "bell")
        #expect(bell.kind == .presses)
        #expect(bell.pipeline.lines[0].group == 0)
        #expect(bell.pipeline.groups == [GroupLockout(windowNs: 300_000_000)])
        #expect(try ReplayedInput(configuration, name: "energy").kind == .pulses)
    }

    /// An encoder has two lines: it is not offered, and the message lists what is.
    @Test func anUnknownNameOrAnEncoderIsRefusedWithTheNamesThereAre() throws {
        let configuration = try ConfigurationLoader.load(Self.file, file: "panel.yaml")
        #expect(throws: ReplayedInputError.noSuchInput(name: "volume", inputs: ["bell", "door", "energy"])) {
            try ReplayedInput(configuration, name: "volume")
        }
        #expect(
            ReplayedInputError.noSuchInput(name: "volume", inputs: ["bell", "door", "energy"]).message(file: "panel.yaml")
                == "panel.yaml has no input of one line (a trace is of one line) named \"volume\"; it has: bell, door, energy")
    }

    @Test func withoutANameTheOnlyOneIsTakenAndSeveralAreRefused() throws {
        let several = try ConfigurationLoader.load(Self.file, file: "panel.yaml")
        #expect(throws: ReplayedInputError.notOne(inputs: ["bell", "door", "energy"])) { try ReplayedInput(several, name: nil) }
        #expect(
            ReplayedInputError.notOne(inputs: ["bell", "door", "energy"]).message(file: "panel.yaml")
                == "panel.yaml has 3 inputs of one line: say which with --input (bell, door, energy)")
        let one = try ConfigurationLoader.load("encoders: [{name: volume, lines: [17, 27]}]\ncounters: [{name: water, line: 5}]", file: "one.yaml")
        let water = try ReplayedInput(one, name: nil)
        #expect(water.name == "water")
        #expect(water.kind == .pulses)
    }
}
