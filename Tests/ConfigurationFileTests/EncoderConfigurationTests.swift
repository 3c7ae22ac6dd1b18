import ConfigurationFile
import DebounceCore
import EventLoop
import Inputs
import Keys
import LinuxSys
import Logging
import Pipeline
import Settings
import Simulation
import Testing

/// `encoders:` in a configuration: reading, refusals, the plan's line order, and the keys a detent taps.
@Suite struct EncoderConfigurationTests {
    static let volume = """
        buttons:
          - {name: mute, line: 22}
        encoders:
          - name: volume
            lines: [GPIO17, GPIO27]
            steps_per_detent: 2
            reverse: true
            min: 0
            max: 100
            acceleration: {threshold: 10/s, factor: 4}
            keys: {cw: KEY_VOLUMEUP, ccw: [KEY_LEFTSHIFT, KEY_VOLUMEDOWN]}
        """

    @Test func anEncoderIsReadWithEveryKey() throws {
        let configuration = try ConfigurationLoader.load(Self.volume, file: "v.yaml")
        let encoder = try #require(configuration.encoders.first)
        #expect(encoder.name == "volume" && encoder.lineA.line == "GPIO17" && encoder.lineB.line == "GPIO27")
        #expect(encoder.configuration.stepsPerDetent == .two)
        #expect(encoder.configuration.reverse)
        #expect(encoder.configuration.range == 0...100 && !encoder.configuration.wraps)
        #expect(encoder.configuration.acceleration == EncoderConfiguration.Acceleration(thresholdPerSecond: 10, factor: 4))
        #expect(encoder.keys?.clockwise == [KeyCode.code(named: "KEY_VOLUMEUP")].compactMap { $0 })
        #expect(encoder.keys?.counterClockwise.count == 2)
        // The run's lines: the buttons', then the encoder's A and B, with raw plans and the encoder's plan.
        #expect(configuration.roster.lines.map(\.settings?.line) == ["22", "GPIO17", "GPIO27"])
        let plan = DaemonPlan(configuration)
        #expect(plan.plans.count == 3 && plan.plans[1] == LinePlan(debounce: nil, input: 1) && plan.plans[2] == LinePlan(debounce: nil, input: 1))
        #expect(plan.pipeline.encoders == [EncoderPlan(lineA: 1, lineB: 2, configuration: encoder.configuration, input: 1)])
    }

    @Test func anEncodersLinesShareItsChipAndBiasAndAreNotDebouncedByTheKernel() throws {
        let configuration = try ConfigurationLoader.load(
            "defaults: {chip: gpiochip0, bias: pull-down, kernel_debounce: 2ms}\nencoders: [{name: knob, lines: [GPIO17, 27], bias: disabled}]\n", file: "k.yaml")
        let encoder = try #require(configuration.encoders.first)
        #expect(encoder.lineA == LineSettings(chip: "gpiochip0", line: "GPIO17", bias: .disabled, kernelDebounceNs: 0))
        #expect(encoder.lineB == LineSettings(chip: "gpiochip0", line: "27", bias: .disabled, kernelDebounceNs: 0))
    }

    @Test func aOneStepEncodersSettleTimeIsReadWithTheDurationSyntax() throws {
        let configuration = try ConfigurationLoader.load("encoders: [{name: knob, lines: [5, 6], steps_per_detent: 1, settle: 2.5ms}]", file: "k.yaml")
        #expect(configuration.encoders.first?.configuration.settleNs == 2_500_000)
        let unsaid = try ConfigurationLoader.load("encoders: [{name: knob, lines: [5, 6], steps_per_detent: 1}]", file: "k.yaml")
        #expect(unsaid.encoders.first?.configuration.settleNs == EncoderConfiguration.defaultSettleNs)
        #expect(EncoderConfiguration.defaultSettleNs == 5_000_000)
    }

    @Test func encodersAloneAreAConfiguration() throws {
        let configuration = try ConfigurationLoader.load("encoders: [{name: knob, lines: [5, 6]}]", file: "k.yaml")
        #expect(configuration.buttons.isEmpty && configuration.encoders.count == 1)
    }

    @Test(arguments: [
        ("encoders: [{name: k, lines: [5]}]", "needs `lines: [A, B]`"),
        ("encoders: [{name: k, lines: [5, 5]}]", "two different lines"),
        ("encoders: [{name: k, lines: [5, 6], steps_per_detent: 3}]", "steps_per_detent"),
        ("encoders: [{name: k, lines: [5, 6], wrap: true, max: 9}]", "give both"),
        ("encoders: [{name: k, lines: [5, 6], min: 9, max: 9}]", "must be more than `min:`"),
        ("encoders: [{name: k, lines: [5, 6], keys: {cw: KEY_A}}]", "needs both `cw:` and `ccw:`"),
        ("encoders: [{name: k, lines: [5, 6], acceleration: {threshold: fast, factor: 2}}]", "detents per second"),
        ("buttons: [{name: k, line: 5}]\nencoders: [{name: k, lines: [6, 7]}]", "the name 'k' is already that of button 'k'"),
        ("buttons: [{name: b, line: 5}]\nencoders: [{name: k, lines: [6, 5]}]", "encoders[0].lines[1]: line 5 of the 40-pin header's chip is already the line of button 'b'"),
        ("encoders: [{name: k, lines: [5, 6], speed: 3}]", "speed"),
        ("encoders: [{name: k, lines: [5, 6], settle: 5ms}]", "applies only with `steps_per_detent: 1`"),
        ("encoders: [{name: k, lines: [5, 6], steps_per_detent: 1, settle: 100us}]", "too short"),
        ("encoders: [{name: k, lines: [5, 6], steps_per_detent: 1, settle: soon}]", "the settle time"),
    ])
    func mistakesAreRefusedWithWhatToWrite(yaml: String, message: String) {
        #expect {
            try ConfigurationLoader.load(yaml, file: "bad.yaml")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func eachDetentTapsItsDirectionsKeys() throws {
        let configuration = try ConfigurationLoader.load(
            "encoders: [{name: volume, lines: [17, 27], keys: {cw: KEY_VOLUMEUP, ccw: KEY_VOLUMEDOWN}}]", file: "v.yaml")
        let plan = DaemonPlan(configuration)
        let ms: Int64 = 1_000_000
        // One detent clockwise (A leads: 11 → 01 → 00 → 10 → 11), then one back.
        let a: [Edge] = [Edge(level: .low, timeNs: 10 * ms), Edge(level: .high, timeNs: 30 * ms), Edge(level: .low, timeNs: 110 * ms), Edge(level: .high, timeNs: 130 * ms)]
        let b: [Edge] = [Edge(level: .low, timeNs: 20 * ms), Edge(level: .high, timeNs: 40 * ms), Edge(level: .low, timeNs: 100 * ms), Edge(level: .high, timeNs: 120 * ms)]
        let lines = SimulatedLines(initialLevels: [.high, .high], scripts: [a.makeIterator(), b.makeIterator()])
        let keyboard = KeyboardTests.RecordingKeyboard()
        let sink = KeyboardSink(
            mapping: KeyMapping(bindings: plan.keyBindings, inputs: InputKinds.presenters(of: configuration.roster, place: nil)),
            device: keyboard, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        _ = try VirtualRun.play(lines, plan: PipelinePlan(lines: plan.plans, encoders: plan.pipeline.encoders), sinks: [sink])
        #expect(keyboard.destroyed)
        #expect(keyboard.reports == ["+KEY_VOLUMEUP", "-KEY_VOLUMEUP", "+KEY_VOLUMEDOWN", "-KEY_VOLUMEDOWN"])
        #expect(KeyMapping.keys(of: plan.keyBindings).count == 2)
    }
}

@Suite struct EncoderActionConfigurationTests {
    @Test func anEncodersActionsAreCoalescedUnlessThePolicySaysOtherwise() throws {
        let configuration = try ConfigurationLoader.load("""
            encoders:
              - name: volume
                lines: [17, 27]
                actions:
                  - {on: rotate, run: [/bin/true]}
                  - {on: ccw, shell: 'echo down', policy: drop}
            """, file: "v.yaml")
        let actions = try #require(configuration.encoders.first?.actions)
        #expect(actions.map(\.on) == [.rotate, .ccw])
        #expect(actions.map(\.action.policy) == [.coalesce, .drop])
        #expect(actions.map(\.action.name) == ["volume.rotate", "volume.ccw"])
        let plan = DaemonPlan(configuration)
        #expect(plan.actionBindings == [InputActionBinding(input: 0, on: "rotate", action: 0), InputActionBinding(input: 0, on: "ccw", action: 1)])
        #expect {
            try ConfigurationLoader.load("encoders: [{name: v, lines: [1, 2], actions: [{on: press, run: [/bin/true]}]}]", file: "b.yaml")
        } throws: { "\($0)".contains("cw") }
    }
}

@Suite struct EncoderAxisTests {
    @Test func anAxisMovesByOneNotchPerDetentEachWay() throws {
        let configuration = try ConfigurationLoader.load("encoders: [{name: scroll, lines: [17, 27], axis: REL_WHEEL}]", file: "s.yaml")
        #expect(configuration.encoders.first?.axis == 8)
        let plan = DaemonPlan(configuration)
        #expect(KeyMapping.relativeAxes(of: plan.keyBindings) == [8])
        #expect(KeyMapping.keys(of: plan.keyBindings).isEmpty)
        var mapping = KeyMapping(bindings: plan.keyBindings, inputs: InputKinds.presenters(of: configuration.roster, place: nil))
        let up = mapping.reports(for: .rotation(OutputSource(input: 0, line: 0), EncoderEvent(direction: .clockwise, position: 1, timeNs: 1, onsetNs: 1)))
        let down = mapping.reports(for: .rotation(OutputSource(input: 0, line: 0), EncoderEvent(direction: .counterClockwise, position: 0, increment: 4, timeNs: 2, onsetNs: 2)))
        #expect(up.reports == [[KeyChange(axis: 8, value: 1)]] && up.timeNs == 1)
        #expect(down.reports == [[KeyChange(axis: 8, value: -4)]])
        #expect {
            try ConfigurationLoader.load("encoders: [{name: s, lines: [1, 2], axis: REL_WHEEL, keys: {cw: KEY_A, ccw: KEY_B}}]", file: "b.yaml")
        } throws: { "\($0)".contains("not both") }
        #expect {
            try ConfigurationLoader.load("encoders: [{name: s, lines: [1, 2], axis: REL_X}]", file: "b.yaml")
        } throws: { "\($0)".contains("REL_WHEEL") }
    }
}
