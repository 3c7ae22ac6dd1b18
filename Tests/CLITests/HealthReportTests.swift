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

    /// Waits (at most 20 s) until `file` holds text that `ready` accepts; returns it.
    static func wait(for file: String, while process: Process, until ready: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(20)
        var text = ""
        while Date() < deadline {
            text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            if ready(text) || !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return text
    }

    @Test func sigusr1LogsEveryInputsHealthAndTheRunGoesOn() throws {
        let config = RecordAnalyzeTests.temporaryPath(".yaml")
        try Self.configuration.write(toFile: config, atomically: true, encoding: .utf8)
        let outFile = RecordAnalyzeTests.temporaryPath(".out"), errFile = RecordAnalyzeTests.temporaryPath(".err")
        #expect(FileManager.default.createFile(atPath: outFile, contents: nil))
        #expect(FileManager.default.createFile(atPath: errFile, contents: nil))
        defer { for file in [config, outFile, errFile] { try? FileManager.default.removeItem(atPath: file) } }
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["run", "--config", config, "--simulate", "--seed", "5"]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outFile))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // Once the doorbell has been pressed, ask for a report.
        _ = Self.wait(for: outFile, while: process) { $0.contains("button=doorbell") }
        kill(process.processIdentifier, SIGUSR1)
        let stderr = Self.wait(for: errFile, while: process) { Self.healthLines($0).count >= 4 }
        let report = Self.healthLines(stderr)
        #expect(report.count == 4, "\(stderr)")
        for (line, name) in zip(report, Self.names) { #expect(line.hasPrefix("health of \(name): "), "\(line)") }
        #expect(report.first?.contains(" bounces absorbed, ") == true && report.first?.contains(" lost by the kernel") == true, "\(report)")
        #expect(!stderr.contains("stopped ("), "a report does not stop the run: \(stderr)")

        // The run goes on: more events come after the report, then SIGTERM stops it with a summary.
        let eventsAtReport = ((try? String(contentsOfFile: outFile, encoding: .utf8)) ?? "").split(separator: "\n").count
        _ = Self.wait(for: outFile, while: process) { $0.split(separator: "\n").count > eventsAtReport + 2 }
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let finalErr = try String(contentsOfFile: errFile, encoding: .utf8)
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
        let config = RecordAnalyzeTests.temporaryPath(".yaml")
        try Self.configuration.write(toFile: config, atomically: true, encoding: .utf8)
        let outFile = RecordAnalyzeTests.temporaryPath(".out"), errFile = RecordAnalyzeTests.temporaryPath(".err")
        #expect(FileManager.default.createFile(atPath: outFile, contents: nil))
        #expect(FileManager.default.createFile(atPath: errFile, contents: nil))
        defer { for file in [config, outFile, errFile] { try? FileManager.default.removeItem(atPath: file) } }
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["run", "--config", config, "--simulate", "--seed", "5"]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outFile))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        _ = Self.wait(for: outFile, while: process) { $0.contains("button=doorbell") }
        kill(process.processIdentifier, SIGUSR1)
        let before = Self.healthLines(Self.wait(for: errFile, while: process) { Self.healthLines($0).count >= 4 })
        kill(process.processIdentifier, SIGHUP)
        _ = Self.wait(for: errFile, while: process) { $0.contains("reloaded ") }
        kill(process.processIdentifier, SIGUSR1)
        let after = Array(Self.healthLines(Self.wait(for: errFile, while: process) { Self.healthLines($0).count >= 8 }).dropFirst(4))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(before.count == 4 && after.count == 4, "\(before) \(after)")
        let edges = { (lines: [String]) in lines.map { Int($0.split(separator: ": ")[1].split(separator: " ")[0]) ?? -1 } }
        for (old, new) in zip(edges(before), edges(after)) { #expect(new >= old && old >= 0, "\(before) \(after)") }
        #expect((edges(before).first ?? 0) > 0, "the doorbell had edges before the reload: \(before)")
    }
}
