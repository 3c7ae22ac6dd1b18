import Foundation
import Testing

/// `run --wait-for-chips`: a chip that is not there at the start is waited for, with a message,
/// instead of the run exiting 66 (and its service being restarted in a loop); SIGTERM ends the wait.
@Suite struct ChipArrivalTests {
    static let configuration = "buttons:\n  - {name: bell, chip: gpiochip9, line: 0}\n"

    @Test func aMissingChipIsWaitedForUntilSIGTERM() throws {
        let config = try ReplayThroughPipelineTests.configuration(Self.configuration)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let errFile = RecordAnalyzeTests.temporaryPath(".err")
        #expect(FileManager.default.createFile(atPath: errFile, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: errFile) }
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["run", "--config", config, "--wait-for-chips"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
        try process.run()
        let stderr = { (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? "" }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning, !stderr().contains("to appear (SIGTERM stops the wait)") {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(stderr().contains("waiting for /dev/gpiochip9 to appear (SIGTERM stops the wait)"), "\(stderr())")
        // Still waiting a while later: it blocks, it does not give up or spin.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(process.isRunning, "\(stderr())")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr())")
    }

    @Test func withoutTheFlagAMissingChipExits66() throws {
        let config = try ReplayThroughPipelineTests.configuration(Self.configuration)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let result = try CLITests.run(["run", "--config", config])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(!result.stderr.contains("waiting for"), "\(result.stderr)")
    }

    /// `watch --wait-for-chips` on a chip that is not there waits, saying so on stderr, until SIGTERM.
    @Test func watchWaitsForAMissingChipUntilSIGTERM() throws {
        let errFile = RecordAnalyzeTests.temporaryPath(".err")
        #expect(FileManager.default.createFile(atPath: errFile, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: errFile) }
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["watch", "--chip", "gpiochip9", "0", "--wait-for-chips"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
        try process.run()
        let stderr = { (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? "" }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning, !stderr().contains("to appear (SIGTERM stops the wait)") {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(stderr().contains("gpio-debounce: no GPIO chip") && stderr().contains("waiting for /dev/gpiochip9 to appear (SIGTERM stops the wait)"), "\(stderr())")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(process.isRunning, "\(stderr())")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr())")
    }
}
