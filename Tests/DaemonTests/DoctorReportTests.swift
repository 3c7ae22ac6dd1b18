import ConfigurationFile
import KeptState
import Daemon
import GPIODBackend
import LinuxSys
import ServiceAdvertisement
import Testing

/// `doctor`'s report as a value: findings judged from a faked machine (chips as described, a user, the
/// probes' results), each blocker carrying the failure `run` would stop with.
@Suite struct DoctorReportTests {
    static let user = DoctorInputs.User(name: "pi", isRoot: false, groups: ["pi", "gpio"])
    static let rule = ["/usr/lib/udev/rules.d/60-gpio-debounce.rules"]

    /// A Raspberry Pi 4's header chip, its lines named GPIO0…GPIO27, with `used` lines held.
    static func pi4(used: [Int: String] = [:], outputs: Set<Int> = []) -> ChipInventory {
        let lines = (0..<28).map { offset in
            LineInfo(offset: offset, name: "GPIO\(offset)", consumer: used[offset] ?? "", isUsed: used[offset] != nil, isOutput: outputs.contains(offset))
        }
        return ChipInventory(chips: [ChipDescription(path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2711", lines: lines)])
    }

    static func inputs(
        chips: ChipInventory, yaml: String? = nil, lines: [String] = [], kernel: String = "6.6.51+rpt-rpi-v8", user: DoctorInputs.User = user
    ) throws -> DoctorInputs {
        DoctorInputs(
            kernelRelease: kernel, libgpiod: "libgpiod 2.2.1 (C API v2)", libgpiodAPIMajor: 2, chips: chips,
            configuration: try yaml.map { try ConfigurationLoader.load($0, file: "doctor.yaml") }, lines: lines, user: user, udevRules: rule)
    }

    static func blockers(_ report: DoctorReport) -> [DoctorFinding] { report.findings.filter { $0.severity == .blocker } }

    @Test func aLineHeldByGpiomonIsABlockerNamingItsConsumerAndWhatToDo() throws {
        let report = DoctorReport(try Self.inputs(chips: Self.pi4(used: [17: "gpiomon"]), yaml: "buttons:\n  - {name: bell, line: 17}\n"))
        let blocker = try #require(report.firstBlocker)
        #expect(blocker.topic == "line")
        #expect(blocker.found.contains("'bell'") && blocker.found.contains("gpiochip0 offset 17") && blocker.found.contains("in use by 'gpiomon'"))
        #expect(blocker.toDo.contains("stop 'gpiomon'"))
        guard case .gpio(.lineBusy(chip: "gpiochip0", offset: 17, consumer: "gpiomon"))? = blocker.blocker else {
            Issue.record("expected lineBusy, got \(String(describing: blocker.blocker))")
            return
        }
    }

    @Test func aLineHeldByAnotherGpioDebounceSaysToStopTheService() throws {
        let report = DoctorReport(try Self.inputs(chips: Self.pi4(used: [22: "gpio-debounce"]), lines: ["GPIO22"]))
        let blocker = try #require(report.firstBlocker)
        #expect(blocker.toDo.contains("systemctl stop gpio-debounce"))
    }

    @Test func freeLinesAndAReadableMachineHaveNoBlocker() throws {
        let report = DoctorReport(try Self.inputs(chips: Self.pi4(), yaml: "buttons:\n  - {name: bell, line: 17}\n  - {name: door, line: GPIO27}\n"))
        #expect(report.firstBlocker == nil)
        let lines = report.findings.filter { $0.topic == "line" }
        #expect(lines.count == 2 && lines.allSatisfy { $0.severity == .ok && $0.found.contains("free, an input") })
        #expect(report.findings.contains { $0.topic == "header" && $0.severity == .ok && $0.found.contains("gpiochip0 (the 40-pin header's chip") })
    }

    @Test func noChipsIsTheFirstBlockerAndSaysSo() throws {
        let report = DoctorReport(try Self.inputs(chips: ChipInventory(entries: []), yaml: "buttons:\n  - {name: bell, line: 17}\n"))
        let blocker = try #require(report.firstBlocker)
        #expect(blocker.topic == "chips")
        #expect(blocker.found == "no GPIO chip: there is no /dev/gpiochip* on this machine")
        #expect(blocker.toDo.contains("--simulate"))
        guard case .gpio(.noSuchChip)? = blocker.blocker else {
            Issue.record("expected noSuchChip (exit 66), got \(String(describing: blocker.blocker))")
            return
        }
        #expect(report.findings.contains { $0.topic == "line" && $0.severity == .warning && $0.found.contains("not checked") })
    }

    @Test func keysWithoutUInputAreABlockerAndWithoutKeysUInputIsNotLookedAt() throws {
        var inputs = try Self.inputs(chips: Self.pi4(), yaml: "buttons:\n  - {name: next, line: 17, key: KEY_NEXTSONG}\n")
        inputs.uinput = .failed(.missing(path: "/dev/uinput"))
        let blocker = try #require(DoctorReport(inputs).firstBlocker)
        #expect(blocker.topic == "uinput" && blocker.toDo.contains("modprobe uinput"))
        guard case .keyboard(.missing)? = blocker.blocker else {
            Issue.record("expected the keyboard's missing (exit 69), got \(String(describing: blocker.blocker))")
            return
        }
        inputs.uinput = .opened
        #expect(DoctorReport(inputs).firstBlocker == nil)
        let noKeys = try Self.inputs(chips: Self.pi4(), yaml: "buttons:\n  - {name: bell, line: 17}\n")
        #expect(!DoctorReport(noKeys).findings.contains { $0.topic == "uinput" })
    }

    /// Every input that types asks for the keyboard, as `run` makes it: a button's key, an encoder's
    /// keys or axis, a keypad's `key_map:` (a keypad without one types nothing).
    @Test func everyInputThatTypesNeedsTheKeyboard() throws {
        let load = { (yaml: String) in try ConfigurationLoader.load(yaml, file: "doctor.yaml") }
        #expect(DoctorReport.needsKeyboard(try load("buttons:\n  - {name: next, line: 17, key: KEY_NEXTSONG}\n")))
        #expect(DoctorReport.needsKeyboard(try load("encoders:\n  - {name: scroll, lines: [5, 6], axis: REL_WHEEL}\n")))
        let keypad = "keypads:\n  - {name: pad, rows: [1, 2, 3, 4], columns: [9, 10, 11, 12]"
        #expect(DoctorReport.needsKeyboard(try load(keypad + ", key_map: default}\n")))
        #expect(!DoctorReport.needsKeyboard(try load(keypad + "}\n")))
        #expect(!DoctorReport.needsKeyboard(try load("buttons:\n  - {name: bell, line: 17}\n")))
    }

    @Test func aDeniedChipIsAPermissionBlockerWithTheGroupAndRuleToInstall() throws {
        let chips = ChipInventory(entries: [.unopenable(path: "/dev/gpiochip0", .permissionDenied(path: "/dev/gpiochip0"))])
        var inputs = try Self.inputs(chips: chips, user: DoctorInputs.User(name: "alice", isRoot: false, groups: ["alice"]))
        inputs.udevRules = []
        let blocker = try #require(DoctorReport(inputs).firstBlocker)
        #expect(blocker.topic == "chips" && blocker.toDo.contains("usermod -aG gpio alice") && blocker.toDo.contains("60-gpio-debounce.rules"))
    }

    @Test func anUnreachableBrokerIsAWarningNotABlockerAndAuthenticationIsNotClaimed() throws {
        var inputs = try Self.inputs(chips: Self.pi4(), yaml: "mqtt: {url: mqtt://broker.lan}\nbuttons:\n  - {name: bell, line: 17}\n")
        inputs.broker = .unreachable(reason: "192.0.2.7: Connection refused")
        let report = DoctorReport(inputs)
        #expect(report.firstBlocker == nil)
        #expect(report.findings.contains { $0.topic == "mqtt" && $0.severity == .warning && $0.toDo.contains("retries") })
        inputs.broker = .reachable(address: "192.0.2.7")
        let reachable = try #require(DoctorReport(inputs).findings.first { $0.topic == "mqtt" })
        #expect(reachable.severity == .ok && reachable.found.contains("authentication and TLS are not checked"))
    }

    @Test func theDevicesAdvertisementSaysWhetherHomeAssistantFindsItAndElseHowToAddIt() throws {
        var inputs = try Self.inputs(chips: Self.pi4(), yaml: "api: {encryption: none}\nbuttons:\n  - {name: bell, line: 17}\n")
        func finding(_ outcome: MDNSServiceProbe.Outcome) -> DoctorFinding? {
            inputs.advertisement = DoctorInputs.AdvertisementProbe(hostName: "hall-pi", deviceName: "hall-pi", service: "hall-pi._esphomelib._tcp", outcome: outcome)
            return DoctorReport(inputs).findings.first { $0.topic == "mdns" }
        }
        let advertised = try #require(finding(.advertised(byThisMachine: true, avahi: "avahi 0.8")))
        #expect(advertised.severity == .ok && advertised.found.contains("Discovered"))
        let other = try #require(finding(.advertised(byThisMachine: false, avahi: "avahi 0.8")))
        #expect(other.severity == .warning && other.toDo.contains("api: name:"))
        let stopped = try #require(finding(.notAdvertised(avahi: "avahi 0.8")))
        #expect(stopped.severity == .warning && stopped.toDo.contains("systemctl start gpio-debounce"))
        let none = try #require(finding(.noAvahi(reason: "Daemon not running")))
        #expect(none.severity == .warning && none.toDo.contains("sudo apt install avahi-daemon") && none.toDo.contains("host hall-pi.local") && none.toDo.contains("port 6053"))
        #expect(DoctorReport(inputs).firstBlocker == nil)
        inputs.advertisement = nil
        #expect(DoctorReport(inputs).findings.first { $0.topic == "mdns" }?.toDo.contains("run doctor on the machine") == true)
        inputs.configuration = try ConfigurationLoader.load("buttons:\n  - {name: bell, line: 17}\n", file: "doctor.yaml")
        #expect(!DoctorReport(inputs).findings.contains { $0.topic == "mdns" })
    }

    @Test func aStateDirectoryHeldByAnotherRunIsABlocker() throws {
        var inputs = try Self.inputs(chips: Self.pi4(), yaml: "counters:\n  - {name: meter, line: 17}\n")
        inputs.state = .failed(.locked(directory: "/var/lib/gpio-debounce"))
        let blocker = try #require(DoctorReport(inputs).firstBlocker)
        #expect(blocker.topic == "state" && blocker.toDo.contains("--state-dir"))
        inputs.state = .ready(path: "/var/lib/gpio-debounce")
        #expect(DoctorReport(inputs).firstBlocker == nil)
    }

    /// An encoder with `restore: true` keeps state as a counter does: its directory is checked; one
    /// without it keeps none.
    @Test func aRestoredEncoderNeedsTheStateDirectory() throws {
        var inputs = try Self.inputs(chips: Self.pi4(), yaml: "encoders:\n  - {name: volume, lines: [17, 27], restore: true}\n")
        inputs.state = .failed(.locked(directory: "/var/lib/gpio-debounce"))
        #expect(DoctorReport(inputs).firstBlocker?.topic == "state")
        var plain = try Self.inputs(chips: Self.pi4(), yaml: "encoders:\n  - {name: volume, lines: [17, 27]}\n")
        plain.state = .failed(.locked(directory: "/var/lib/gpio-debounce"))
        #expect(!DoctorReport(plain).findings.contains { $0.topic == "state" })
    }

    @Test func anOldKernelBlocksBiasAndTwoOwnersOfOneLineAreABlocker() throws {
        let old = DoctorReport(try Self.inputs(chips: Self.pi4(), yaml: "buttons:\n  - {name: bell, line: 17}\n", kernel: "5.4.83-v7+"))
        let blocker = try #require(old.firstBlocker)
        guard case .gpio(.biasUnsupported)? = blocker.blocker else {
            Issue.record("expected biasUnsupported, got \(String(describing: blocker.blocker))")
            return
        }
        #expect(old.findings.contains { $0.topic == "kernel" && $0.severity == .warning })
        let shared = DoctorReport(try Self.inputs(chips: Self.pi4(), yaml: "buttons:\n  - {name: a, line: 17}\n  - {name: b, line: GPIO17}\n"))
        guard case .machine(.sharedLine)? = shared.firstBlocker?.blocker else {
            Issue.record("expected sharedLine, got \(String(describing: shared.firstBlocker))")
            return
        }
    }

    /// The events socket: a daemon there or not, and whether this user may read it, with the group to join.
    @Test func theSocketSaysWhetherThisUserMayReadItAndWhichGroupToJoin() throws {
        let pi = DoctorInputs.User(name: "pi", isRoot: false, groups: ["pi", "gpio"])
        var inputs = try Self.inputs(chips: Self.pi4(), user: pi)
        func finding(_ outcome: DoctorInputs.SocketProbe.Outcome, group: String? = "gpio-debounce-events") -> DoctorFinding? {
            inputs.socket = DoctorInputs.SocketProbe(path: "/run/gpio-debounce/events.sock", outcome: outcome, group: group)
            return DoctorReport(inputs).findings.first { $0.topic == "socket" }
        }
        let denied = try #require(finding(.denied))
        #expect(denied.severity == .warning)
        #expect(denied.found == "a daemon listens on /run/gpio-debounce/events.sock, and the user pi may not read it: only root and the group gpio-debounce-events may")
        #expect(denied.toDo == "join the group: sudo usermod -aG gpio-debounce-events pi, then log in again")
        #expect(finding(.listening)?.severity == .ok)
        #expect(finding(.notListening)?.found.contains("for the user pi to read it, join the group: sudo usermod -aG gpio-debounce-events pi") == true)
        inputs.user.groups.append("gpio-debounce-events")
        #expect(finding(.notListening)?.found.hasSuffix("for root and the group gpio-debounce-events, the user pi among them") == true)
        #expect(finding(.denied, group: nil)?.toDo == "run as root, or give the socket a group (socket: {group: …})")
        inputs.socket = nil
        #expect(!DoctorReport(inputs).findings.contains { $0.topic == "socket" }, "no socket (enabled: false): nothing said")
    }
}
