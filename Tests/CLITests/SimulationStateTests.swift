import Foundation
import Testing

/// A simulation never touches real state: `run --simulate` counts its meters' pulses in a directory of
/// its own, removed at the stop, unless `--state-dir` names one; the totals the service keeps stay as
/// they are.
@Suite struct SimulationStateTests {
    static let arguments = ["run", "--config", "examples/door-and-meter.yaml", "--simulate", "--virtual-time", "--presses", "4", "--format", "json"]

    /// The service's directory (here `$STATE_DIRECTORY`, as systemd sets it) holds a real meter's total.
    @Test func aSimulationLeavesTheServicesTotalsAlone() throws {
        let directory = RecordAnalyzeTests.temporaryPath("-simulation")
        let (state, scratch) = (directory + "/state", directory + "/tmp")
        for path in [state, scratch] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let real = "format 1\nenergy 41000\nwater 120\n"
        try real.write(toFile: state + "/counters", atomically: true, encoding: .utf8)
        for _ in 0..<2 {
            let result = try CLITests.run(Self.arguments, environment: ["STATE_DIRECTORY": state, "TMPDIR": scratch])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("counters: a simulation counts from 0 in \(scratch)/gpio-debounce-simulation."), "\(result.stderr)")
            // Counted from 0, not from the real 41000, both times.
            #expect(result.stdout.contains(#""event":"count","total":1,"#), "\(result.stdout)")
            #expect(!result.stdout.contains("\"total\":4100"))
        }
        #expect(try String(contentsOfFile: state + "/counters", encoding: .utf8) == real)
        #expect(try FileManager.default.contentsOfDirectory(atPath: state) == ["counters"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    }

    /// `--state-dir` given explicitly is where a simulation keeps its totals, as a real run would.
    @Test func anExplicitStateDirectoryKeepsTheSimulationsTotals() throws {
        let directory = RecordAnalyzeTests.temporaryPath("-simulation-kept")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try CLITests.run(Self.arguments + ["--state-dir", directory])
        #expect(result.status == 0, "\(result.stderr)")
        let saved = try String(contentsOfFile: directory + "/counters", encoding: .utf8)
        #expect(saved.contains("\nformat 1\nenergy 4\n"), "\(saved)")
        #expect(!result.stderr.contains("a simulation counts from 0"))
    }
}
