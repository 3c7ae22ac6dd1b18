import ConfigurationFile
import KeptState
import Foundation
import GPIODBackend
import InputModel
import Inputs
import Testing

/// The registry: one presenter per input of a configuration, in the roster's order, each with its
/// input, its lines and where it starts.
@Suite struct InputKindsTests {
    static let everyKind = """
        buttons:
          - {name: bell, line: 4}
        encoders:
          - {name: volume, lines: [17, 27]}
          - {name: balance, lines: [5, 6]}
        sensors:
          - {name: door, line: 23, device_class: door}
        counters:
          - {name: energy, line: 24, per_unit: 1000, unit: kWh}
        keypads:
          - {name: pad, rows: [7, 8], columns: [9, 10], keys: ["12", "34"]}
        selectors:
          - {name: mode, lines: [12, 13, 16], positions: [off, auto, on]}
        """

    /// What the loader's messages suggest ("add e.g. …") is a file it reads, for every kind.
    @Test func everyKindsExampleIsAConfigurationOfOneInput() throws {
        for kind in InputKinds.sections.kinds {
            let text = String(kind.example.dropFirst().dropLast())
            let configuration = try ConfigurationLoader.load(text, file: "example.yaml")
            #expect(configuration.roster.inputs.count == 1 && configuration.roster.inputs[0].kind == kind.kind, "\(text)")
        }
    }

    @Test func oneForEachInputInTheRostersOrderStartingWhereTheyWereKept() throws {
        let configuration = try ConfigurationLoader.load(Self.everyKind, file: "every-kind.yaml")
        let presenters = InputKinds.presenters(
            of: configuration.roster, place: { (chip: "gpiochip0", offset: 100 + $0.index) }, starts: [4: 42, 2: 3])
        #expect(presenters.map(\.description.kind) == ["button", "encoder", "encoder", "sensor", "counter", "keypad", "selector"])
        #expect(presenters.map(\.name) == ["bell", "volume", "balance", "door", "energy", "pad", "mode"])
        #expect(presenters.map(\.description.input) == Array(0..<7))
        #expect(presenters.map(\.description.lines) == [[0], [1, 2], [3, 4], [5], [6], [10, 11, 12, 13], [7, 8, 9]], "the pins' lines first, then the keys")
        #expect((presenters[1] as? EncoderPresenter)?.startPosition == 0)
        #expect((presenters[2] as? EncoderPresenter)?.startPosition == 3)
        #expect((presenters[4] as? CounterPresenter)?.startTotal == 42)
        #expect((presenters[1] as? EncoderPresenter)?.eventFields == .encoder("volume", chip: "gpiochip0", lines: [101, 102]))
        // Without places (`--remove-discovery`), an encoder's events name no lines.
        let unplaced = InputKinds.presenters(of: configuration.roster, place: nil)
        #expect((unplaced[1] as? EncoderPresenter)?.eventFields == .encoder("volume", chip: "", lines: []))
    }

    /// Every kind the configuration reads is a kind the registry asks (its settings an `InputKind`), and
    /// each answers as its own: a keypad is a source of its own, and only an input of one line replays.
    @Test func everyKindsSettingsAreAKindOfTheRegistry() throws {
        let roster = try ConfigurationLoader.load(Self.everyKind, file: "every-kind.yaml").roster
        #expect(Set(roster.inputs.map(\.kind)) == Set(InputKindID.all))
        let kinds = roster.inputs.compactMap { $0.settings as? any InputKind }
        #expect(kinds.count == roster.inputs.count)
        #expect(kinds.map(\.isSourceOfItsOwn) == [false, false, false, false, false, true, false])
        #expect(roster.inputs.map { InputKinds.replayTarget(of: $0) != nil } == [true, false, false, true, true, false, false])
    }

    /// What the state directory keeps, as each kind says, by input: every counter's total in the
    /// counters' file, the position of an encoder with `restore: true` only in the positions file.
    @Test func theStateDirectoryKeepsCountersAndRestoredEncoders() throws {
        let yaml = Self.everyKind.replacingOccurrences(of: "{name: balance, lines: [5, 6]}", with: "{name: balance, lines: [5, 6], restore: true}")
        let roster = try ConfigurationLoader.load(yaml, file: "every-kind.yaml").roster
        let energy = try #require(roster.inputs.firstIndex { $0.name == "energy" })
        let kept = InputKinds.kept(of: roster)
        #expect(kept == [
            StateStore.Entry(name: "balance", input: 2, file: .positions, flushIntervalNs: 5_000_000_000),
            StateStore.Entry(name: "energy", input: energy, file: .counters, flushIntervalNs: 5_000_000_000),
        ])
        #expect(InputKinds.kept(of: try ConfigurationLoader.load(Self.everyKind, file: "every-kind.yaml").roster).map(\.name) == ["energy"])
        #expect(InputKinds.kept(of: try ConfigurationLoader.load("buttons: [{name: b, line: 1}]", file: "b.yaml").roster).isEmpty)
    }

    /// A keypad whose pins were not all found is refused with what it needed, never a trap.
    @Test func aKeypadWithoutAllItsPinsIsRefused() throws {
        let roster = try ConfigurationLoader.load(Self.everyKind, file: "every-kind.yaml").roster
        #expect {
            try InputKinds.requestedSources(of: roster, pins: [])
        } throws: { error in
            guard case .system(let operation, _) = error as? GPIOError else { return false }
            return operation.contains("keypad pad's 4 pins (0 found)")
        }
    }
}
