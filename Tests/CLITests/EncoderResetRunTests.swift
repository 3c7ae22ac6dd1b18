import Foundation
import Testing

/// `run --simulate --virtual-time` with an encoder that has `reset_line:`: its reset line is simulated
/// as a bouncy button, each of its presses is one `reset` event with the position `reset_to:` sets,
/// and a restored encoder keeps the position in its file. (`EncoderResetStageTests`: the detents after
/// a reset count on from it.)
@Suite struct EncoderResetRunTests {
    @Test func aSimulatedResetButtonSetsThePositionOncePerPress() throws {
        let directory = RecordAnalyzeTests.temporaryPath("-reset")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/knob.yaml"
        try "encoders:\n  - {name: volume, lines: [17, 27], reset_line: 22, min: 0, max: 100, reset_to: 50, restore: true}\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let arguments = ["run", "--config", config, "--simulate", "--virtual-time", "--presses", "3", "--format", "json", "--state-dir", directory]
        let result = try CLITests.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        let resets = lines.filter { $0.contains(#""event":"reset""#) }
        // Three simulated presses, each bouncing: three resets, no more.
        #expect(resets.count == 3, "\(result.stdout)")
        #expect(resets.allSatisfy { $0.hasPrefix(#"{"event":"reset","position":50,"time_ns":"#) && $0.hasSuffix(#""encoder":"volume","chip":"simulated","lines":[17,27]}"#) })
        // The position last printed is the one kept.
        let last = try #require(lines.last { $0.contains(#""event":"reset""#) || $0.contains(#""event":"rotate""#) })
        let position = try #require(last.split(separator: ",").first { $0.hasPrefix(#""position":"#) }?.dropFirst(11))
        #expect(try String(contentsOfFile: directory + "/positions", encoding: .utf8).contains("\nvolume \(position)\n"))
    }

    @Test func checkListsTheResetLine() throws {
        let directory = RecordAnalyzeTests.temporaryPath("-reset-check")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/knob.yaml"
        try "encoders:\n  - {name: volume, lines: [17, 27], reset_line: 22, reset_to: -3}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try CLITests.run(["check", "--config", config])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("    a press on line 22 (reset) sets the position to -3\n"), "\(result.stdout)")
    }
}
