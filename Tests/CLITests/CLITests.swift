import Foundation
import Testing

/// End-to-end tests of the `gpio-debounce` executable, as a user runs it.
@Suite struct CLITests {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The built executable, beside the test bundle.
    static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("gpio-debounce").path), directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("gpio-debounce")
    }()

    /// The repository root, for the example trace.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let rocker = root.appendingPathComponent("examples/traces/rocker-kcd101.csv").path

    /// Runs the executable with `arguments`; `environment` adds to (or replaces) this process's variables.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    struct JSONEvent: Decodable, Equatable {
        var event: String
        var time_ns: Int64
        var onset_ns: Int64
    }

    static func decode(_ stdout: String) throws -> [JSONEvent] {
        try stdout.split(separator: "\n").map { try JSONDecoder().decode(JSONEvent.self, from: Data($0.utf8)) }
    }

    /// The real capture: 50 presses and 50 releases for any window above its 1.04 ms worst burst.
    @Test(arguments: ["defer:1.1ms", "defer:2ms", "eager:1.1ms", "eager:5ms,glitch:10us", "defer:30ms"])
    func rockerCaptureGivesFiftyPressesAndFiftyReleases(strategy: String) throws {
        let result = try Self.run(["replay", Self.rocker, "--debounce", strategy, "--format", "json"])
        #expect(result.status == 0)
        let events = try Self.decode(result.stdout)
        #expect(events.count == 100)
        #expect(events.map(\.event) == Array(repeating: ["press", "release"], count: 50).flatMap { $0 })
        #expect(events.allSatisfy { $0.onset_ns <= $0.time_ns })
    }

    @Test func replayReadsStandardInputAndAppliesPerDirectionStrategies() throws {
        let trace = "t_ns,level\n0,1\n1000,0\n1500,1\n1700,0\n9000000,1\n"
        let result = try Self.run(["replay", "-", "--press", "eager:1ms", "--release", "defer:2ms", "--format", "json"], input: trace)
        #expect(result.status == 0)
        #expect(try Self.decode(result.stdout) == [
            JSONEvent(event: "press", time_ns: 1000, onset_ns: 1000),
            JSONEvent(event: "release", time_ns: 11_000_000, onset_ns: 9_000_000),
        ])
    }

    @Test func activeHighFlipsPressAndRelease() throws {
        let result = try Self.run(["replay", "--active-high", "--format", "json", "--debounce", "defer:1ms"], input: "0,0\n10,1\n5000000,0\n")
        #expect(try Self.decode(result.stdout).map(\.event) == ["press", "release"])
    }

    @Test func malformedLineKeepsEarlierEventsNamesTheLineAndExits65() throws {
        let trace = "0,1\n1000,0\n9000000,1\n20000000,0\n30000000,x\n"
        let result = try Self.run(["replay", "--debounce", "defer:1ms", "--format", "json"], input: trace)
        #expect(result.status == 65)
        #expect(try Self.decode(result.stdout).map(\.event) == ["press", "release"])
        #expect(result.stderr.contains("<stdin>:5: level must be 0 or 1"))
    }

    @Test func missingFileExits66() throws {
        let result = try Self.run(["replay", "/nonexistent/trace.csv"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("cannot open '/nonexistent/trace.csv'"))
    }

    @Test func badStrategyExits64AndSaysWhatIsAccepted() throws {
        let result = try Self.run(["replay", "--debounce", "lazy:5ms"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("defer:DURATION"))
    }

    @Test func emptyTraceIsAnError() throws {
        let result = try Self.run(["replay"], input: "# nothing\n")
        #expect(result.status == 65)
        #expect(result.stderr.contains("no data lines"))
    }

    /// One of anything is singular in every summary: "1 physical press", "1 release event", "1 event
    /// for 1 transition", never "1 presses".
    @Test func countsOfOneAreSingular() throws {
        let demo = try Self.run(["demo", "--virtual-time", "--seed", "42", "--presses", "1"])
        #expect(demo.stdout.contains("(seed 42, 1 press,"), "\(demo.stdout)")
        #expect(demo.stdout.contains("1 physical press: 1 press and 1 release event from "), "\(demo.stdout)")
        let analyze = try Self.run(["analyze", "-"], input: "0,1\n1000,0\n1200,1\n1300,0\n")
        #expect(analyze.stdout.contains("recommended: defer:1ms (1 event for 1 transition)"), "\(analyze.stdout)")
        let replay = try Self.run(["replay", "--debounce", "defer:1ms"], input: "0,1\n1000,0\n9000000,1\n")
        let plural = try NSRegularExpression(pattern: "\\b1 (physical |raw |duplicate )?(presses|releases|events|edges|transitions|spikes|bursts|lines)\\b|\\b1 \\w+ events\\b")
        for text in [demo.stdout, demo.stderr, analyze.stdout, analyze.stderr, replay.stdout, replay.stderr] {
            #expect(plural.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil, "\(text)")
        }
    }

    @Test func demoInVirtualTimeShowsOneEventPerBurst() throws {
        let result = try Self.run(["demo", "--virtual-time", "--seed", "42", "--presses", "4", "--noise"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("4 physical presses: 4 press and 4 release events"))
        let json = try Self.run(["demo", "--virtual-time", "--seed", "42", "--presses", "4", "--format", "json"])
        #expect(try Self.decode(json.stdout).map(\.event) == Array(repeating: ["press", "release"], count: 4).flatMap { $0 })
    }

    @Test func generatedTraceReplaysToOneEventPerTransition() throws {
        let trace = try Self.run(["generate", "--presses", "30", "--seed", "5"])
        #expect(trace.status == 0)
        let replay = try Self.run(["replay", "--debounce", "defer:45ms", "--format", "json"], input: trace.stdout)
        #expect(try Self.decode(replay.stdout).count == 60)
    }

    @Test func watchWithoutHardwareSaysSoAndExits66() throws {
        guard (try? FileManager.default.contentsOfDirectory(atPath: "/dev").contains { $0.hasPrefix("gpiochip") }) != true else { return }
        let result = try Self.run(["watch", "17"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("no /dev/gpiochip*"))
    }

    @Test func watchNeedsALine() throws {
        let result = try Self.run(["watch"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("gpio-debounce watch 17"))
    }

    @Test func watchSimulatedButtonPrintsLineBufferedJSONWithChipAndLine() throws {
        let result = try Self.run(["watch", "--simulate", "--seed", "3", "--num-events", "2", "--format", "json"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            {"event":"press","time_ns":447204005,"onset_ns":436140410,"chip":"simulated","line":0,"lost_events":0}
            {"event":"release","time_ns":594244688,"onset_ns":583981815,"held_ns":147841405,"chip":"simulated","line":0,"lost_events":0}

            """)
        #expect(result.stderr.contains("simulated line 0: 1 press, 1 release"))
    }
}

/// Record, analyze and tune, end to end (on the simulated button: the real-pin path is tested in the VM).
@Suite struct RecordAnalyzeTests {
    static func temporaryPath(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-\(UUID().uuidString)\(suffix)").path
    }

    @Test(arguments: [".csv", ".vcd"])
    func recordThenAnalyzeRecommendsAWindowThatWorks(suffix: String) throws {
        let path = Self.temporaryPath(suffix)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let record = try CLITests.run(["record", "--simulate", "--virtual-time", "--presses", "25", "--seed", "8", "-o", path])
        #expect(record.status == 0)
        #expect(record.stderr.contains("recorded"))
        let analysis = try CLITests.run(["analyze", path, "--format", "json"])
        #expect(analysis.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(analysis.stdout.utf8)) as? [String: Any]
        #expect(json?["transitions"] as? Int == 50)
        let windows = json?["windows"] as? [String: Any]
        let recommended = try #require((windows?["defer"] as? [String: Any])?["recommended"] as? String)
        // The recommendation, replayed, gives one event per transition.
        let replay = try CLITests.run(["replay", path, "--debounce", recommended, "--format", "json"])
        #expect(try CLITests.decode(replay.stdout).count == 50)
    }

    /// With edges lost, `record` re-reads the line once each burst is quiet and writes the level it
    /// finds when the edges had not shown it, so the recording ends every burst at the real level.
    @Test func recordRepairsLostEdgesByReReadingTheLine() throws {
        let path = Self.temporaryPath(".csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let record = try CLITests.run(["record", "--simulate", "--virtual-time", "--presses", "30", "--seed", "9", "--drop", "0.3", "-o", path])
        #expect(record.status == 0)
        #expect(record.stderr.contains("corrected by re-reading the line"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("# level re-read as"))
        // The simulated button ends released (1): so does the recording, though edges were lost.
        #expect(text.split(separator: "\n").last?.hasSuffix(",1") == true)
    }

    @Test func analyzeTextNamesTheStrategiesAndTheMargin() throws {
        let result = try CLITests.run(["analyze", CLITests.rocker])
        #expect(result.status == 0)
        #expect(result.stdout.contains("100 transitions (50 presses, 50 releases)"))
        #expect(result.stdout.contains("recommended: defer:1ms (100 events for 100 transitions)"))
        #expect(result.stdout.contains("twice the smallest"))
    }

    @Test func analyzeDrawsAnSVG() throws {
        let path = Self.temporaryPath(".svg")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run(["analyze", CLITests.rocker, "--svg", path, "--burst", "2"])
        #expect(result.status == 0)
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") || svg.hasPrefix("<svg"))
        #expect(svg.contains("transition 2 of 100"))
    }

    @Test func replayWritesVCDThatReadsBack() throws {
        let path = Self.temporaryPath(".vcd")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let vcd = try CLITests.run(["replay", CLITests.rocker, "--debounce", "defer:2ms", "--format", "vcd"])
        #expect(vcd.status == 0)
        try vcd.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        // The raw channel replays to the same events as the original trace.
        let again = try CLITests.run(["replay", path, "--channel", "raw", "--debounce", "defer:2ms", "--format", "json"])
        let original = try CLITests.run(["replay", CLITests.rocker, "--debounce", "defer:2ms", "--format", "json"])
        #expect(again.stdout == original.stdout)
        // Without --channel, the two channels are listed.
        let ambiguous = try CLITests.run(["replay", path])
        #expect(ambiguous.status == 65 && ambiguous.stderr.contains("raw, pressed"))
    }

    @Test func badInputToAnalyzeIsAClearError() throws {
        let backwards = try CLITests.run(["analyze", "-"], input: "0,1\n100,0\n50,1\n")
        #expect(backwards.status == 65)
        #expect(backwards.stderr.contains("earlier than the one before"))
        let truncated = Self.temporaryPath(".vcd")
        defer { try? FileManager.default.removeItem(atPath: truncated) }
        try "$timescale 1 us $end\n$var wire 1 ! D0 $end\n".write(toFile: truncated, atomically: true, encoding: .utf8)
        let result = try CLITests.run(["analyze", truncated])
        #expect(result.status != 0)
        #expect(result.stderr.contains("incomplete"))
    }
}
