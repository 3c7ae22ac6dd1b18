import ConfigurationFile
import Daemon
import InMemoryLogging
import Logging
import Pipeline
import Testing

/// Every input's health by the roster (`InputHealthReport`), and the lines `run` logs with it at its
/// stop (`DaemonAssembly.logSummary`) and on SIGUSR1 (`DaemonAssembly.logHealth`).
@Suite struct InputHealthReportTests {
    @Test func oneEntryPerInputInTheRostersOrderAnEncoderBeingOne() throws {
        let output = try TemporaryFile()
        let daemon = try DaemonAssembly(
            DaemonAssemblyTests.configuration(), choices: DaemonAssemblyTests.choices(output: output), stop: .none, logger: quietLogger)
        _ = try daemon.loop.run()
        let pipeline = daemon.loop.pipeline
        let report = InputHealthReport(daemon.roster, pipeline: pipeline, atNs: daemon.loop.clock.nowNs)
        #expect(report.entries.map(\.name) == ["bell", "lamp", "volume", "door", "energy"])
        #expect(report.entries.map(\.noun) == ["button", "button", "encoder", "sensor", "counter"])
        // A button's health is its line's debouncer's; the encoder's is its decoder's (lines 2 and 3).
        let bell = try #require(pipeline.statistics(line: 0))
        #expect(report.entries[0].health.edges == bell.edges)
        #expect(report.entries[0].health.bouncesAbsorbed == bell.bouncesAbsorbed)
        #expect(report.entries[0].health.edges > 0)
        #expect(report.entries[2].health.edges == pipeline.decoder(encoder: 0).statistics.changes)
        #expect(report.entries[2].health.edges > 0)
        // The simulated buttons bounce: most of their edges are absorbed into presses and releases.
        for entry in report.entries where entry.noun == "button" {
            let statistics = entry.health
            #expect(statistics.bouncesAbsorbed > 0 && statistics.bouncesAbsorbed < statistics.edges, "\(entry)")
        }
    }

    @Test func aLineSaysEachCountWithItsNoun() {
        let button = InputHealthReport.Entry(
            name: "bell", noun: "button", health: InputHealth(edges: 14, bouncesAbsorbed: 10, glitchesRejected: 1, noiseBursts: 2, lostEvents: 1))
        #expect(
            InputHealthReport.line(button)
                == "health of button bell: 14 edges, 10 bounces absorbed, 1 glitch rejected, 2 noise bursts, 1 event lost by the kernel")
        let encoder = InputHealthReport.Entry(name: "volume", noun: "encoder", health: InputHealth(edges: 8, bouncesAbsorbed: 0, countsGlitches: false))
        #expect(InputHealthReport.line(encoder) == "health of encoder volume: 8 edges, 0 bounces absorbed, 0 events lost by the kernel")
    }

    /// The stop's summary starts with one line per input, then the counters and the stop.
    @Test func theSummaryLogsEveryInputsHealthThenTheStop() throws {
        let output = try TemporaryFile()
        let kept = InMemoryLogHandler()
        let logger = Logger(label: "health-test") { _ in kept }
        let daemon = try DaemonAssembly(
            DaemonAssemblyTests.configuration(), choices: DaemonAssemblyTests.choices(output: output), stop: .none, logger: logger)
        let stop = try daemon.loop.run()
        let before = kept.entries.count
        daemon.logSummary(of: stop)
        let summary = kept.entries.dropFirst(before).map(\.message.description)
        let expected = InputHealthReport(daemon.roster, pipeline: daemon.loop.pipeline, atNs: daemon.loop.clock.nowNs).lines
        #expect(expected.count == 5)
        #expect(Array(summary.prefix(5)) == expected)
        #expect(summary.last?.hasPrefix("stopped (the simulated inputs ran out of presses) after ") == true, "\(summary)")
    }

    /// The summary names each state file the run keeps by its own name: an encoder-only run's is its
    /// positions file, with no line about counters.
    @Test func theSummaryNamesTheStateFileTheRunKeeps() throws {
        let output = try TemporaryFile()
        let state = try TemporaryDirectory()
        let kept = InMemoryLogHandler()
        let logger = Logger(label: "health-test") { _ in kept }
        let daemon = try DaemonAssembly(
            ConfigurationLoader.load("encoders:\n  - {name: volume, lines: [17, 27], restore: true}\n", file: "e.yaml"),
            choices: DaemonAssemblyTests.choices(presses: 4, stateDirectory: state.path, output: output), stop: .none, logger: logger)
        let stop = try daemon.loop.run()
        let before = kept.entries.count
        daemon.logSummary(of: stop)
        let summary = kept.entries.dropFirst(before).map(\.message.description)
        #expect(summary.contains { $0.hasPrefix("positions: ") && $0.hasSuffix(" of \(state.path)/positions") }, "\(summary)")
        #expect(!summary.contains { $0.hasPrefix("counters:") }, "\(summary)")
    }
}
