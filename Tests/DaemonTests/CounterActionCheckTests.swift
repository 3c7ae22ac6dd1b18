import ConfigurationFile
import Daemon
import GPIODBackend
import Testing

/// `check` on a counter with actions: counted in the summary, and listed under the counter with their
/// trigger and policy.
@Suite struct CounterActionCheckTests {
    @Test func checkCountsAndListsACountersActions() throws {
        let configuration = try ConfigurationLoader.load(
            """
            counters:
              - name: energy
                line: 24
                actions:
                  - {on: rate, run: [/bin/true, power]}
                  - {on: pulse, run: [/bin/true, pulse], policy: drop}
            """, file: "meter.yaml")
        let report = CheckReport(
            configuration, file: "meter.yaml", machine: .init(lines: nil, notes: []),
            headerChip: { HeaderChipChoice(chip: "gpiochip4", evidence: .label("pinctrl-rp1")) })
        #expect(report.lines.first == "meter.yaml: OK: 0 button(s), 1 counter(s), 0 group(s), 2 action(s)")
        #expect(Array(report.lines.suffix(2)) == ["    on rate (coalesced): /bin/true power", "    on pulse (drop): /bin/true pulse"])
    }
}
