import Foundation
import Testing

/// `run --wait-for-chips` and `watch --wait-for-chips`: a chip that is not there at the start is
/// waited for, with a message, instead of the command exiting 66 (and a service being restarted in a
/// loop); SIGTERM ends the wait.
@Suite struct ChipArrivalTests {
    static let configuration = "buttons:\n  - {name: bell, chip: gpiochip9, line: 0}\n"

    /// Starts the executable with `arguments`, waits until it says on stderr that it waits (at most
    /// 20 s), checks it still runs half a second later (it blocks: it does not give up or spin), sends
    /// SIGTERM and returns its exit status and stderr.
    static func waitStoppedBySIGTERM(_ arguments: [String]) throws -> (status: Int32, stderr: String, runningWhileWaiting: Bool) {
        let errFile = RecordAnalyzeTests.temporaryPath(".err")
        #expect(FileManager.default.createFile(atPath: errFile, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: errFile) }
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
        try process.run()
        let stderr = { (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? "" }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning, !stderr().contains("to appear (SIGTERM stops the wait)") {
            Thread.sleep(forTimeInterval: 0.02)
        }
        Thread.sleep(forTimeInterval: 0.5)
        let running = process.isRunning
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        return (process.terminationStatus, stderr(), running)
    }

    @Test func aMissingChipIsWaitedForUntilSIGTERM() throws {
        let config = try ReplayThroughPipelineTests.configuration(Self.configuration)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let result = try Self.waitStoppedBySIGTERM(["run", "--config", config, "--wait-for-chips"])
        #expect(result.stderr.contains("waiting for /dev/gpiochip9 to appear (SIGTERM stops the wait)"), "\(result.stderr)")
        #expect(result.runningWhileWaiting, "\(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
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
        let result = try Self.waitStoppedBySIGTERM(["watch", "--chip", "gpiochip9", "0", "--wait-for-chips"])
        #expect(
            result.stderr.contains("gpio-debounce: no GPIO chip") && result.stderr.contains("waiting for /dev/gpiochip9 to appear (SIGTERM stops the wait)"),
            "\(result.stderr)")
        #expect(result.runningWhileWaiting, "\(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
    }
}
