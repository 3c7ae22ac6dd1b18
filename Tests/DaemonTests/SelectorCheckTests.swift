import ConfigurationFile
import Daemon
import Testing

/// What `check` says of a selector switch: its chip once, its lines, code, positions and settle time,
/// its actions; the summary counts it.
@Suite struct SelectorCheckTests {
    static let panel = """
        selectors:
          - name: mode
            lines: [5, 6, GPIO13]
            positions: [off, auto, on]
            settle: 30ms
            actions:
              - {on: select, run: [/usr/bin/logger, mode]}
          - {name: address, chip: gpiochip0, lines: [20, 21, 26, 16], code: bcd, active: high, bias: pull-down}
        """

    static func report(found: [CheckReport.MachineFindings.Line]?) throws -> CheckReport {
        let configuration = try ConfigurationLoader.load(panel, file: "panel.yaml")
        return CheckReport(configuration, file: "panel.yaml", machine: .init(lines: found), headerChip: { CheckReportTests.pi5 })
    }

    @Test func linesNotResolvedSayWhereTheyWillBe() throws {
        #expect(try Self.report(found: nil).lines == [
            "panel.yaml: OK: 0 button(s), 2 selector(s), 0 group(s), 1 action(s)",
            "  mode: selector on gpiochip4 (the 40-pin header's chip, label pinctrl-rp1) lines 5, 6, GPIO13, code one_hot (off, auto, on), bias pull-up, active low, settles for 30ms",
            "    on select: /usr/bin/logger mode",
            "  address: selector on gpiochip0 lines 20, 21, 26, 16, code bcd, bias pull-down, active high, settles for 20ms",
        ])
    }

    @Test func linesFoundSayTheirChipAndOffset() throws {
        let found = [("gpiochip4", 5), ("gpiochip4", 6), ("gpiochip4", 13), ("gpiochip0", 20), ("gpiochip0", 21), ("gpiochip0", 26), ("gpiochip0", 16)]
            .map { CheckReport.MachineFindings.Line(chipName: $0.0, offset: $0.1) }
        let lines = try Self.report(found: found).lines
        #expect(lines.contains { $0.hasPrefix("  mode: selector on gpiochip4 (the 40-pin header's chip, label pinctrl-rp1) lines 5, 6, GPIO13 (offset 13), code one_hot") }, "\(lines)")
    }

    /// Names not resolved here: the chip that has them, as a button's line says it.
    @Test func namedLinesNotResolvedSayTheChipThatHasThem() throws {
        let configuration = try ConfigurationLoader.load("selectors: [{name: mode, lines: [GPIO5, GPIO6]}]", file: "m.yaml")
        let lines = CheckReport(configuration, file: "m.yaml", machine: .init(lines: nil), headerChip: { CheckReportTests.pi5 }).lines
        #expect(lines.last == "  mode: selector on the chip that has lines GPIO5, GPIO6, code one_hot, bias pull-up, active low, settles for 20ms")
    }
}
