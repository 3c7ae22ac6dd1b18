import Foundation
import Testing

/// `run`'s health report: on SIGUSR1 every input's health goes to the log (stderr) and the run goes
/// on; at the stop the summary has it too.
@Suite struct HealthReportTests {
    static let configuration = """
        buttons:
          - {name: doorbell, line: GPIO17}
        encoders:
          - {name: volume, lines: [GPIO5, GPIO6]}
        sensors:
          - {name: front-door, line: GPIO23}
        counters:
          - {name: energy, line: GPIO22}
        """

    static let names = ["button doorbell", "encoder volume", "sensor front-door", "counter energy"]

    /// The health lines in `stderr`, by input.
    static func healthLines(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in line.range(of: "health of ").map { String(line[$0.lowerBound...]) } }
    }

    /// `run --simulate` of the configuration, its output read while it runs; removed with it.
    static func running() throws -> (ReloadTests.Running, config: String) {
        let config = RecordAnalyzeTests.temporaryPath(".yaml")
        try configuration.write(toFile: config, atomically: true, encoding: .utf8)
        return (try ReloadTests.Running(["run", "--config", config, "--simulate", "--seed", "5"]), config)
    }

    @Test func sigusr1LogsEveryInputsHealthAndTheRunGoesOn() throws {
        let (run, config) = try Self.running()
        defer { try? FileManager.default.removeItem(atPath: config) }

        // Once the doorbell has been pressed, ask for a report.
        run.wait { $0.stdout.contains("button=doorbell") }
        run.signal(SIGUSR1)
        run.wait { Self.healthLines($0.stderr).count >= 4 }
        let stderr = run.stderr
        let report = Self.healthLines(stderr)
        #expect(report.count == 4, "\(stderr)")
        for (line, name) in zip(report, Self.names) { #expect(line.hasPrefix("health of \(name): "), "\(line)") }
        #expect(report.first?.contains(" bounces absorbed, ") == true && report.first?.contains(" lost by the kernel") == true, "\(report)")
        #expect(!stderr.contains("stopped ("), "a report does not stop the run: \(stderr)")

        // The run goes on: more events come after the report, then SIGTERM stops it with a summary.
        let eventsAtReport = run.stdout.split(separator: "\n").count
        run.wait { $0.stdout.split(separator: "\n").count > eventsAtReport + 2 }
        #expect(run.process.isRunning)
        run.signal(SIGTERM)
        run.process.waitUntilExit()
        #expect(run.process.terminationStatus == 0)
        let finalErr = run.stderr
        let all = Self.healthLines(finalErr)
        #expect(all.count == 8, "the report's lines and the summary's: \(finalErr)")
        #expect(finalErr.contains("stopped (SIGTERM)"), "\(finalErr)")
        // The summary's counts are at least the report's.
        let edges = all.map { Int($0.split(separator: ": ")[1].split(separator: " ")[0]) ?? -1 }
        for index in 0..<4 { #expect(edges[index + 4] >= edges[index] && edges[index] >= 0, "\(all)") }
    }

    /// After a reload (SIGHUP) that keeps every input, SIGUSR1 still reports, every count at least
    /// what it was before (`InputHealthTests` shows a kept line's counts carried exactly).
    @Test func afterAReloadTheCountsGoOn() throws {
        let (run, config) = try Self.running()
        defer { try? FileManager.default.removeItem(atPath: config) }

        run.wait { $0.stdout.contains("button=doorbell") }
        run.signal(SIGUSR1)
        run.wait { Self.healthLines($0.stderr).count >= 4 }
        let before = Self.healthLines(run.stderr)
        run.signal(SIGHUP)
        run.wait { $0.stderr.contains("reloaded ") }
        run.signal(SIGUSR1)
        run.wait { Self.healthLines($0.stderr).count >= 8 }
        let after = Array(Self.healthLines(run.stderr).dropFirst(4))
        run.signal(SIGTERM)
        run.process.waitUntilExit()
        #expect(run.process.terminationStatus == 0)
        #expect(before.count == 4 && after.count == 4, "\(before) \(after)")
        let edges = { (lines: [String]) in lines.map { Int($0.split(separator: ": ")[1].split(separator: " ")[0]) ?? -1 } }
        for (old, new) in zip(edges(before), edges(after)) { #expect(new >= old && old >= 0, "\(before) \(after)") }
        #expect((edges(before).first ?? 0) > 0, "the doorbell had edges before the reload: \(before)")
    }
}
