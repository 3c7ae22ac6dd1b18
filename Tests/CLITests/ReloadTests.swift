import Foundation
import Testing

/// `run --simulate` reloaded by SIGHUP: an input added, one changed, one removed, the kept ones going
/// on (a button's presses and releases alternate across the reload, a counter's total goes on, a
/// contact's state is not announced again), and a file that does not load refused with the run going on.
@Suite struct ReloadTests {
    static let before = """
        buttons:
          - {name: held, line: GPIO5, hold: 600ms}
          - {name: gone, line: GPIO6}
          - {name: bell, line: GPIO13}
        sensors:
          - {name: door, line: GPIO23}
        counters:
          - {name: energy, line: GPIO17, per_unit: 1000}
        """
    static let after = """
        buttons:
          - {name: held, line: GPIO5, hold: 600ms}
          - {name: bell, line: GPIO13, debounce: "defer:30ms"}
          - {name: extra, line: GPIO19}
        sensors:
          - {name: door, line: GPIO23}
          - {name: window, line: GPIO24}
        counters:
          - {name: energy, line: GPIO17, per_unit: 1000}
        """

    /// A running `gpio-debounce` whose output goes to files, read while it runs.
    final class Running {
        let process = Process()
        let outFile = RecordAnalyzeTests.temporaryPath(".out"), errFile = RecordAnalyzeTests.temporaryPath(".err")

        init(_ arguments: [String]) throws {
            process.executableURL = CLITests.executable
            process.arguments = arguments
            #expect(FileManager.default.createFile(atPath: outFile, contents: nil))
            #expect(FileManager.default.createFile(atPath: errFile, contents: nil))
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outFile))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
            try process.run()
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            for file in [outFile, errFile] { try? FileManager.default.removeItem(atPath: file) }
        }

        var stdout: String { (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? "" }

        /// Waits until `ready` says so (at most 20 s); returns whether it did.
        @discardableResult
        func wait(until ready: (Running) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, process.isRunning {
                if ready(self) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return ready(self)
        }

        func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }
    }

    /// The JSON lines of `text` naming `name` (a button, sensor or counter).
    static func lines(_ text: String, of name: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.contains("\":\"\(name)\",") }
    }

    static func kind(_ line: String) -> String? {
        guard let range = line.range(of: "\"event\":\"") else { return nil }
        return String(line[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test func aReloadAddsChangesAndRemovesInputsAndKeepsTheOthersGoing() throws {
        let config = RecordAnalyzeTests.temporaryPath(".yaml")
        try Self.before.write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let run = try Running(["run", "--config", config, "--simulate", "--format", "json"])
        // Reloaded while the kept button is held (most likely: its presses are holds and clicks).
        #expect(
            run.wait {
                Self.lines($0.stdout, of: "gone").count >= 1 && Self.lines($0.stdout, of: "energy").count >= 2
                    && Self.lines($0.stdout, of: "held").compactMap(Self.kind).last(where: { $0 == "press" || $0 == "release" }) == "press"
            })

        try Self.after.write(toFile: config, atomically: true, encoding: .utf8)
        run.signal(SIGHUP)
        #expect(run.wait { $0.stderr.contains("reloaded") }, "\(run.stderr)")
        #expect(run.stderr.contains("3 kept; added extra, window; changed bell; removed gone"), "\(run.stderr)")
        #expect(run.wait { Self.lines($0.stdout, of: "extra").count >= 2 && Self.lines($0.stdout, of: "held").count >= 3 })

        try "buttons: [".write(toFile: config, atomically: true, encoding: .utf8)
        run.signal(SIGHUP)
        #expect(run.wait { $0.stderr.contains("reload refused") }, "\(run.stderr)")
        let eventsAtRefusal = run.stdout.split(separator: "\n").count
        // Still running, still reporting, with the configuration it had.
        #expect(run.wait { $0.stdout.split(separator: "\n").count >= eventsAtRefusal + 3 })
        #expect(run.process.isRunning)
        run.signal(SIGINT)
        run.process.waitUntilExit()
        #expect(run.process.terminationStatus == 0, "\(run.stderr)")

        let out = run.stdout
        let all = out.split(separator: "\n").map(String.init)
        // The removed input reports nothing after the added one's first event.
        let firstExtra = try #require(all.firstIndex { $0.contains("\"button\":\"extra\"") })
        #expect(!all[firstExtra...].contains { $0.contains("\"button\":\"gone\"") })
        // The kept button alternates press and release across the reload: no phantom press or release.
        let held = Self.lines(out, of: "held").compactMap(Self.kind).filter { $0 == "press" || $0 == "release" }
        #expect(held.count >= 3)
        #expect(zip(held, held.dropFirst()).allSatisfy { $0 != $1 }, "\(held)")
        // The counter goes on: totals 1, 2, 3, ... with no return to 0.
        let totals = Self.lines(out, of: "energy").compactMap { line -> Int? in
            guard let range = line.range(of: "\"total\":") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(totals.count >= 3)
        #expect(totals == Array(1...totals.count), "\(totals)")
        // The kept contact's state is announced once, at the start; the added one's once, at the reload.
        #expect(Self.lines(out, of: "door").filter { $0.contains("\"initial\":true") }.count == 1)
        #expect(Self.lines(out, of: "window").filter { $0.contains("\"initial\":true") }.count == 1)
        #expect(run.stderr.contains("stopped (SIGINT)"), "\(run.stderr)")
    }
}
