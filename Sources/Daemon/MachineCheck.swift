import ConfigurationFile
import ESPHomeDevice
import GPIODBackend
import MQTT

/// What `run` checks on this machine before it starts, beyond the file itself: the files the `mqtt:`
/// and `api:` sections name can be read, and each button's line resolves on this machine's chips to a line no
/// other button has (`line: 17` and `line: GPIO17` are one pin on a Raspberry Pi). `run` and `check`
/// call these same functions, so that `check` refuses what `run` would.
package enum MachineCheck {
    /// One button's line as found on this machine: `place` is what the caller keeps (`run`: the open
    /// chip), `chipName` the kernel's name of its chip, `offset` the line's offset on it.
    package struct Located<Place> {
        package var place: Place
        package var chipName: String
        package var offset: Int

        package init(place: Place, chipName: String, offset: Int) {
            self.place = place
            self.chipName = chipName
            self.offset = offset
        }
    }

    /// Why a configuration cannot run on this machine.
    package enum Failure: Error, CustomStringConvertible {
        /// The `mqtt:` section's password or CA file cannot be read (`MQTTSettings.readFiles()`).
        case mqtt(MQTTError)
        /// An input's chip or line cannot be found or opened (the input's line as `Roster.pins` names it).
        case line(input: String, GPIOError)
        /// The `api:` section's key file cannot be read, or holds no key.
        case apiKeyFile(ESPHomeAPIError)
        /// Two owners (inputs, or two lines of one) resolve to the same line of the same chip.
        case sharedLine(file: String, first: String, second: String, chip: String, offset: Int)

        package var description: String {
            switch self {
            case .mqtt(let error): error.description
            case .line(_, let error): error.description
            case .apiKeyFile(let error): error.message
            case .sharedLine(let file, let first, let second, let chip, let offset):
                "\(file): '\(first)' and '\(second)' are both on line \(offset) of \(chip) here: one line serves one input (give one of them another line or chip:)"
            }
        }
    }

    /// Reads the password and checks the CA file of the `mqtt:` section, if any, and reads the key file
    /// of the `api:` section, if it has one.
    package static func readConfiguredFiles(_ configuration: ServiceConfiguration) throws(Failure) {
        do { _ = try configuration.mqtt?.readFiles() } catch { throw .mqtt(error) }
        if let encryption = configuration.api?.encryption {
            do { _ = try DaemonAssembly.apiSecurity(encryption) } catch { throw .apiKeyFile(error) }
        }
    }

    /// Every pin of the configuration, in the roster's order (`Roster.pins`: the pin lines, then each
    /// keypad's rows and columns), found by `locate`; refuses a line that cannot be found, and two
    /// owners of one line.
    package static func locateLines<Place>(
        _ configuration: ServiceConfiguration, locate: (LineSettings) throws(GPIOError) -> Located<Place>
    ) throws(Failure) -> [Located<Place>] {
        let roster = configuration.roster
        var owners: [String: String] = [:]
        var located: [Located<Place>] = []
        for (label, settings) in roster.pins {
            let line: Located<Place>
            do { line = try locate(settings) } catch { throw .line(input: label, error) }
            if let owner = owners.updateValue(label, forKey: "\(line.offset)@\(line.chipName)") {
                throw .sharedLine(file: configuration.source, first: owner, second: label, chip: line.chipName, offset: line.offset)
            }
            located.append(line)
        }
        return located
    }

    /// Every line of the configuration on this machine's chips, found in `chips` (read once:
    /// `ChipInventory.read()`) as `run` opens them: the chips are opened, not the lines, so this works
    /// while another program holds them. The lines of one chip share its one open chip.
    package static func locateLinesOnThisMachine(_ configuration: ServiceConfiguration, chips: ChipInventory) throws(Failure) -> [Located<GPIOChip>] {
        try locateLines(configuration) { wanted throws(GPIOError) in
            let (chip, offsets) = try chips.locate(chip: wanted.chip, lines: [wanted.line])
            return Located(place: chip, chipName: chip.name, offset: offsets[0])
        }
    }
}
