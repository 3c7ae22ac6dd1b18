import ConfigurationFile
import Daemon
import GPIODBackend
import Testing

/// `check`'s report as a value: the lines it prints for a configuration, with its lines found on a
/// Raspberry Pi 5 or not resolved, and the machine check's notes kept for standard error.
@Suite struct CheckReportTests {
    static let everyKind = """
        keyboard: {name: panel}
        groups:
          screens: {lockout: 300ms}
        buttons:
          - name: bell
            line: 22
            group: screens
            hold: 1s
            clicks: {window: 300ms}
            actions:
              - {on: press, run: [/bin/true, bell]}
              - {on: click, count: 2, key: KEY_NEXTSONG}
        encoders:
          - name: volume
            lines: [17, 27]
            keys: {cw: KEY_VOLUMEUP, ccw: KEY_VOLUMEDOWN}
        sensors:
          - {name: door, chip: gpiochip0, line: GPIO23, on_delay: 2s, device_class: door}
        counters:
          - {name: energy, line: 24, per_unit: 1000, unit: kWh, flush: 10s}
        """

    /// A Raspberry Pi 5's header chip, as `ChipInventory.header` names it there.
    static let pi5 = HeaderChipChoice(chip: "gpiochip4", evidence: .label("pinctrl-rp1"))

    static func report(found: [CheckReport.MachineFindings.Line]?, notes: [String] = []) throws -> CheckReport {
        let configuration = try ConfigurationLoader.load(everyKind, file: "every-kind.yaml")
        return CheckReport(configuration, file: "every-kind.yaml", machine: .init(lines: found, notes: notes), headerChip: { pi5 })
    }

    /// A `socket:` section gets a line: where other programs read the inputs, who may, or none; a
    /// file without one gets none (the service's default socket is in docs/socket.md).
    @Test(arguments: [
        ("socket: {path: /tmp/panel.sock, group: audio, mode: \"0640\"}", "  socket: /tmp/panel.sock, mode 0640, group audio; control socket /tmp/panel-control.sock, mode 0600"),
        ("socket: {mode: \"0666\"}", "  socket: /run/gpio-debounce/events.sock, mode 0666, group gpio-debounce-events where it exists, else the daemon's own; control socket /run/gpio-debounce/control.sock, mode 0600"),
        ("socket: {enabled: false}", "  socket: none (enabled: false): no other program can read the inputs"),
    ])
    func aSocketSectionSaysWhereAndWhoMayRead(section: String, line: String) throws {
        let configuration = try ConfigurationLoader.load("buttons: [{name: bell, line: 22}]\n" + section, file: "s.yaml")
        let report = CheckReport(configuration, file: "s.yaml", machine: .init(lines: nil, notes: []), headerChip: { nil })
        #expect(report.lines.dropFirst().first == line, "\(report.lines)")
        let without = CheckReport(try ConfigurationLoader.load("buttons: [{name: bell, line: 22}]", file: "s.yaml"), file: "s.yaml", machine: .init(lines: nil, notes: []), headerChip: { nil })
        #expect(!without.lines.contains { $0.contains("socket") })
    }

    /// Each binding the keyboard has counts: a button's key, each direction of an encoder's keys.
    @Test func theSummaryCountsEveryKindAndTheKeys() throws {
        let report = try Self.report(found: nil)
        #expect(report.lines.first == "every-kind.yaml: OK: 1 button(s), 1 encoder(s), 1 sensor(s), 1 counter(s), 1 group(s), 1 action(s), 3 key binding(s) on the keyboard \"panel\"")
    }

    /// Not resolved here: offsets without `chip:` are on the header's chip (named with why), a named
    /// line on the chip written.
    @Test func linesNotResolvedSayWhereTheyWillBe() throws {
        let report = try Self.report(found: nil, notes: ["line names and chips were not resolved: no chip"])
        #expect(Array(report.lines.dropFirst()) == [
            "  bell: gpiochip4 (the 40-pin header's chip, label pinctrl-rp1) line 22, bias pull-up, press defer:10ms, release defer:10ms; hold 1s, clicks within 300ms (immediate), group screens",
            "    on press: /bin/true bell",
            "    on click 2: tap KEY_NEXTSONG",
            "  volume: encoder on lines 17 (A), 27 (B), bias pull-up, 4 steps per detent",
            "    each detent taps KEY_VOLUMEUP (cw) or KEY_VOLUMEDOWN (ccw)",
            "  door: sensor on gpiochip0 line GPIO23, bias pull-up, debounce defer:50ms, on when high, on after 2s, device class door",
            "  energy: counter on gpiochip4 (the 40-pin header's chip, label pinctrl-rp1) line 24, bias pull-up, debounce defer:10ms, a pulse when low, 1000 pulse(s) per kWh, state file written at most every 10s, rate in pulses/min, 0 after 5min without a pulse",
        ])
        #expect(report.notes == ["line names and chips were not resolved: no chip"])
    }

    @Test func aOneStepEncoderSaysItsSettle() throws {
        let configuration = try ConfigurationLoader.load("encoders: [{name: dial, lines: [5, 6], steps_per_detent: 1, settle: 3ms}]", file: "dial.yaml")
        let report = CheckReport(configuration, file: "dial.yaml", machine: .init(lines: nil, notes: []), headerChip: { Self.pi5 })
        #expect(report.lines.contains { $0.hasSuffix("1 step per detent, a reversal counts once still for 3ms") }, "\(report.lines)")
    }

    /// Found on this machine: each line's chip and offset as found, a name with its offset.
    @Test func linesFoundSayTheirChipAndOffset() throws {
        let found = [("gpiochip4", 22), ("gpiochip4", 17), ("gpiochip4", 27), ("gpiochip0", 23), ("gpiochip4", 24)]
            .map { CheckReport.MachineFindings.Line(chipName: $0.0, offset: $0.1) }
        let report = try Self.report(found: found)
        #expect(report.lines.contains { $0.hasPrefix("  bell: gpiochip4 (the 40-pin header's chip, label pinctrl-rp1) line 22, bias") })
        #expect(report.lines.contains { $0.hasPrefix("  volume: encoder on gpiochip4 lines 17 (A), 27 (B), bias") })
        #expect(report.lines.contains { $0.hasPrefix("  door: sensor on gpiochip0 line GPIO23 (offset 23), bias") })
        #expect(report.notes.isEmpty)
    }

    /// The header's chip is asked only when some line is an offset without `chip:`.
    @Test func theHeadersChipIsAskedOnlyForOffsetsWithoutChip() throws {
        let configuration = try ConfigurationLoader.load("buttons: [{name: a, chip: gpiochip1, line: 3}]", file: "c.yaml")
        let report = CheckReport(configuration, file: "c.yaml", machine: .init(lines: nil)) {
            Issue.record("asked for the header's chip")
            return Self.pi5
        }
        #expect(report.lines == [
            "c.yaml: OK: 1 button(s), 0 group(s), 0 action(s)",
            "  a: gpiochip1 line 3, bias pull-up, press defer:10ms, release defer:10ms",
        ])
    }

    /// On a machine without GPIO chips there is no header chip to name: offsets are on "the 40-pin
    /// header's chip" of the machine that runs them, not on a first chip that is not there.
    @Test func withoutChipsOffsetsAreOnTheHeadersChipUnnamed() throws {
        let configuration = try ConfigurationLoader.load("buttons: [{name: a, line: 17}]", file: "c.yaml")
        let report = CheckReport(configuration, file: "c.yaml", machine: .init(lines: nil)) { nil }
        #expect(report.lines == [
            "c.yaml: OK: 1 button(s), 0 group(s), 0 action(s)",
            "  a: the 40-pin header's chip line 17, bias pull-up, press defer:10ms, release defer:10ms",
        ])
    }
}
