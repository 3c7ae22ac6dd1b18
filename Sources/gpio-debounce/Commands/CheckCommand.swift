#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import ConfigurationFile
import DebounceCore
import EventOutput
import GPIODBackend
import Sinks

/// Reads and checks a configuration file, exiting 65 with the file, line and key of any mistake (66 when
/// the file cannot be opened or read), and warning on stderr of keys in an old spelling. Programs of
/// `run:` actions are looked up on this process's PATH.
func loadConfiguration(_ path: String) throws -> ServiceConfiguration {
    let bytes = try readConfigurationFile(path)
    do {
        let configuration = try ConfigurationLoader.load(bytes: bytes, file: path, programs: .environment)
        for deprecation in configuration.deprecations { printToStandardError("gpio-debounce: warning: \(deprecation)") }
        return configuration
    } catch {
        throw failure(error.description, ExitStatus.badData)
    }
}

/// The file's bytes, at most one more than `ConfigurationLoader.maximumBytes` (so that a larger file,
/// or an endless one like /dev/zero, is refused without reading it all).
private func readConfigurationFile(_ path: String) throws -> [UInt8] {
    func cannot(_ what: String, _ code: Int32) -> ExitCode {
        let reason = switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied (it must be readable by the user running gpio-debounce)"
        case ENOTDIR: "a part of the path is not a directory"
        case EISDIR: "it is a directory, not a file: give the YAML file, e.g. \(path)/buttons.yaml"
        default: String(cString: strerror(code))
        }
        return failure("cannot \(what) the configuration '\(path)': \(reason)", ExitStatus.cannotOpenInput)
    }
    guard !path.isEmpty else { throw failure("--config needs a file name", ExitStatus.cannotOpenInput) }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { throw cannot("open", errno) }
    defer { close(descriptor) }
    var info = stat()
    if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { throw cannot("read", EISDIR) }
    let limit = ConfigurationLoader.maximumBytes + 1
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while bytes.count < limit {
        let wanted = min(chunk.count, limit - bytes.count)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
        if count < 0 {
            if errno == EINTR { continue }
            throw cannot("read", errno)
        }
        if count == 0 { break }
        bytes += chunk[0..<count]
    }
    return bytes
}

/// `gpio-debounce check --config FILE`.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check a configuration file for `run` and say what it sets up.")

    @Option(help: ArgumentHelp("The YAML configuration file.", valueName: "file"))
    var config: String

    func run() throws {
        let configuration = try loadConfiguration(config)
        let notes = try checkOnThisMachine(configuration)
        let keyCount = configuration.buttons.reduce(0) { $0 + $1.keys.count } + configuration.encoders.count { $0.keys != nil || $0.axis != nil }
        let keyboard = keyCount == 0 ? "" : ", \(keyCount) key binding(s) on the keyboard \"\(configuration.keyboard.name)\"\(configuration.keyboard.autorepeat ? " (kernel autorepeat)" : "")"
        let encoders = configuration.encoders.isEmpty ? "" : "\(configuration.encoders.count) encoder(s), "
        let sensors = configuration.sensors.isEmpty ? "" : "\(configuration.sensors.count) sensor(s), "
        let counters = configuration.counters.isEmpty ? "" : "\(configuration.counters.count) counter(s), "
        let buttonActions: Int = configuration.buttons.reduce(0) { $0 + $1.actions.count }
        let encoderActions: Int = configuration.encoders.reduce(0) { $0 + $1.actions.count }
        let sensorActions: Int = configuration.sensors.reduce(0) { $0 + $1.actions.count }
        let actions = buttonActions + encoderActions + sensorActions
        print(TerminalText.escaped("\(config): OK: \(configuration.buttons.count) button(s), \(encoders)\(sensors)\(counters)\(configuration.groups.count) group(s), \(actions) action(s)\(keyboard)"))
        if let mqtt = configuration.mqtt {
            let discovery = switch mqtt.discovery {
            case .off: "no discovery"
            case .prefix(let prefix): "Home Assistant discovery under \(prefix)/"
            }
            print(TerminalText.escaped("  mqtt: \(mqtt.url) as \(mqtt.clientID), topics under \(mqtt.base)/, QoS \(mqtt.qos), \(discovery), queue \(mqtt.queueLimit)"))
        }
        // Offsets without `chip:` mean the 40-pin header's chip of the machine that runs them.
        // Named with why it is that chip ("gpiochip4 (the 40-pin header's chip, label pinctrl-rp1)").
        let roster = configuration.roster
        let header = roster.lines.contains { $0.settings.chip == nil && Int($0.settings.line) != nil } ? LineLocator.headerChip() : nil
        /// Where line `id` is: its chip and line, as found on this machine when they were.
        func place(_ id: LineID) -> String {
            let wanted = roster[id].settings
            let onHeader = wanted.chip == nil && Int(wanted.line) != nil
            guard let line = notes.lines?[id.index] else {
                return "\(wanted.chip ?? (onHeader ? header?.description ?? HeaderChip.fallback : "the chip that has")) line \(wanted.line)"
            }
            let chip = onHeader && header?.chip == line.chipName ? header?.description ?? line.chipName : line.chipName
            return "\(chip) line \(wanted.line)\(wanted.line == String(line.offset) ? "" : " (offset \(line.offset))")"
        }
        for (button, line) in roster.buttons {
            let place = place(line)
            var gestures: [String] = []
            if let hold = button.gestures.holdNs { gestures.append("hold \(DurationSyntax.format(hold))") }
            if let interval = button.gestures.repeatIntervalNs { gestures.append("repeat every \(DurationSyntax.format(interval))") }
            if let window = button.gestures.clickWindowNs { gestures.append("clicks within \(DurationSyntax.format(window)) (\(button.gestures.clickPolicy.rawValue))") }
            if let throttle = button.gestures.throttleNs { gestures.append("throttle \(DurationSyntax.format(throttle))") }
            if let group = button.group { gestures.append("group \(group)") }
            print(TerminalText.escaped("  \(button.name): \(place), bias \(button.bias.rawValue), press \(button.debounce.press), release \(button.debounce.release)\(gestures.isEmpty ? "" : "; " + gestures.joined(separator: ", "))"))
            for action in button.actions {
                print(TerminalText.escaped("    on \(action.on.rawValue)\(action.count.map { " \($0)" } ?? ""): \(action.action.arguments.joined(separator: " "))"))
            }
            for keys in button.keys {
                let names = keys.keys.map { KeyCode.name(of: $0) ?? "\($0)" }.joined(separator: "+")
                print(TerminalText.escaped("    on \(keys.on.rawValue)\(keys.count.map { " \($0)" } ?? ""): \(keys.isHeld ? "\(names) down until the release" : "tap \(names)")"))
            }
        }
        for (encoder, lineA, lineB) in roster.encoders {
            let located = notes.lines.map { ($0[lineA.index], $0[lineB.index]) }
            let place = located.map { "\($0.0.chipName) lines \($0.0.offset) (A), \($0.1.offset) (B)" }
                ?? "\(encoder.chip.map { "\($0) " } ?? "")lines \(encoder.lineA) (A), \(encoder.lineB) (B)"
            var details = ["\(encoder.configuration.stepsPerDetent.rawValue) steps per detent"]
            if encoder.configuration.reverse { details.append("reversed") }
            if let range = encoder.configuration.range {
                details.append("position \(range.lowerBound == Int.min ? "" : String(range.lowerBound))...\(range.upperBound == Int.max ? "" : String(range.upperBound))\(encoder.configuration.wraps ? " wrapping" : "")")
            }
            if let acceleration = encoder.configuration.acceleration {
                details.append("×\(acceleration.factor) from \(EventWriter.decimal(acceleration.thresholdPerSecond))/s")
            }
            print(TerminalText.escaped("  \(encoder.name): encoder on \(place), bias \(encoder.bias.rawValue), \(details.joined(separator: ", "))"))
            if let keys = encoder.keys {
                let names = { (codes: [UInt16]) in codes.map { KeyCode.name(of: $0) ?? "\($0)" }.joined(separator: "+") }
                print(TerminalText.escaped("    each detent taps \(names(keys.clockwise)) (cw) or \(names(keys.counterClockwise)) (ccw)"))
            }
            for action in encoder.actions {
                print(TerminalText.escaped("    on \(action.on.rawValue) (\(action.action.policy == .coalesce ? "coalesced" : "\(action.action.policy)")): \(action.action.arguments.joined(separator: " "))"))
            }
            if let axis = encoder.axis {
                print("    each detent moves \(EncoderSettings.axisName(axis)) by one notch (up clockwise)")
            }
        }
        for (sensor, line) in roster.sensors {
            let on = sensor.debounce.activeLevel == .activeHigh ? "on when high" : "on when low (inverted)"
            var details = ["debounce \(sensor.debounce.press)", on]
            if sensor.contact.onDelayNs > 0 { details.append("on after \(DurationSyntax.format(sensor.contact.onDelayNs))") }
            if sensor.contact.offDelayNs > 0 { details.append("off after \(DurationSyntax.format(sensor.contact.offDelayNs))") }
            if sensor.kernelDebounceNs > 0 { details.append("kernel debounce \(DurationSyntax.format(sensor.kernelDebounceNs))") }
            if let deviceClass = sensor.deviceClass { details.append("device class \(deviceClass)") }
            print(TerminalText.escaped("  \(sensor.name): sensor on \(place(line)), bias \(sensor.bias.rawValue), \(details.joined(separator: ", "))"))
            for action in sensor.actions {
                print(TerminalText.escaped("    on \(action.on.rawValue): \(action.action.arguments.joined(separator: " "))"))
            }
        }
        for (counter, line) in roster.counters {
            let active = counter.debounce.activeLevel == .activeLow ? "low" : "high"
            var details = ["debounce \(counter.debounce.press)", "a pulse when \(active)"]
            if counter.kernelDebounceNs > 0 { details.append("kernel debounce \(DurationSyntax.format(counter.kernelDebounceNs))") }
            let perUnit = counter.perUnit == counter.perUnit.rounded() ? String(Int64(counter.perUnit)) : "\(counter.perUnit)"
            details.append("\(perUnit) pulse(s) per \(counter.unit ?? "unit")")
            if let deviceClass = counter.deviceClass { details.append("device class \(deviceClass)") }
            details.append("state file written at most every \(DurationSyntax.format(counter.flushIntervalNs))")
            if configuration.mqtt != nil { details.append("published at most every \(DurationSyntax.format(counter.publishIntervalNs))") }
            print(TerminalText.escaped("  \(counter.name): counter on \(place(line)), bias \(counter.bias.rawValue), \(details.joined(separator: ", "))"))
        }
        for note in notes.messages { printToStandardError("gpio-debounce: note: \(note)") }
    }

    /// What `run` checks on this machine (`MachineCheck`), refused as `run` refuses it, except what
    /// depends on who runs it, which becomes a note: `check` may run as another user than the service
    /// (a password file or chip it may not read) and without the service's environment
    /// (`password_env`). A machine without GPIO chips is not where the configuration runs (it is
    /// being written or reviewed elsewhere): its lines are not resolved, and the files it names for
    /// the service's machine (MQTT password and CA files) are noted, not refused.
    private func checkOnThisMachine(_ configuration: ServiceConfiguration) throws -> (lines: [MachineCheck.Located<GPIOChip>]?, messages: [String]) {
        var messages: [String] = []
        let hasChips = !GPIOChip.availablePaths().isEmpty
        do {
            try MachineCheck.readMQTTFiles(configuration)
        } catch {
            if Self.dependsOnUser(error) {
                messages.append("\(error.description); not refused here, since the service may run as another user or with another environment: make sure it can")
            } else if !hasChips {
                messages.append("\(error.description); not refused on a machine without GPIO chips, but run refuses to start (exit \(ExitStatus.of(error).rawValue)) until it is there")
            } else {
                throw failure(error.description, ExitStatus.of(error))
            }
        }
        guard hasChips else {
            messages.append("line names and chips were not resolved: this machine has no GPIO chip (run resolves them, and refuses two buttons on one line, when it starts)")
            return (nil, messages)
        }
        do {
            return (try MachineCheck.locateLinesOnThisMachine(configuration), messages)
        } catch {
            guard Self.dependsOnUser(error) else { throw failure("\(error.description) (on this machine's chips)", ExitStatus.of(error)) }
            messages.append("line names and chips were not resolved: \(error.description)")
            return (nil, messages)
        }
    }

    private static func dependsOnUser(_ failure: MachineCheck.Failure) -> Bool {
        switch failure {
        case .mqtt(.passwordEnvironment), .line(_, .permissionDenied): true
        case .mqtt(.passwordFile(_, _, let code)), .mqtt(.caFile(_, _, let code)): code == EACCES || code == EPERM
        default: false
        }
    }
}
