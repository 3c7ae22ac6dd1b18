import ConfigurationFile
import Inputs
import GPIODBackend

/// What `gpio-debounce doctor` says stands between this machine and a working `run`: findings in
/// order (the kernel and libgpiod, the chips and the header's choice, permissions, each line, the
/// virtual keyboard, the MQTT broker, the ESPHome device's mDNS advertisement, the state directory), each with what to do. A value built from
/// `DoctorInputs` apart from its printing, so that tests give the machine.
///
/// `run` would start when no finding is a blocker; otherwise `doctor` exits with the exit code of
/// the first blocker's failure, the code `run` would stop with.
package struct DoctorReport {
    package var findings: [DoctorFinding]

    /// The first finding that keeps `run` from starting, if any.
    package var firstBlocker: DoctorFinding? { findings.first { $0.severity == .blocker } }

    package init(_ inputs: DoctorInputs) {
        findings = Self.kernel(inputs)
        findings += Self.chips(inputs)
        findings += Self.permissions(inputs)
        findings += Self.lines(inputs)
        findings += Self.keyboard(inputs)
        findings += Self.mqtt(inputs)
        findings += Self.advertisement(inputs)
        findings += Self.state(inputs)
        findings += Self.eventSocket(inputs)
    }

    /// Whether `run` makes a virtual keyboard for `configuration`: its plan binds keys (a button's, an
    /// encoder's keys or axis, a scanned matrix's `key_map:`), as `run` decides it.
    package static func needsKeyboard(_ configuration: ServiceConfiguration) -> Bool {
        !DaemonPlan(configuration).keyBindings.isEmpty
    }

    /// The kernel's version from `uname -r` (`6.6.51+rpt-rpi-v8` → 6, 6), or nil.
    static func kernelVersion(_ release: String) -> (major: Int, minor: Int)? {
        let parts = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard parts.count == 2, release.first?.isNumber == true else { return nil }
        return (parts[0], parts[1])
    }

    /// Whether the kernel is at least `major.minor`; nil when its version could not be read.
    static func kernel(_ release: String, atLeast major: Int, _ minor: Int) -> Bool? {
        kernelVersion(release).map { $0.major > major || ($0.major == major && $0.minor >= minor) }
    }

    /// The kernel (the GPIO uAPI v2 came with Linux 5.10, bias settings with 5.5) and libgpiod.
    static func kernel(_ inputs: DoctorInputs) -> [DoctorFinding] {
        let release = inputs.kernelRelease
        var findings: [DoctorFinding] = []
        switch kernel(release, atLeast: 5, 10) {
        case true?:
            findings.append(.ok("kernel", "Linux \(release) is 5.10 or later: the GPIO uAPI v2 with kernel debouncing, and bias settings, came with 5.10 and 5.5"))
        case false?:
            let bias = kernel(release, atLeast: 5, 5) == true ? "bias settings work (5.5 and later)" : "no bias settings either (they need 5.5)"
            findings.append(.warning(
                "kernel", "Linux \(release): older than 5.10, so no GPIO uAPI v2 and no kernel debouncing; \(bias)",
                toDo: "update the kernel for kernel debouncing (kernel_debounce:); software debouncing works without it"))
        case nil:
            findings.append(.warning("kernel", "kernel release '\(release)': its version could not be read", toDo: "check that it is Linux 5.10 or later (uname -r)"))
        }
        if inputs.libgpiodAPIMajor >= 2 {
            findings.append(.ok("libgpiod", "\(inputs.libgpiod): uses the uAPI v2"))
        } else {
            findings.append(.ok("libgpiod", "\(inputs.libgpiod): uses the uAPI v1, without kernel debouncing (a build with libgpiod 2 has it)"))
        }
        return findings
    }

    /// Each chip device of /dev, and which chip offsets alone mean.
    static func chips(_ inputs: DoctorInputs) -> [DoctorFinding] {
        let chips = inputs.chips
        guard !chips.isEmpty else {
            return [.blocker(
                "chips", "no GPIO chip: there is no /dev/gpiochip* on this machine",
                toDo: "run gpio-debounce on the machine with the pins; on a board with GPIO, load its driver or device-tree overlay (ls /dev/gpiochip*); without hardware, try `gpio-debounce run --simulate --config FILE`",
                .gpio(.noSuchChip(HeaderChip.fallback, available: [])))]
        }
        var findings: [DoctorFinding] = chips.entries.map { entry in
            switch entry {
            case .chip(let chip):
                return .ok("chips", "\(chip.path): \(chip.nameAndLabel), \(chip.lineCount) lines")
            case .unopenable(let path, let error):
                if case .permissionDenied = error {
                    return .blocker("chips", "\(path): permission denied", toDo: permissionAdvice(inputs), .gpio(error))
                }
                return .warning("chips", "\(path): cannot be opened: \(error.description)", toDo: "check the device (ls -l \(path)); lines of other chips are not affected")
            }
        }
        let header = chips.header
        if header.isHeader {
            findings.append(.ok("header", "offsets alone (line: 17 without chip:) mean \(header.description)"))
        } else {
            findings.append(.warning(
                "header", "offsets alone (line: 17 without chip:) mean \(header.description)",
                toDo: "on a board other than a Raspberry Pi, give each line its chip: (see gpio-debounce list)"))
        }
        return findings
    }

    /// Who may open the chips: root, or the `gpio` group with the udev rule.
    static func permissions(_ inputs: DoctorInputs) -> [DoctorFinding] {
        let user = inputs.user
        if user.isRoot { return [.ok("permissions", "running as root: file permissions do not stop it (when the service runs as another user, check as that user)")] }
        let inGroup = user.groups.contains("gpio")
        let rule = inputs.udevRules.first.map { "the udev rule is in \($0)" } ?? "no udev rule giving the gpio group the chips was found"
        let found = "user \(user.name) is \(inGroup ? "" : "not ")in the gpio group; \(rule)"
        let denied = inputs.chips.entries.contains { if case .unopenable(_, .permissionDenied) = $0 { true } else { false } }
        if denied { return [.warning("permissions", found, toDo: permissionAdvice(inputs))] }
        if inputs.chips.isEmpty { return [.ok("permissions", found)] }
        return [.ok("permissions", found + "; the chips opened for this user (when the service runs as another user, give it the same)")]
    }

    /// What to do about a chip this user may not open.
    static func permissionAdvice(_ inputs: DoctorInputs) -> String {
        var steps: [String] = []
        if inputs.udevRules.isEmpty {
            steps.append("install the udev rule: sudo cp udev/60-gpio-debounce.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=gpio")
        }
        if !inputs.user.groups.contains("gpio") {
            steps.append("add the user to the gpio group: sudo groupadd -f gpio && sudo usermod -aG gpio \(inputs.user.name), then log in again")
        }
        if steps.isEmpty { steps.append("the rule is installed and the user is in the gpio group: reload the rules (sudo udevadm trigger --subsystem-match=gpio) and check ls -l /dev/gpiochip*") }
        return steps.joined(separator: "; ")
    }
}
