import Foundation
import Testing

/// A stop by SIGINT (Ctrl-C) is a success for every command: exit 0, nothing half-written, and a
/// summary that counts what was really done.
@Suite struct InterruptionTests {
    /// Starts the executable, waits until `ready` says so (at most 20 s), sends SIGINT and returns the
    /// exit status with everything the command printed.
    static func interrupt(_ arguments: [String], in directory: String? = nil, when ready: (String) -> Bool) throws -> CLITests.Result {
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let outFile = RecordAnalyzeTests.temporaryPath(".out"), errFile = RecordAnalyzeTests.temporaryPath(".err")
        #expect(FileManager.default.createFile(atPath: outFile, contents: nil))
        #expect(FileManager.default.createFile(atPath: errFile, contents: nil))
        defer { for file in [outFile, errFile] { try? FileManager.default.removeItem(atPath: file) } }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outFile))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning, !ready((try? String(contentsOfFile: outFile, encoding: .utf8)) ?? "") {
            Thread.sleep(forTimeInterval: 0.02)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        return CLITests.Result(
            status: process.terminationStatus, stdout: try String(contentsOfFile: outFile, encoding: .utf8),
            stderr: try String(contentsOfFile: errFile, encoding: .utf8))
    }

    /// `generate` of an endless trace into a file, stopped: the file is in place, whole (its last
    /// cycle ends with the release), and no temporary file is left beside it.
    @Test func generateStoppedBySIGINTLeavesAWholeFile() throws {
        let directory = RecordAnalyzeTests.temporaryPath("-generate")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Self.interrupt(["generate", "--presses", "9223372036854775807", "-o", "huge.csv"], in: directory) { _ in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains { $0.hasPrefix(".huge.csv") }
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("stopped by SIGINT after"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["huge.csv"])
        let trace = try String(contentsOfFile: directory + "/huge.csv", encoding: .utf8)
        #expect(trace.hasPrefix("# A simulated bouncy button") && trace.hasSuffix(",1\n"), "\(trace.suffix(40))")
        let replayed = try CLITests.run(["replay", directory + "/huge.csv", "--format", "json"])
        #expect(replayed.status == 0)
        let presses = replayed.stdout.components(separatedBy: "\"event\":\"press\"").count - 1
        #expect(presses > 0 && presses == replayed.stdout.components(separatedBy: "\"event\":\"release\"").count - 1)
        #expect(result.stderr.contains("after \(presses) presses"), "\(result.stderr)")
    }

    /// `demo` stopped after a few presses says how many of the asked-for presses were played.
    @Test func anInterruptedDemoCountsWhatWasPlayed() throws {
        let result = try Self.interrupt(["demo", "--presses", "100000000", "--seed", "3"]) { $0.contains("release time=") }
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        let pressEvents = result.stdout.split(separator: "\n").count { $0.hasPrefix("press ") }
        #expect(summary.hasSuffix("(stopped)."), "\(summary)")
        // The press being played when the signal came counts too: as many as were reported, or one more.
        #expect(summary.hasPrefix("\(pressEvents) of 100000000 physical presses:") || summary.hasPrefix("\(pressEvents + 1) of 100000000 physical presses:"), "\(summary)")
    }

    /// `analyze` stopped while it reads a long trace: exit 0, no picture and no temporary file.
    @Test func analyzeStoppedBySIGINTWritesNothing() throws {
        let directory = RecordAnalyzeTests.temporaryPath("-analyze")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try CLITests.run(["generate", "--edges", "3000000", "-o", directory + "/long.csv"]).status == 0)
        let started = Date()
        let result = try Self.interrupt(["analyze", "long.csv", "--svg", "picture.svg"], in: directory) { _ in Date().timeIntervalSince(started) > 0.2 }
        #expect(result.status == 0, "\(result.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(left == ["long.csv"] || left.sorted() == ["long.csv", "picture.svg"], "\(left)")
    }
}
