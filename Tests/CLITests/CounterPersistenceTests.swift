#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The counters' totals as a user meets them across runs of `run`: kept at a clean stop, at most one
/// flush interval lost to `kill -9`, a corrupt state file refused and left as it is, a second run on
/// the same state directory refused. On the simulated S0 meter (`run --simulate`).
@Suite struct CounterPersistenceTests {
    static let meter = """
        counters:
          - {name: energy, line: GPIO17, per_unit: 1000, unit: kWh, device_class: energy, flush: 1s}
        """

    /// A new configuration file and an empty state directory (the caller removes both).
    static func setUp() throws -> (config: String, stateDir: String) {
        let config = RecordAnalyzeTests.temporaryPath(".yaml")
        try meter.write(toFile: config, atomically: true, encoding: .utf8)
        let stateDir = RecordAnalyzeTests.temporaryPath(".state")
        try FileManager.default.createDirectory(atPath: stateDir, withIntermediateDirectories: true)
        return (config, stateDir)
    }

    static func totals(_ stdout: String) -> [Int] {
        stdout.split(separator: "\n").compactMap { line in
            guard line.contains("\"event\":\"count\""), let range = line.range(of: "\"total\":") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    static func savedTotal(_ stateDir: String) -> Int? {
        guard let text = try? String(contentsOfFile: stateDir + "/counters", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("energy ") }.flatMap { Int($0.dropFirst("energy ".count)) }
    }

    @Test func aCleanStopKeepsTheTotalAndTheNextRunCountsOnFromIt() throws {
        let (config, stateDir) = try Self.setUp()
        defer { for path in [config, stateDir] { try? FileManager.default.removeItem(atPath: path) } }
        let arguments = ["run", "--config", config, "--simulate", "--virtual-time", "--state-dir", stateDir, "--format", "json"]
        let first = try CLITests.run(arguments + ["--presses", "7"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(Self.totals(first.stdout) == Array(1...7))
        #expect(Self.savedTotal(stateDir) == 7)
        let second = try CLITests.run(arguments + ["--presses", "3", "--seed", "5"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(Self.totals(second.stdout) == [8, 9, 10])
        #expect(second.stderr.contains("counters: kept in \(stateDir)/counters (energy 7)"), "\(second.stderr)")
        #expect(Self.savedTotal(stateDir) == 10)
        #expect(second.stdout.contains("\"total\":10,\"value\":0.01,"), "\(second.stdout)")
    }

    @Test func killDashNineLosesAtMostOneFlushInterval() throws {
        let (config, stateDir) = try Self.setUp()
        defer { for path in [config, stateDir] { try? FileManager.default.removeItem(atPath: path) } }
        let running = try LifecycleTests.Running(["run", "--config", config, "--simulate", "--state-dir", stateDir, "--format", "json"])
        // The simulated meter pulses about twice a second: wait for a write, then for 2 more pulses.
        #expect(running.wait(seconds: 20) { (Self.savedTotal(stateDir) ?? 0) >= 2 })
        let savedBefore = Self.savedTotal(stateDir) ?? 0
        #expect(running.wait(seconds: 20) { (Self.totals(running.stdout).last ?? 0) >= savedBefore + 2 })
        kill(running.process.processIdentifier, SIGKILL)
        #expect(running.wait(seconds: 10) { !running.process.isRunning })
        let printed = Self.totals(running.stdout)
        let saved = try #require(Self.savedTotal(stateDir))
        let lastPrinted = try #require(printed.last)
        // What was saved was counted, and what was counted in the last interval (1 s: at most a few
        // pulses of a meter pulsing twice a second) is all that may be lost.
        #expect(saved <= lastPrinted && saved >= savedBefore)
        #expect(lastPrinted - saved <= 4, "saved \(saved), printed up to \(lastPrinted)")
        // The next run starts from what was saved, and leaves no temporary file behind.
        let next = try CLITests.run(["run", "--config", config, "--simulate", "--virtual-time", "--presses", "1", "--state-dir", stateDir, "--format", "json"])
        #expect(Self.totals(next.stdout) == [saved + 1], "\(next.stderr)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: stateDir).filter { $0.hasPrefix(".counters.") }
        #expect(leftovers.isEmpty)
    }

    @Test func aCorruptStateFileIsRefusedAndLeftAsItIs() throws {
        let (config, stateDir) = try Self.setUp()
        defer { for path in [config, stateDir] { try? FileManager.default.removeItem(atPath: path) } }
        let corrupt = "format 1\nenergy twelve\n"
        try corrupt.write(toFile: stateDir + "/counters", atomically: true, encoding: .utf8)
        let result = try CLITests.run(["run", "--config", config, "--simulate", "--virtual-time", "--presses", "1", "--state-dir", stateDir])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(stateDir)/counters:2"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try String(contentsOfFile: stateDir + "/counters", encoding: .utf8) == corrupt)
    }

    @Test func aSecondRunOnTheSameStateDirectoryIsRefused() throws {
        let (config, stateDir) = try Self.setUp()
        defer { for path in [config, stateDir] { try? FileManager.default.removeItem(atPath: path) } }
        let running = try LifecycleTests.Running(["run", "--config", config, "--simulate", "--state-dir", stateDir])
        #expect(running.wait { running.stderr.contains("counters: kept in") })
        let second = try CLITests.run(["run", "--config", config, "--simulate", "--virtual-time", "--presses", "1", "--state-dir", stateDir])
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr.contains("another gpio-debounce run"), "\(second.stderr)")
        #expect(running.stop(with: SIGTERM) == 0)
    }
}
