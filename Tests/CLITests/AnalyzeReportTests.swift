import DebounceCore
import Foundation
import Testing

@testable import gpio_debounce

/// What `analyze` says about the rocker capture: durations in one style, strategies that read back to
/// a window that works, and lines that say where their figures come from; and the docs show it as it prints.
@Suite struct AnalyzeReportTests {
    /// `analyze` on the rocker capture, its path as the docs write it.
    static func rockerReport(_ extra: [String] = []) throws -> String {
        let result = try CLITests.run(["analyze", CLITests.rocker] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.replacingOccurrences(of: CLITests.root.path + "/", with: "")
    }

    /// The smallest windows show as the other durations do (three significant digits), rounded up, and
    /// each strategy shown reads back with `--debounce` to a window no shorter than the exact one, which
    /// gives one event per transition.
    @Test func strategiesShowInOneStyleAndReadBackToAWindowThatWorks() throws {
        let text = try Self.rockerReport()
        let json = try Self.rockerReport(["--format", "json"])
        #expect(!text.contains("178.562us") && !text.contains("1043.25us"), "\(text)")
        var checked = 0
        for (row, exactKey) in [("  defer:W ", "\"defer\":{\"smallest\":\""), ("  eager:L ", "\"eager\":{\"smallest\":\"")] {
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(row) })
            let words = line.split(separator: " ")
            let smallest = String(words[1]), recommended = String(words[3])
            let exactText = try #require(json.components(separatedBy: exactKey).dropFirst().first?.split(separator: "\"").first)
            let exact = try DebounceStrategy(parsing: exactText), shown = try DebounceStrategy(parsing: smallest)
            #expect(shown.stabilityNs + shown.lockoutNs >= exact.stabilityNs + exact.lockoutNs, "\(smallest) against \(exactText)")
            #expect(shown.stabilityNs + shown.lockoutNs < exact.stabilityNs + exact.lockoutNs + 10_000, "\(smallest) against \(exactText)")
            for strategy in [smallest, recommended] {
                let replay = try CLITests.run(["replay", CLITests.rocker, "--debounce", strategy, "--format", "json"])
                #expect(replay.status == 0, "\(strategy): \(replay.stderr)")
                let events = try CLITests.decode(replay.stdout)
                #expect(events.filter { $0.event == "press" }.count == 50 && events.filter { $0.event == "release" }.count == 50, "\(strategy)")
                checked += 1
            }
        }
        #expect(checked == 4)
        #expect(text.contains("  defer:W            defer:179us "), "\(text)")
        #expect(text.contains("  eager:L            eager:1.05ms "), "\(text)")
    }

    /// A smallest window rounded up past the quiet gap (no longer window was tried) shows exactly, and so
    /// does a glitch filter that three digits cannot show.
    @Test func roundingNeverPassesTheGapNorChangesTheGlitchFilter() {
        #expect(AnalysisReport.shown(.defer(windowNs: 1_234_567), limitNs: 20_000_000) == "defer:1.24ms")
        #expect(AnalysisReport.shown(.defer(windowNs: 1_234_567), limitNs: 1_234_999) == "defer:1234.567us")
        #expect(AnalysisReport.shown(.eager(lockoutNs: 1_043_250, glitchNs: 1_000_000), limitNs: 20_000_000) == "eager:1.05ms,glitch:1ms")
        #expect(AnalysisReport.shown(.eager(lockoutNs: 5_000_000, glitchNs: 1_234), limitNs: 20_000_000) == "eager:5ms,glitch:1.234us")
    }

    /// The defer window is below the longest gap inside a burst, and the report says why that is right.
    @Test func aDeferWindowBelowTheLongestGapIsExplained() throws {
        let text = try Self.rockerReport()
        #expect(text.contains(
            "\ndefer:W can be below the 499us longest gap: a gap at the level the burst ends at only makes defer report early; it adds an event only if the line holds the new level, then the old one, each for longer than W.\n"),
            "\(text)")
    }

    /// "Keep windows under" says what it is measured from, and is rounded down (48.96 ms is not "49ms").
    @Test func theWindowLimitSaysWhatItIsMeasuredFrom() throws {
        let text = try Self.rockerReport()
        #expect(text.hasSuffix(
            "\nKeep windows under 48.9ms: the shortest quiet time in this trace from the last edge of one burst to the first edge of the next (while the button was pressed).\n"),
            "\(text)")
    }

    /// docs/traces.md shows `analyze`'s output on the rocker capture byte for byte.
    @Test func theDocsShowTheReportAsItPrints() throws {
        let markdown = try String(contentsOfFile: CLITests.root.appendingPathComponent("docs/traces.md").path, encoding: .utf8)
        let command = "$ gpio-debounce analyze examples/traces/rocker-kcd101.csv\n"
        let shown = try #require(markdown.components(separatedBy: command).dropFirst().first?.components(separatedBy: "```").first)
        #expect(shown == (try Self.rockerReport()))
    }

    /// The README's summary of that report says what the report says.
    @Test func theReadmeSummarisesTheReportTruly() throws {
        let readme = try String(contentsOfFile: CLITests.root.appendingPathComponent("README.md").path, encoding: .utf8)
        let summary = "`analyze` counts 50 presses and 50\nreleases from 2398 edges, bursts of up to 1.04 ms, and recommends `defer:1ms`"
        #expect(readme.contains(summary))
        let report = try Self.rockerReport()
        for said in ["2398 edges, 100 transitions (50 presses, 50 releases)", " 1.04ms ", "recommended: defer:1ms "] {
            #expect(report.contains(said), "\(said)")
        }
    }
}
