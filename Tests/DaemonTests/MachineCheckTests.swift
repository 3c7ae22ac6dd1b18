import ConfigurationFile
import Daemon
import GPIODBackend
import MQTT
import Testing

/// What `run` checks on the machine before it starts, and `check` with it (`MachineCheck`): one pin
/// written two ways is one line, and the `mqtt:` section's files must be there.
@Suite struct MachineCheckTests {
    /// A Raspberry Pi's header as a resolver would see it: offsets as they are, `GPIO<n>` is offset n.
    static func piHeader(_ button: LineSettings) throws(GPIOError) -> MachineCheck.Located<String> {
        let chip = button.chip ?? "gpiochip0"
        if let offset = Int(button.line) { return .init(place: chip, chipName: chip, offset: offset) }
        guard button.line.hasPrefix("GPIO"), let offset = Int(button.line.dropFirst(4)) else {
            throw .unknownLineName(button.line, chip: chip, suggestions: [])
        }
        return .init(place: chip, chipName: chip, offset: offset)
    }

    static func configuration(_ buttons: String) throws -> ServiceConfiguration {
        try ConfigurationLoader.load("buttons:\n\(buttons)", file: "b.yaml")
    }

    @Test func onePinWrittenTwoWaysIsRefused() throws {
        let configuration = try Self.configuration("  - {name: a, line: 17}\n  - {name: b, line: GPIO17}\n")
        #expect {
            try MachineCheck.locateLines(configuration, locate: Self.piHeader)
        } throws: { error in
            guard let failure = error as? MachineCheck.Failure, case .sharedLine("b.yaml", "a", "b", "gpiochip0", 17) = failure else { return false }
            return failure.description == "b.yaml: 'a' and 'b' are both on line 17 of gpiochip0 here: one line serves one input (give one of them another line or chip:)"
        }
    }

    @Test func distinctPinsAreLocatedInOrder() throws {
        let configuration = try Self.configuration("  - {name: a, line: 17}\n  - {name: b, line: GPIO27}\n  - {name: c, line: 17, chip: gpiochip1}\n")
        let lines = try MachineCheck.locateLines(configuration, locate: Self.piHeader)
        #expect(lines.map(\.offset) == [17, 27, 17])
        #expect(lines.map(\.chipName) == ["gpiochip0", "gpiochip0", "gpiochip1"])
    }

    @Test func aLineThatCannotBeFoundNamesItsButton() throws {
        let configuration = try Self.configuration("  - {name: a, line: 17}\n  - {name: b, line: GPOI27}\n")
        #expect {
            try MachineCheck.locateLines(configuration, locate: Self.piHeader)
        } throws: { error in
            guard case .line("b", .unknownLineName("GPOI27", _, _)) = error as? MachineCheck.Failure else { return false }
            return true
        }
    }

    @Test func aMissingPasswordFileIsRefused() throws {
        let configuration = try ConfigurationLoader.load(
            "buttons: [{name: a, line: 17}]\nmqtt: {url: mqtt://h, username: u, password_file: /nonexistent/mqtt-password}\n", file: "b.yaml")
        #expect {
            try MachineCheck.readConfiguredFiles(configuration)
        } throws: { error in
            guard case .mqtt(.passwordFile("/nonexistent/mqtt-password", _, let code)) = error as? MachineCheck.Failure else { return false }
            return code == 2  // ENOENT
        }
    }
}

/// An encoder's lines are checked with the buttons': one pin written two ways is refused there too.
@Suite struct EncoderMachineCheckTests {
    @Test func anEncoderLineThatIsAButtonsPinIsRefused() throws {
        let configuration = try ConfigurationLoader.load(
            "buttons: [{name: mute, line: 17}]\nencoders: [{name: volume, lines: [GPIO17, GPIO27]}]", file: "e.yaml")
        #expect {
            try MachineCheck.locateLines(configuration, locate: MachineCheckTests.piHeader)
        } throws: { error in
            guard let failure = error as? MachineCheck.Failure, case .sharedLine("e.yaml", "mute", "volume (A)", "gpiochip0", 17) = failure else { return false }
            return true
        }
        let fine = try ConfigurationLoader.load("buttons: [{name: mute, line: 22}]\nencoders: [{name: volume, lines: [GPIO17, GPIO27]}]", file: "e.yaml")
        #expect(try MachineCheck.locateLines(fine, locate: MachineCheckTests.piHeader).map(\.offset) == [22, 17, 27])
    }
}

/// Sensors' and counters' lines are located with the buttons' (`Roster.lines`): one pin
/// written two ways is refused there too.
@Suite struct SensorMachineCheckTests {
    @Test func aCounterOnASensorsPinWrittenAnotherWayIsRefused() throws {
        let configuration = try ConfigurationLoader.load("sensors: [{name: door, line: 23}]\ncounters: [{name: energy, line: GPIO23}]", file: "m.yaml")
        #expect {
            try MachineCheck.locateLines(configuration, locate: MachineCheckTests.piHeader)
        } throws: { error in
            guard let failure = error as? MachineCheck.Failure, case .sharedLine("m.yaml", "door", "energy", "gpiochip0", 23) = failure else { return false }
            return true
        }
        let fine = try ConfigurationLoader.load(
            "buttons: [{name: bell, line: 22}]\nsensors: [{name: door, line: GPIO23}]\ncounters: [{name: energy, line: 24}]", file: "m.yaml")
        #expect(try MachineCheck.locateLines(fine, locate: MachineCheckTests.piHeader).map(\.offset) == [22, 23, 24])
    }
}
