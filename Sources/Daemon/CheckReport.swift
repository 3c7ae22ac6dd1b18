import ConfigurationFile
import GPIODBackend
import Inputs
import Settings

/// What `check` says of a configuration: a summary line (what it sets up), the `mqtt:`, `socket:` and `api:`
/// sections' lines, then each input with where its lines are, its settings, actions and keys; and the notes of the
/// check on this machine (what was not refused there, and why). A value built from the configuration
/// and what was found on this machine (`MachineFindings`), apart from its printing.
package struct CheckReport: Sendable, Hashable {
    /// What the check on this machine found (`MachineCheck`): each line's chip and offset, in the
    /// roster's line order (`nil` when they were not resolved here), and the notes it left.
    package struct MachineFindings: Sendable, Hashable {
        package struct Line: Sendable, Hashable {
            /// The kernel's name of the line's chip (`gpiochip0`).
            package var chipName: String
            package var offset: Int

            package init(chipName: String, offset: Int) {
                self.chipName = chipName
                self.offset = offset
            }
        }

        package var lines: [Line]?
        package var notes: [String]

        package init(lines: [Line]?, notes: [String] = []) {
            self.lines = lines
            self.notes = notes
        }

        /// The lines `MachineCheck` found, with `notes`.
        package init<Place>(located: [MachineCheck.Located<Place>]?, notes: [String] = []) {
            self.init(lines: located?.map { Line(chipName: $0.chipName, offset: $0.offset) }, notes: notes)
        }
    }

    /// The report's lines, for standard output, in order; as written, not yet escaped for a terminal.
    package var lines: [String]
    /// Notes for standard error: the machine check's, in its order.
    package var notes: [String]
    /// Warnings for standard error: what the file allows and should not (a plaintext API).
    package var warnings: [String] = []

    /// The report of `configuration`, read from `file`, with what was found on this machine.
    /// `headerChip` says which chip offsets without `chip:` mean (the 40-pin header's, `ChipInventory.header`:
    /// asked only when a line is such an offset); `nil` on a machine without GPIO chips, where such
    /// offsets are said to be on "the 40-pin header's chip" of the machine that runs them.
    package init(_ configuration: ServiceConfiguration, file: String, machine: MachineFindings, headerChip: () -> HeaderChipChoice?) {
        let roster = configuration.roster
        let header = roster.pins.contains { $0.settings.chip == nil && Int($0.settings.line) != nil } ? headerChip() : nil
        let places = Places(roster: roster, found: machine.lines, header: header)
        lines = [Self.summary(configuration, file: file)]
        if let mqtt = configuration.mqtt {
            let discovery = switch mqtt.discovery {
            case .off: "no discovery"
            case .prefix(let prefix): "Home Assistant discovery under \(prefix)/"
            }
            lines.append("  mqtt: \(mqtt.url) as \(mqtt.clientID), topics under \(mqtt.base)/, QoS \(mqtt.qos), \(discovery), queue \(mqtt.queueLimit)")
        }
        if configuration.socket != EventSocketSettings() { lines.append(Self.socketLine(configuration.socket)) }
        if let api = configuration.api { lines.append(Self.apiLine(api)) }
        lines += InputKinds.checkLines(of: roster, places: places, publishes: configuration.mqtt != nil)
        notes = machine.notes
        if configuration.api?.encryption == ESPHomeAPISettings.Encryption.none {
            warnings.append(
                "api: encryption: none: every machine on the network can read the inputs and pretend to be this device; "
                    + "give it a key (`encryption: {key: …}`, `openssl rand -base64 32`) unless every machine on the network is trusted")
        }
    }

    /// The `api:` section: the device Home Assistant adds, on which port, and how it is secured.
    static func apiLine(_ api: ESPHomeAPISettings) -> String {
        let name = api.name ?? "\(api.deviceName(hostname: Hostname.current)) (this machine's name)"
        let friendly = api.friendlyName.map { " (\($0))" } ?? ""
        let encryption = switch api.encryption {
        case .none: "plaintext"
        case .key: "encrypted (Noise_NNpsk0_25519_ChaChaPoly_SHA256) with the key written here"
        case .keyFile(let path): "encrypted (Noise_NNpsk0_25519_ChaChaPoly_SHA256) with the key in \(path)"
        }
        return "  api: ESPHome's native API on port \(api.port) as the device \(name)\(friendly), \(encryption)"
    }

    /// The `socket:` section, when the file has one: where other programs read the inputs and who may,
    /// or that no program can (`enabled: false`).
    static func socketLine(_ socket: EventSocketSettings) -> String {
        guard socket.enabled else { return "  socket: none (enabled: false): no other program can read the inputs" }
        let group = socket.group ?? "\(EventSocketSettings.packageGroup) where it exists, else the daemon's own"
        let mode = String(socket.mode, radix: 8)
        return "  socket: \(socket.path), mode \(mode.count < 4 ? String(repeating: "0", count: 4 - mode.count) + mode : mode), group \(group); "
            + "control socket \(EventSocketSettings.controlPath(beside: socket.path)), mode 0600"
    }

    /// `FILE: OK: 2 button(s), 1 encoder(s), 0 group(s), 3 action(s), 2 key binding(s) on the keyboard "…"`:
    /// the inputs of each kind there are (buttons always), the groups, and from the plan `run` makes,
    /// the actions and the keys the keyboard types (a button's, an encoder's, a scanned matrix's `key_map:`).
    static func summary(_ configuration: ServiceConfiguration, file: String) -> String {
        let plan = DaemonPlan(configuration)
        let keyCount = plan.keyBindings.count
        let autorepeat = configuration.keyboard.autorepeat ? " (kernel autorepeat)" : ""
        let keyboard = keyCount == 0 ? "" : ", \(keyCount) key binding(s) on the keyboard \"\(configuration.keyboard.name)\"\(autorepeat)"
        let kinds = InputKindID.all.compactMap { kind -> String? in
            let count = configuration.roster.inputIndices(of: kind).count
            return count > 0 || kind == .button ? "\(count) \(kind.noun)(s), " : nil
        }
        return "\(file): OK: \(kinds.joined())\(configuration.groups.count) group(s), \(plan.actions.count) action(s)\(keyboard)"
    }

    /// Where each line is, as the report says it: its chip and line, as found on this machine when
    /// they were. Offsets without `chip:` mean the 40-pin header's chip of the machine that runs them,
    /// named with why it is that chip ("gpiochip4 (the 40-pin header's chip, label pinctrl-rp1)").
    struct Places: CheckedPlaces {
        let roster: Roster
        let found: [MachineFindings.Line]?
        let header: HeaderChipChoice?

        /// The chip of offsets without `chip:` where this machine has no chip to say which it is.
        static let unknownHeaderChip = "the 40-pin header's chip"

        /// Where pin line `id` is.
        func callAsFunction(_ id: LineID) -> String {
            guard let wanted = roster[id].settings else { return roster.label(of: id) }
            return place(wanted, found: found?[id.index])
        }

        /// The chip and the line of the `index`-th of `roster.pins`, `wanted` its settings, apart: a
        /// matrix's rows and columns name their chip once for all of them.
        func callAsFunction(pin index: Int, _ wanted: LineSettings) -> (chip: String, line: String) {
            parts(wanted, found: found.flatMap { $0.indices.contains(index) ? $0[index] : nil })
        }

        func place(of id: LineID) -> String { self(id) }

        func found(_ id: LineID) -> (chip: String, offset: Int)? {
            guard let found, found.indices.contains(id.index) else { return nil }
            return (found[id.index].chipName, found[id.index].offset)
        }

        func pin(_ index: Int, _ settings: LineSettings) -> (chip: String, line: String) { self(pin: index, settings) }

        private func place(_ wanted: LineSettings, found line: MachineFindings.Line?) -> String {
            let (chip, line) = parts(wanted, found: line)
            return "\(chip) line \(line)"
        }

        private func parts(_ wanted: LineSettings, found line: MachineFindings.Line?) -> (chip: String, line: String) {
            let onHeader = wanted.chip == nil && Int(wanted.line) != nil
            guard let line else {
                return (wanted.chip ?? (onHeader ? header?.description ?? Self.unknownHeaderChip : "the chip that has"), wanted.line)
            }
            let chip = onHeader && header?.chip == line.chipName ? header?.description ?? line.chipName : line.chipName
            return (chip, "\(wanted.line)\(wanted.line == String(line.offset) ? "" : " (offset \(line.offset))")")
        }
    }
}
