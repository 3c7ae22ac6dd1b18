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
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch)
        #expect(left.isEmpty, "left: \(left)")
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

    /// An encoder with `restore: true`: a simulation without `--state-dir` leaves the service's positions
    /// alone; with `--state-dir` the next run starts where this one stopped; a corrupt positions file
    /// is refused with exit 65 and left as it is.
    @Test func aRestoredEncodersPositionIsKeptOnlyWhereAsked() throws {
        let directory = RecordAnalyzeTests.temporaryPath("-simulation-positions")
        let (state, scratch, kept) = (directory + "/state", directory + "/tmp", directory + "/kept")
        for path in [state, scratch, kept] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/knob.yaml"
        try "encoders:\n  - {name: volume, lines: [17, 27], min: -50, max: 50, restore: true}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let real = "format 1\nvolume 42\n"
        try real.write(toFile: state + "/positions", atomically: true, encoding: .utf8)
        let arguments = ["run", "--config", config, "--simulate", "--virtual-time", "--presses", "3", "--format", "json"]
        let simulated = try CLITests.run(arguments, environment: ["STATE_DIRECTORY": state, "TMPDIR": scratch])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        #expect(simulated.stderr.contains("encoders: a simulation keeps its positions in \(scratch)/gpio-debounce-simulation."), "\(simulated.stderr)")
        #expect(!simulated.stdout.contains(#""event":"position""#), "nothing kept: no restored position")
        #expect(try String(contentsOfFile: state + "/positions", encoding: .utf8) == real)
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch)
        #expect(left.isEmpty, "left: \(left)")

        try "format 1\nvolume 9\n".write(toFile: kept + "/positions", atomically: true, encoding: .utf8)
        let first = try CLITests.run(arguments + ["--state-dir", kept])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix(#"{"event":"position","position":9,"time_ns":"#), "\(first.stdout)")
        let saved = try String(contentsOfFile: kept + "/positions", encoding: .utf8)
        let last = try #require(first.stdout.split(separator: "\n").last { $0.contains(#""event":"rotate""#) })
        let position = try #require(last.split(separator: ",").first { $0.hasPrefix(#""position":"#) }?.dropFirst(11))
        #expect(saved.contains("\nvolume \(position)\n"), "\(saved) after \(last)")
        let second = try CLITests.run(arguments + ["--state-dir", kept])
        #expect(second.stdout.hasPrefix(#"{"event":"position","position":\#(position),"#), "\(second.stdout)")

        let corrupt = "format 1\nvolume loud\n"
        try corrupt.write(toFile: kept + "/positions", atomically: true, encoding: .utf8)
        let refused = try CLITests.run(arguments + ["--state-dir", kept])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(kept)/positions:2: the position of 'volume', 'loud', is not a whole number"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: kept + "/positions", encoding: .utf8) == corrupt)
    }
}
