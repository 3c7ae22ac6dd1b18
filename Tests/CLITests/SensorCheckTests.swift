import Foundation
import Testing

/// `check --config` on a file with sensors and counters: it says what it sets up, one line each.
@Suite struct SensorCheckTests {
    @Test func checkListsSensorsAndCounters() throws {
        let path = try ConfigurationMessageTests.file("""
            sensors:
              - {name: front-door, line: 23, on_delay: 2s, device_class: door}
              - {name: hall-motion, line: 25, inverted: true, off_delay: 30s, device_class: motion}
            counters:
              - {name: energy, line: 24, per_unit: 1000, unit: kWh, device_class: energy, flush: 10s}
            """)
        let result = try ConfigurationMessageTests.check(path)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("OK: 0 button(s), 2 sensor(s), 1 counter(s), 0 group(s), 0 action(s)") == true, "\(result.stdout)")
        let door = try #require(lines.first { $0.hasPrefix("  front-door: sensor on ") })
        #expect(door.contains("line 23, bias pull-up, debounce defer:50ms, on when high, on after 2s, device class door"), "\(door)")
        let motion = try #require(lines.first { $0.hasPrefix("  hall-motion: sensor on ") })
        #expect(motion.contains("on when low (inverted), off after 30s, device class motion"), "\(motion)")
        let energy = try #require(lines.first { $0.hasPrefix("  energy: counter on ") })
        #expect(energy.contains("line 24, bias pull-up, debounce defer:10ms, a pulse when low, 1000 pulse(s) per kWh, device class energy, state file written at most every 10s, rate in W, 0 after 5min without a pulse"), "\(energy)")
    }

    @Test func theDoorAndMeterExamplePassesCheck() throws {
        let example = CLITests.root.appendingPathComponent("examples/door-and-meter.yaml").path
        let result = try CLITests.run(["check", "--config", example])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("OK: 0 button(s), 2 sensor(s), 2 counter(s)"), "\(result.stdout)")
        #expect(result.stdout.contains("  water: counter on ") && result.stdout.contains("1000 pulse(s) per m³, device class water"), "\(result.stdout)")
    }

    @Test func aWrongUnitStopsCheckWithWhereAndWhatIsAllowed() throws {
        let path = try ConfigurationMessageTests.file("counters:\n  - {name: water, line: 24, device_class: water, unit: m3}\n")
        let result = try ConfigurationMessageTests.check(path)
        #expect(result.status == 65)
        #expect(result.stderr.contains(":2:56: counters[0].unit: 'm3' is not a unit for `device_class: water` (did you mean m³?); Home Assistant accepts L, gal, m³, ft³, CCF"), "\(result.stderr)")
    }

    /// On a machine without GPIO chips, `check` names no first chip that is not there beside its note
    /// that chips were not resolved.
    @Test func withoutChipsCheckNamesNoChip() throws {
        guard !DoctorCommandTests.hasChips else { return }
        let path = try ConfigurationMessageTests.file("sensors:\n  - {name: front-door, line: 23}\n")
        let result = try ConfigurationMessageTests.check(path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  front-door: sensor on the 40-pin header's chip line 23, bias pull-up"), "\(result.stdout)")
        #expect(!result.stdout.contains("gpiochip0"), "\(result.stdout)")
        #expect(result.stderr.contains("line names and chips were not resolved: this machine has no GPIO chip"), "\(result.stderr)")
    }
}
