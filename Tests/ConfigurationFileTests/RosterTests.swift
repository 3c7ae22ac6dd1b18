import ConfigurationFile
import Inputs
import Pipeline
import Testing

/// The roster: a configuration's inputs in the run's order, each line with its identity, settings and
/// owner, and the plan built from it agreeing with it line by line.
@Suite struct RosterTests {
    /// Every kind, written in the file in another order than the run's.
    static let everyKind = """
        counters:
          - {name: energy, line: 24, per_unit: 1000, kernel_debounce: 1ms}
        sensors:
          - {name: door, line: GPIO23, bias: pull-down}
          - {name: motion, chip: gpiochip1, line: 25}
        encoders:
          - {name: volume, lines: [17, 27], bias: pull-up}
        buttons:
          - {name: bell, line: 22, kernel_debounce: 2ms}
          - line: 5
        """

    static func roster(_ text: String = everyKind) throws -> Roster {
        try ConfigurationLoader.load(text, file: "r.yaml").roster
    }

    /// What an input is, for comparing: its kind's word.
    static func kinds(_ roster: Roster) -> [String] { roster.inputs.map(\.kind.noun) }

    @Test func theInputsComeInTheRunsOrderWithTheirNames() throws {
        let roster = try Self.roster()
        #expect(roster.inputs.map(\.name) == ["bell", "button2", "volume", "door", "motion", "energy"])
        #expect(Self.kinds(roster) == ["button", "button", "encoder", "sensor", "sensor", "counter"])
        #expect(roster.inputs.map { $0.lines.map(\.index) } == [[0], [1], [2, 3], [4], [5], [6]])
        #expect(roster.buttons.map(\.settings.name) == ["bell", "button2"] && roster.buttons.map(\.line.index) == [0, 1])
        #expect(roster.encoders.map(\.settings.name) == ["volume"])
        #expect(roster.encoders.map { [$0.lineA.index, $0.lineB.index] } == [[2, 3]])
        #expect(roster.sensors.map(\.settings.name) == ["door", "motion"] && roster.sensors.map(\.line.index) == [4, 5])
        #expect(roster.counters.map(\.settings.name) == ["energy"] && roster.counters.map(\.line.index) == [6])
    }

    /// The convention every consumer relies on, written out: buttons, each encoder's A then B, sensors,
    /// counters. A change of it must change this test, not pass unnoticed.
    /// A kind whose lines pins carry, listed after a keypad (whose keys no pin carries): its lines come
    /// before the keys, so the pins' lines are always lines 0 to n-1, and its pins before the keypad's.
    @Test func thePinsLinesComeFirstWhateverKindFollowsAKeypad() throws {
        let roster = try Self.roster("""
            keypads:
              - {name: pad, rows: [5, 6], columns: [12, 16], keys: ["12", "34"]}
            selectors:
              - {name: mode, lines: [20, 21, 26]}
            buttons:
              - {name: bell, line: 22}
            """)
        #expect(roster.inputs.map(\.name) == ["bell", "pad", "mode"])
        #expect(roster.inputs.map { $0.lines.map(\.index) } == [[0], [4, 5, 6, 7], [1, 2, 3]])
        #expect(roster.pinLines.map(\.id.index) == [0, 1, 2, 3])
        #expect(roster.pins.map(\.label) == ["bell", "mode (line 1)", "mode (line 2)", "mode (line 3)", "pad (row 1)", "pad (row 2)", "pad (column 1)", "pad (column 2)"])
        #expect((0..<3).map { roster.firstPin(of: $0) } == [0, 4, 1])
        #expect(roster.label(of: roster.lines[4].id) == "pad key 1" && roster.label(of: roster.lines[3].id) == "mode (line 3)")
    }

    @Test func theLineOrderIsButtonsThenEncodersABThenSensorsThenCounters() throws {
        let roster = try Self.roster()
        let owners = roster.lines.map { (roster.input(owning: $0.id).kind.noun, $0.owner.role) }
        let expected: [(String, Roster.Role)] = [
            ("button", .single), ("button", .single), ("encoder", .encoderA), ("encoder", .encoderB), ("sensor", .single), ("sensor", .single),
            ("counter", .single),
        ]
        #expect(owners.count == expected.count)
        for (owner, wanted) in zip(owners, expected) { #expect(owner == wanted) }
        #expect(roster.lines.map(\.owner.input) == [0, 1, 2, 2, 3, 4, 5])
    }

    @Test func eachLineHasItsOwnersSettingsAndLabel() throws {
        let roster = try Self.roster()
        #expect(roster.lines.map(\.settings?.line) == ["22", "5", "17", "27", "GPIO23", "25", "24"])
        #expect(roster.lines.map(\.settings?.chip) == [nil, nil, nil, nil, nil, "gpiochip1", nil])
        #expect(roster.lines.map(\.settings?.bias.rawValue) == ["pull-up", "pull-up", "pull-up", "pull-up", "pull-down", "pull-up", "pull-up"])
        // An encoder's lines get no kernel debouncing: its decoder takes every change.
        #expect(roster.lines.map(\.settings?.kernelDebounceNs) == [2_000_000, 0, 0, 0, 0, 0, 1_000_000])
        #expect(roster.lines.map { roster.label(of: $0.id) } == ["bell", "button2", "volume (A)", "volume (B)", "door", "motion", "energy"])
        let encoderLines = roster.lines(of: 2)
        #expect(encoderLines.map(\.owner) == [Roster.Owner(input: 2, role: .encoderA), Roster.Owner(input: 2, role: .encoderB)])
        #expect(roster.owner(of: roster.sensors[1].line) == Roster.Owner(input: 4, role: .single))
        #expect(roster.input(owning: roster.counters[0].line).name == "energy")
    }

    /// Each input is found by its one identity, its kind and name: another kind under the same name is
    /// another input.
    @Test func eachInputHasOneIdentity() throws {
        let roster = try Self.roster()
        #expect(roster.inputs.map(\.id.description) == ["button 'bell'", "button 'button2'", "encoder 'volume'", "sensor 'door'", "sensor 'motion'", "counter 'energy'"])
        for (index, input) in roster.inputs.enumerated() { #expect(roster.index(of: input.id) == index) }
        #expect(roster.index(of: InputID(.counter, "door")) == nil)
        #expect(roster.index(of: InputID(.sensor, "window")) == nil)
    }

    /// The run's order is fixed in one place, the registry's list of kinds (`InputKinds.sections`),
    /// whatever order the file writes its sections in: the reader reads each kind's section in that
    /// order, and the roster keeps the order it is given, its lines numbered from 0 in it.
    @Test func theRunsOrderIsTheKindsWhateverOrderTheFileWritesThem() throws {
        let roster = try Self.roster()
        #expect(InputKinds.sections.kinds.map { $0.kind } == InputKindID.all)
        let kindsInOrder = Self.kinds(roster).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        #expect(kindsInOrder == InputKindID.all.map(\.noun).filter(kindsInOrder.contains))
        let reversed = Roster(inputs: roster.inputs.reversed().map(\.settings))
        #expect(reversed.inputs.map(\.name) == ["energy", "motion", "door", "volume", "button2", "bell"])
        #expect(reversed.inputs.map { $0.lines.map(\.index) } == [[0], [1], [2], [3, 4], [5], [6]])
    }

    /// The kinds' words (messages' nouns, the configuration's sections) come from one table, and the
    /// configuration keeps one list of inputs, which its per-kind views and counts read.
    @Test func theKindsWordsAndCountsComeFromTheOneList() throws {
        #expect(InputKindID.all.map(\.section) == ["buttons", "encoders", "sensors", "counters", "keypads", "selectors"])
        let configuration = try ConfigurationLoader.load(Self.everyKind, file: "r.yaml")
        #expect(configuration.inputCounts == [2, 1, 2, 1, 0, 0])
        #expect(configuration.buttons.map(\.name) == ["bell", "button2"] && configuration.sensors.map(\.name) == ["door", "motion"])
        #expect(configuration.roster.inputs.map(\.name) == ["bell", "button2", "volume", "door", "motion", "energy"])
    }

    @Test func lineIdentitiesAreStableAndInTheRunsOrder() throws {
        let roster = try Self.roster()
        #expect(roster.lines.map(\.id.index) == Array(0..<7))
        #expect(roster.lines.map(\.id) == roster.lines.map(\.id).sorted())
        for line in roster.lines { #expect(roster[line.id].id == line.id) }
        // Made again from the same file, the same identities.
        #expect(try Self.roster().lines.map(\.id) == roster.lines.map(\.id))
        // A counter added at the end leaves every other line where it was.
        let more = try Self.roster(Self.everyKind.replacingCounters(with: "  - {name: energy, line: 24}\n  - {name: water, line: 26}\n"))
        #expect(Array(more.lines.map(\.id).prefix(7)) == roster.lines.map(\.id))
        #expect(more.label(of: more.counters[1].line) == "water" && more.counters[1].line.index == 7)
    }

    /// The plan takes each line's stage from the roster: a button's gestures, an encoder's raw lines,
    /// a contact, a counter; the encoders and the contacts' actions at the roster's lines.
    @Test func thePlanAgreesWithTheRosterLineByLine() throws {
        let configuration = try ConfigurationLoader.load(
            Self.everyKind.replacingOccurrences(of: "line: GPIO23, bias: pull-down}", with: "line: GPIO23, bias: pull-down, actions: [{on: on, run: [/bin/true]}]}"),
            file: "r.yaml")
        let roster = configuration.roster
        let plan = DaemonPlan(configuration, starts: [roster.index(of: InputID(.counter, "energy"))!: 42])
        #expect(plan.plans.count == roster.lines.count)
        for line in roster.lines {
            let role = plan.plans[line.id.index].role
            let owner = roster.input(owning: line.id)
            switch owner.kind {
            case .encoder: #expect(plan.plans[line.id.index] == LinePlan(debounce: nil, input: line.owner.input))
            case .sensor: #expect(role == .contact(try #require(owner.settings as? SensorSettings).contact))
            case .counter: #expect(role == .counter(initialTotal: 42))
            default: #expect(role == .button)
            }
        }
        #expect(plan.pipeline.encoders.map { [$0.lineA, $0.lineB] } == roster.encoders.map { [$0.lineA.index, $0.lineB.index] })
        // Every line's plan names its owner, an encoder's raw lines A and B too.
        #expect(roster.lines.map { plan.plans[$0.id.index].input } == [0, 1, 2, 2, 3, 4, 5])
        // An encoder's outputs name its input, its place in the roster (after the two buttons).
        #expect(plan.pipeline.encoders.map(\.input) == [roster.index(of: InputID(.encoder, "volume"))] && plan.pipeline.encoders.map(\.input) == [2])
        #expect(plan.actionBindings.map(\.input) == [roster.index(of: InputID(.sensor, "door"))])
        // Where the inputs that keep a value start, by their input: the counter's kept total, the
        // encoder's position (0: none kept).
        #expect(plan.starts == [roster.index(of: InputID(.counter, "energy"))!: 42, 2: 0])
        #expect(DaemonPlan(configuration, starts: [2: 7]).starts[2] == 7)
    }
}

extension String {
    /// This configuration with its `counters:` list replaced by `list`.
    fileprivate func replacingCounters(with list: String) -> String {
        let lines = split(separator: "\n", omittingEmptySubsequences: false)
        return "counters:\n" + list + lines.drop { !$0.hasPrefix("sensors:") }.joined(separator: "\n")
    }

    /// This text with each `target` replaced by `replacement` (no Foundation).
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
