#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LinuxSys
import Testing

/// The lifecycle of the long-running commands as a user meets it: signals, summaries, exit codes,
/// actions and their children, in real time on the simulated button.
@Suite struct LifecycleTests {
    /// A running `gpio-debounce` whose standard output and error go to files.
    final class Running {
        let process = Process()
        let stdoutPath = RecordAnalyzeTests.temporaryPath(".out")
        let stderrPath = RecordAnalyzeTests.temporaryPath(".err")

        init(_ arguments: [String]) throws {
            _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
            _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
            process.executableURL = CLITests.executable
            process.arguments = arguments
            process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
            process.standardError = FileHandle(forWritingAtPath: stderrPath)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(atPath: stdoutPath)
            try? FileManager.default.removeItem(atPath: stderrPath)
        }

        var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

        /// Waits (up to `seconds`) until `condition` holds.
        func wait(seconds: Double = 15, until condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition() {
                if Date() > deadline { return false }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return true
        }

        /// Sends `signal`, then waits (up to `seconds`) for the exit; returns the exit status, or nil on a hang.
        func stop(with signal: Int32, seconds: Double = 15) -> Int32? {
            kill(process.processIdentifier, signal)
            guard wait(seconds: seconds, until: { !process.isRunning }) else { return nil }
            return process.terminationStatus
        }
    }

    /// The simulation plays the lines the user named: `watch --simulate 17 GPIO27` reports lines 17
    /// and 27; `run --simulate` each button's configured line, in events and in actions' GPIO_LINE.
    @Test func simulatedButtonsReportTheLinesNamed() throws {
        struct Event: Decodable { var line: Int; var chip: String; var button: String? }
        let watch = try CLITests.run(["watch", "--simulate", "--seed", "3", "--num-events", "4", "--format", "json", "17", "GPIO27"])
        #expect(watch.status == 0, "\(watch.stderr)")
        let watched = try watch.stdout.split(separator: "\n").map { try JSONDecoder().decode(Event.self, from: Data($0.utf8)) }
        #expect(Set(watched.map(\.line)) == [17, 27] && watched.allSatisfy { $0.chip == "simulated" }, "\(watch.stdout)")
        #expect(watch.stderr.contains("simulated line 17: ") && watch.stderr.contains("simulated line 27: "), "\(watch.stderr)")

        let config = RecordAnalyzeTests.temporaryPath(".yaml")
        try """
            buttons:
              - {name: a, line: 17, actions: [{on: press, shell: 'echo "action line=$GPIO_LINE"'}]}
              - {name: b, line: GPIO27}
              - {name: c, line: 22}

            """.write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        // In real time: in virtual time the shutdown's grace period passes at once, and a loaded machine
        // may not have run the action's shell by then.
        let run = try CLITests.run(["run", "--config", config, "--simulate", "--run-actions", "--presses", "1", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try run.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }.map { try JSONDecoder().decode(Event.self, from: Data($0.utf8)) }
        #expect(Dictionary(events.map { ($0.button ?? "", $0.line) }, uniquingKeysWith: { first, _ in first }) == ["a": 17, "b": 27, "c": 22], "\(run.stdout)")
        #expect((run.stdout + run.stderr).contains("action line=17\n"), "\(run.stdout)\(run.stderr)")
    }

    /// With standard error on a terminal, which echoes `^C` where the cursor is, the summary after a
    /// SIGINT starts on a line of its own; into a file, no empty line comes first.
    @Test func afterSIGINTOnATerminalTheSummaryStartsOnANewLine() throws {
        // A pseudo-terminal: /dev/ptmx, unlocked (TIOCSPTLCK), its other end /dev/pts/N (TIOCGPTN).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: Int32 = 0, number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &unlock) == 0 && ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0)
        let terminal = try #require(FileHandle(forUpdatingAtPath: "/dev/pts/\(number)"))
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = ["watch", "--simulate", "--seed", "3"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = terminal
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The first press is decided about 0.45 s in.
        _ = out.fileHandleForReading.availableData
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        try terminal.close()
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let count = read(master, &chunk, chunk.count), count > 0 { bytes += chunk[..<count] }
        let stderr = String(decoding: bytes, as: UTF8.self)
        #expect(process.terminationStatus == 0)
        #expect(stderr.hasPrefix("\r\nsimulated line "), "\(stderr.debugDescription)")  // the terminal writes \n as \r\n

        let running = try Running(["watch", "--simulate", "--seed", "3"])
        #expect(running.wait { running.stdout.contains("press ") })
        #expect(running.stop(with: SIGINT) == 0)
        #expect(running.stderr.hasPrefix("simulated line "), "\(running.stderr.debugDescription)")
    }

    /// Each long-running simulated mode, stopped by SIGINT or SIGTERM once it has shown some output,
    /// prints its summary and exits 0 (the old simulated modes died of the signal, with no summary).
    @Test(arguments: ["watch", "record", "run", "demo"], [SIGINT, SIGTERM])
    func aSignalEndsASimulatedModeWithItsSummaryAndExit0(mode: String, signal: Int32) throws {
        let config = RecordAnalyzeTests.temporaryPath(".yaml")
        try "buttons:\n  - {name: b, line: 0}\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let arguments: [String] = switch mode {
        case "watch": ["watch", "--simulate", "--seed", "3"]
        case "record": ["record", "--simulate", "--seed", "3"]
        case "run": ["run", "--config", config, "--simulate"]
        default: ["demo", "--seed", "3", "--presses", "100"]
        }
        let running = try Running(arguments)
        // The first press is decided about 0.45 s in (an event line starts "press "); the recording
        // writes its header at once.
        #expect(running.wait {
            running.stdout.split(separator: "\n").contains { mode == "record" ? $0 == "t_ns,level" : $0.hasPrefix("press ") }
        })
        if mode == "record" { Thread.sleep(forTimeInterval: 0.6) }
        let status = running.stop(with: signal)
        #expect(status == 0, "\(mode) exited \(String(describing: status)) on signal \(signal); stderr: \(running.stderr)")
        switch mode {
        case "watch": #expect(running.stderr.contains("simulated line 0: 1 press,"))
        case "record": #expect(running.stderr.contains("recorded ") && running.stdout.split(separator: "\n").count > 3)
        case "run": #expect(running.stderr.contains(signal == SIGINT ? "stopped (SIGINT)" : "stopped (SIGTERM)"))
        default: #expect(running.stdout.contains("100 physical presses: 1 press") && running.stdout.contains("(stopped)."))
        }
    }

    /// `record --simulate` in real time writes times from the start of the recording on, never going
    /// backwards, and `analyze` reads what it wrote (the old one wrote monotonic time against the
    /// simulation's zero, replayed every press since boot, and analyze failed on the file).
    @Test func recordSimulatedInRealTimeWritesTimesThatNeverGoBackwards() throws {
        let path = RecordAnalyzeTests.temporaryPath(".csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let record = try CLITests.run(["record", "--simulate", "--presses", "2", "--seed", "5", "-o", path])
        #expect(record.status == 0)
        let times = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.hasPrefix("t_ns") }.compactMap { Int64($0.split(separator: ",")[0]) }
        #expect(times.count > 4)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(times[0] >= 0 && times.last! < 10_000_000_000, "times \(times.first!)...\(times.last!)")
        let analysis = try CLITests.run(["analyze", path])
        #expect(analysis.status == 0, "\(analysis.stderr)")
        #expect(analysis.stdout.contains("4 transitions (2 presses, 2 releases)"))
    }

    /// `run --num-events N` still runs the action of the Nth event before it exits.
    @Test func runNumEventsRunsTheLastEventsAction() throws {
        let log = RecordAnalyzeTests.temporaryPath(".log"), config = RecordAnalyzeTests.temporaryPath(".yaml")
        defer { for path in [log, config] { try? FileManager.default.removeItem(atPath: path) } }
        try """
            buttons:
              - name: b
                line: 0
                actions: [{on: release, shell: 'echo "$GPIO_EVENT" >> \(log)'}]
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try CLITests.run(["run", "--config", config, "--simulate", "--run-actions", "--num-events", "2", "--format", "json"])
        #expect(result.status == 0)
        #expect(try CLITests.decode(result.stdout).map(\.event) == ["press", "release"])
        #expect((try? String(contentsOfFile: log, encoding: .utf8)) == "release\n")
    }

    /// A timed-out action is killed with its whole process group, grandchildren included; so is an action
    /// still running when the daemon is stopped, once the grace period is over; and the daemon neither
    /// hangs nor leaves an orphan.
    @Test(arguments: ["timeout", "shutdown"])
    func anActionsGrandchildrenDoNotOutliveItsTimeoutOrTheShutdown(when: String) throws {
        let pidFile = RecordAnalyzeTests.temporaryPath(".pid"), config = RecordAnalyzeTests.temporaryPath(".yaml")
        defer { for path in [pidFile, config] { try? FileManager.default.removeItem(atPath: path) } }
        try """
            buttons:
              - name: b
                line: 0
                actions:
                  - on: press
                    shell: 'sleep 300 & echo $! > \(pidFile); sleep 300'
            \(when == "timeout" ? "        timeout: 300ms" : "")
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let running = try Running(["run", "--config", config, "--simulate", "--run-actions", "--shutdown-grace", "300ms"] + (when == "timeout" ? ["--presses", "1"] : []))
        #expect(running.wait { FileManager.default.fileExists(atPath: pidFile) && !running.stdout.isEmpty })
        Thread.sleep(forTimeInterval: 0.1)
        let grandchild = try #require(Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
        if when == "timeout" {
            #expect(running.wait(seconds: 10) { !running.process.isRunning })
            #expect(running.process.terminationStatus == 0)
            #expect(running.stderr.contains("timed out"))
        } else {
            #expect(!ProcessGroup.hasEnded(pid: grandchild))
            let status = running.stop(with: SIGTERM)
            #expect(status == 0)
            #expect(running.stderr.contains("killing its process group"))
        }
        #expect(ProcessGroup.hasEnded(pid: grandchild, withinNs: 5_000_000_000), "grandchild \(grandchild) survived the \(when)")
    }
}
