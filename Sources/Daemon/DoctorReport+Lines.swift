import ConfigurationFile
import GPIODBackend
import Settings

extension DoctorReport {
    /// A line to look at: who wants it, and its chip, line, bias and kernel debouncing.
    struct WantedLine {
        var label: String
        var settings: LineSettings
    }

    /// Each line of the configuration and of the command line: it exists, its direction, who holds it
    /// when busy, and whether the kernel can set its bias and debouncing. Then two owners of one line.
    static func lines(_ inputs: DoctorInputs) -> [DoctorFinding] {
        var wanted: [WantedLine] = []
        if let configuration = inputs.configuration {
            let roster = configuration.roster
            wanted += roster.pins.map { WantedLine(label: $0.label, settings: $0.settings) }
        }
        wanted += inputs.lines.map { WantedLine(label: $0, settings: LineSettings(chip: inputs.lineChip, line: $0, bias: .asIs)) }
        guard !wanted.isEmpty else { return [] }
        guard !inputs.chips.isEmpty else {
            return [.warning("line", "\(wanted.count) line(s) not checked: this machine has no GPIO chip", toDo: "run doctor on the machine with the pins")]
        }
        var findings = wanted.map { line(inputs, $0) }
        if let configuration = inputs.configuration, let shared = sharedLine(configuration, chips: inputs.chips) {
            findings.append(.blocker("line", shared.description, toDo: "give one of them another line or chip:", .machine(shared)))
        }
        return findings
    }

    /// One line's finding.
    static func line(_ inputs: DoctorInputs, _ wanted: WantedLine) -> DoctorFinding {
        let settings = wanted.settings
        let named = "'\(wanted.label)' (\(settings.chip.map { "chip \($0), " } ?? "")line \(settings.line))"
        let found: (chip: ChipDescription, offsets: [Int])
        do {
            found = try inputs.chips.resolve(chip: settings.chip, lines: [settings.line])
        } catch {
            return .blocker("line", "\(named): \(error.description)", toDo: "name a line that exists (gpio-debounce list shows them)", .gpio(error))
        }
        let chip = found.chip, offset = found.offsets[0]
        let place = "\(named): \(chip.name) offset \(offset)"
        if let error = chip.unreadableLines[offset] {
            return .warning("line", "\(place): its info could not be read: \(error.description)", toDo: "check the chip; run finds out when it requests the line")
        }
        let info = chip.lines[offset]
        let lineName = info.name.isEmpty ? "" : " (\(info.name))"
        if info.isUsed {
            let holder = info.consumer.isEmpty ? "a program or driver that gave no name" : "'\(info.consumer)'"
            let toDo = info.consumer == "gpio-debounce"
                ? "another gpio-debounce holds it: stop it (sudo systemctl stop gpio-debounce, or end the watch or run that has it)"
                : info.consumer.isEmpty
                    ? "find what holds it (a driver or device-tree overlay claiming the pin: check /boot/firmware/config.txt) and free it"
                    : "stop \(holder) (pgrep -a \(info.consumer.split(separator: " ").first ?? "") finds a program; a driver or overlay of that name is removed from config.txt)"
            return .blocker("line", "\(place)\(lineName) is in use by \(holder)", toDo: toDo, .gpio(.lineBusy(chip: chip.name, offset: offset, consumer: info.consumer)))
        }
        let bias = settings.bias
        if bias != .asIs, kernel(inputs.kernelRelease, atLeast: 5, 5) == false {
            return .blocker(
                "line", "\(place)\(lineName): bias \(bias.rawValue) is configured and Linux \(inputs.kernelRelease) cannot set bias (5.5 and later can)",
                toDo: "set bias: as-is with an external pull resistor, or update the kernel", .gpio(.biasUnsupported(chip: chip.name, bias: bias.rawValue)))
        }
        if settings.kernelDebounceNs > 0, inputs.libgpiodAPIMajor < 2 || kernel(inputs.kernelRelease, atLeast: 5, 10) == false {
            let reason = inputs.libgpiodAPIMajor < 2 ? "this build uses \(inputs.libgpiod)" : "Linux \(inputs.kernelRelease) is older than 5.10"
            return .blocker(
                "line", "\(place)\(lineName): kernel_debounce is configured and \(reason)", toDo: "remove kernel_debounce: (software debouncing still works), or update",
                .gpio(.kernelDebounceUnsupported(reason: reason)))
        }
        let direction = info.isOutput ? "an output" : "an input"
        let biasNote = bias == .asIs ? "bias left as it is" : "run sets bias \(bias.rawValue) (its present bias is not read here)"
        if info.isOutput {
            return .warning(
                "line", "\(place)\(lineName): free, set as an output; \(biasNote)",
                toDo: "run requests it as an input: make sure nothing else drives the pin")
        }
        return .ok("line", "\(place)\(lineName): free, \(direction); \(biasNote)")
    }

    /// Two owners that resolve to one line (`MachineCheck.locateLines`, on the chips as read), or nil;
    /// lines that do not resolve are left to their own findings.
    static func sharedLine(_ configuration: ServiceConfiguration, chips: ChipInventory) -> MachineCheck.Failure? {
        do {
            _ = try MachineCheck.locateLines(configuration) { wanted throws(GPIOError) in
                let (chip, offsets) = try chips.resolve(chip: wanted.chip, lines: [wanted.line])
                return MachineCheck.Located(place: (), chipName: chip.name, offset: offsets[0])
            }
            return nil
        } catch {
            if case .sharedLine = error { return error }
            return nil
        }
    }
}
