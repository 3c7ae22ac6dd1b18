import ConfigurationFile
import Testing

/// A reload's diff of two rosters: inputs kept by name, kind and settings; added, changed and removed
/// ones named; each kept line mapped to its line before.
@Suite struct RosterChangeTests {
    static func roster(_ yaml: String) throws -> Roster { try ConfigurationLoader.load(yaml, file: "r.yaml").roster }

    static let before = """
        buttons:
          - {name: held, line: 5}
          - {name: gone, line: 6}
          - {name: bell, line: 13}
        encoders:
          - {name: knob, lines: [20, 21]}
        counters:
          - {name: energy, line: 17, per_unit: 1000}
        """

    @Test func keptAddedChangedAndRemovedInputsAreToldApart() throws {
        let after = """
            buttons:
              - {name: held, line: 5}
              - {name: bell, line: 13, debounce: "defer:30ms"}
              - {name: extra, line: 19}
            encoders:
              - {name: knob, lines: [20, 21]}
            counters:
              - {name: energy, line: 17, per_unit: 1000}
            """
        let change = RosterChange(from: try Self.roster(Self.before), to: try Self.roster(after))
        #expect(change.kept == ["held", "knob", "energy"])
        #expect(change.added == ["extra"])
        #expect(change.changed == ["bell"])
        #expect(change.removed == ["gone"])
        // Inputs after: held, bell, extra, knob, energy; before: held, gone, bell, knob, energy.
        #expect(change.previousInput == [0, nil, nil, 3, 4])
        // Lines after: held 0, bell 1, extra 2, knob A 3, knob B 4, energy 5; before: held 0, gone 1, bell 2, knob 3 and 4, energy 5.
        #expect(change.previousLine == [0, nil, nil, 3, 4, 5])
        #expect(change.dropped == [1, 2])
        #expect(!change.isNone)
    }

    @Test func theSameRosterChangesNothing() throws {
        let change = RosterChange(from: try Self.roster(Self.before), to: try Self.roster(Self.before))
        #expect(change.isNone)
        #expect(change.previousLine == [0, 1, 2, 3, 4, 5])
        #expect(change.dropped.isEmpty && change.added.isEmpty && change.removed.isEmpty && change.changed.isEmpty)
    }

    /// Any setting makes an input another one: its line, its kind, an action, an encoder's keys.
    @Test(arguments: [
        "buttons:\n  - {name: held, line: 7}\n",
        "sensors:\n  - {name: held, line: 5}\n",
        "buttons:\n  - name: held\n    line: 5\n    actions:\n      - {on: press, run: [true]}\n",
        "buttons:\n  - {name: held, line: 5, bias: pull-down}\n",
    ])
    func anySettingChangesAnInput(after: String) throws {
        let change = RosterChange(from: try Self.roster("buttons:\n  - {name: held, line: 5}\n"), to: try Self.roster(after))
        #expect(change.changed == ["held"])
        #expect(change.previousLine == [nil])
        #expect(change.dropped == [0])
    }

    @Test func movedInputsKeepTheirLines() throws {
        let change = RosterChange(
            from: try Self.roster("buttons:\n  - {name: a, line: 5}\n  - {name: b, line: 6}\n"),
            to: try Self.roster("buttons:\n  - {name: b, line: 6}\n  - {name: a, line: 5}\n"))
        #expect(change.previousLine == [1, 0])
        #expect(!change.isNone)
        #expect(change.kept == ["b", "a"])
    }
}
