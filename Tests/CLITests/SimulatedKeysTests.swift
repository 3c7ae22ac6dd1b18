import Foundation
import Testing

/// `run --simulate` of a configuration with keys: the keys are shown after their events instead of
/// typed (a simulation types nothing into the desktop), and the run says so once. With
/// `--run-actions` on a machine without `/dev/uinput`, they are shown too, with a note saying why.
@Suite struct SimulatedKeysTests {
    static let configuration = """
        buttons:
          - {name: back, line: GPIO23, key: KEY_ESC}
          - name: volume-up
            line: GPIO27
            actions: [{on: press, key: [KEY_LEFTCTRL, KEY_UP]}]
        encoders:
          - {name: scroll, lines: [GPIO5, GPIO6], axis: REL_WHEEL}
        """

    @Test func theKeysAreShownInsteadOfTyped() throws {
        let path = try ReplayThroughPipelineTests.configuration(Self.configuration)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run(["run", "--config", path, "--simulate", "--virtual-time", "--presses", "4"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // Each key line comes right after its event's line.
        for (index, line) in lines.enumerated() where line.hasPrefix("  would ") {
            #expect(index > 0 && !lines[index - 1].hasPrefix("  would "), "\(result.stdout)")
        }
        #expect(lines.filter { $0 == "  would press KEY_ESC" }.count == 4, "\(result.stdout)")
        #expect(lines.filter { $0 == "  would release KEY_ESC" }.count == 4)
        #expect(lines.filter { $0 == "  would type KEY_LEFTCTRL+KEY_UP" }.count == 4)
        #expect(lines.contains { $0.hasPrefix("  would move REL_WHEEL by ") })
        #expect(result.stderr.components(separatedBy: "a simulation shows the actions and keys it would start, and runs none").count == 2, "\(result.stderr)")
    }

    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/uinput"), "needs a machine without /dev/uinput"))
    func withRunActionsButNoUInputTheKeysAreShown() throws {
        let path = try ReplayThroughPipelineTests.configuration(Self.configuration)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run(["run", "--config", path, "--simulate", "--run-actions", "--virtual-time", "--presses", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  would press KEY_ESC"))
        #expect(result.stderr.components(separatedBy: "no /dev/uinput: showing the keys instead of typing them").count == 2, "\(result.stderr)")
    }

    /// A simulation runs no command unless asked: the README's recipe holds `power` past its `hold:`,
    /// whose action powers the machine off.
    @Test func aSimulationShowsActionsAndRunsNone() throws {
        let marker = RecordAnalyzeTests.temporaryPath("-ran")
        let path = try ReplayThroughPipelineTests.configuration("""
            buttons:
              - name: power
                line: GPIO3
                hold: 1s
                actions: [{on: hold, run: [touch, \(marker)]}]
            """)
        defer { for file in [path, marker] { try? FileManager.default.removeItem(atPath: file) } }
        let shown = try CLITests.run(["run", "--config", path, "--simulate", "--virtual-time", "--presses", "6"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("hold ") && shown.stdout.contains("  would run \"power.hold\": touch \(marker)"), "\(shown.stdout)")
        #expect(!FileManager.default.fileExists(atPath: marker))
        // In real time: in virtual time the stop's grace period would pass before a loaded machine had
        // started the command.
        let ran = try CLITests.run(["run", "--config", path, "--simulate", "--run-actions", "--presses", "2"])
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(FileManager.default.fileExists(atPath: marker))
        #expect(try CLITests.run(["run", "--config", path, "--run-actions"]).status == 64)
    }

    @Test func jsonKeysAreObjectsOfTheirOwn() throws {
        let path = try ReplayThroughPipelineTests.configuration(Self.configuration)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run(["run", "--config", path, "--simulate", "--virtual-time", "--presses", "2", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        struct Keys: Decodable {
            var event: String
            var change: String
            var keys: [String]?
            var axis: String?
            var time_ns: Int64
        }
        let keys = try result.stdout.split(separator: "\n").filter { $0.contains("\"event\":\"keys\"") }.map {
            try JSONDecoder().decode(Keys.self, from: Data($0.utf8))
        }
        #expect(keys.filter { $0.change == "press" && $0.keys == ["KEY_ESC"] }.count == 2, "\(result.stdout)")
        #expect(keys.filter { $0.change == "type" && $0.keys == ["KEY_LEFTCTRL", "KEY_UP"] }.count == 2)
        #expect(keys.contains { $0.change == "move" && $0.axis == "REL_WHEEL" })
    }
}
