import Foundation
import Testing

/// `watch --selector` and `run` with `selectors:` on simulated switches, as a user runs them.
@Suite struct SelectorCommandTests {
    struct Selection: Decodable {
        var event: String
        var position: Int?
        var name: String?
        var previous: Int?
        var initial: Bool?
        var selector: String
        var lines: [Int]
    }

    static func selections(_ stdout: String) throws -> [Selection] {
        try stdout.split(separator: "\n").filter { $0.contains("\"selector\"") }.map { try JSONDecoder().decode(Selection.self, from: Data($0.utf8)) }
    }

    /// Its position at the start, then one event per move, each naming the one before.
    @Test func watchSelectorPrintsItsPositionThenEachMove() throws {
        let result = try CLITests.run([
            "watch", "--selector", "5,6,13", "--positions", "off,auto,on", "--simulate", "--virtual-time", "--seed", "4", "--presses", "8", "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let selections = try Self.selections(result.stdout)
        #expect(selections.first.map { $0.initial == true && $0.position == 1 && $0.name == "off" } == true, "\(result.stdout)")
        let moves = selections.dropFirst().filter { $0.event == "select" }
        #expect(moves.count == 8)
        #expect(zip(moves, selections.filter { $0.event == "select" }).allSatisfy { $0.previous == $1.position }, "each names the position before it")
        #expect(selections.allSatisfy { $0.lines == [5, 6, 13] && $0.selector == "watch" })
        #expect(moves.allSatisfy { ["off", "auto", "on"][$0.position! - 1] == $0.name })
        #expect(result.stderr.contains("health of selector watch: "))
    }

    @Test(arguments: [
        (["watch", "--code", "gray", "5"], "add --selector LINES"),
        (["watch", "--selector", "5,6", "17"], "--selector LINES names the selector's lines"),
        (["watch", "--selector", "5,5"], "5"),
        (["watch", "--selector", "5,6", "--positions", "a,b,c", "--simulate"], "names more positions than 2 lines"),
        (["watch", "--selector", "5,6", "--code", "octal", "--simulate"], "one_hot"),
        (["watch", "--selector", "5,6", "--settle", "5", "--simulate"], "5"),
    ])
    func badSelectorOptionsSayWhatToWrite(arguments: [String], message: String) throws {
        let result = try CLITests.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// A configured selector beside a button: its position at the start, its moves, its action shown.
    @Test func runTurnsAConfiguredSelectorBesideAButton() throws {
        let path = try ReplayThroughPipelineTests.configuration("""
            buttons: [{name: start, line: 17}]
            selectors:
              - name: mode
                lines: [GPIO5, GPIO6, GPIO13]
                positions: [off, auto, on]
                actions:
                  - {on: select, run: [/bin/echo, mode]}
            """)
        let result = try CLITests.run(["run", "--config", path, "--simulate", "--virtual-time", "--presses", "5", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let selections = try Self.selections(result.stdout)
        #expect(selections.first?.initial == true && selections.count == 6, "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "\"action\":\"mode.select\"").count - 1 == 5)
        #expect(result.stdout.contains("\"button\":\"start\""))
        #expect(result.stderr.contains("health of selector mode: "))
    }
}

/// A selector listed after a keypad: its lines are pins like a button's, the keypad's keys come after
/// every pin's line, and a simulation of both reports each as its own (no key from a selector's line).
@Suite struct SelectorBesideAKeypadTests {
    @Test func aKeypadAndASelectorEachReportTheirOwnEvents() throws {
        let path = try ReplayThroughPipelineTests.configuration("""
            keypads:
              - {name: pad, rows: [5, 6, 13, 19], columns: [12, 16, 20], code: {min_length: 4, end_keys: "#"}}
            selectors:
              - {name: mode, lines: [21, 26, 7], positions: [off, auto, on]}
            """)
        let result = try CLITests.run(["run", "--config", path, "--simulate", "--virtual-time", "--presses", "12", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("\"selector\":\"mode\"") }.count == 13, "its position at the start and its 12 moves: \(result.stdout)")
        #expect(lines.filter { $0.contains("\"keypad\":\"pad\"") && $0.contains("\"event\":\"press\"") }.count >= 12)
        #expect(lines.allSatisfy { !($0.contains("\"keypad\"") && $0.contains("\"selector\"")) })
        #expect(lines.contains { $0.hasPrefix("{\"event\":\"code\",\"length\":") })
        #expect(result.stderr.contains("health of selector mode: ") && result.stderr.contains("health of keypad pad: "))
    }
}

/// `run --simulate` reloaded by SIGHUP with selectors: a kept one goes on from its position without
/// announcing it again, an added one says its position at the start, and each names the one before.
@Suite struct SelectorReloadTests {
    @Test func aKeptSelectorGoesOnAndAnAddedOneSaysItsPosition() throws {
        let config = RecordAnalyzeTests.temporaryPath(".yaml")
        try "selectors: [{name: mode, lines: [5, 6, 13]}]\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let run = try ReloadTests.Running(["run", "--config", config, "--simulate", "--format", "json"])
        #expect(run.wait { ReloadTests.lines($0.stdout, of: "mode").count >= 3 }, "\(run.stdout)")
        try "selectors: [{name: mode, lines: [5, 6, 13]}, {name: dip, lines: [20, 21], code: binary}]\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        run.signal(SIGHUP)
        #expect(run.wait { $0.stderr.contains("reloaded") }, "\(run.stderr)")
        #expect(run.wait { ReloadTests.lines($0.stdout, of: "dip").count >= 2 && ReloadTests.lines($0.stdout, of: "mode").count >= 5 })
        run.signal(SIGINT)
        run.process.waitUntilExit()
        #expect(run.process.terminationStatus == 0, "\(run.stderr)")
        let mode = try ReloadTests.lines(run.stdout, of: "mode").map { try JSONDecoder().decode(SelectorCommandTests.Selection.self, from: Data($0.utf8)) }
        #expect(mode.filter { $0.initial == true }.count == 1, "the kept selector's position is announced once, at the first start")
        let positions = mode.filter { $0.event == "select" }
        #expect(zip(positions.dropFirst(), positions).allSatisfy { $0.previous == $1.position }, "\(run.stdout)")
        let dip = ReloadTests.lines(run.stdout, of: "dip")
        #expect(dip.first?.contains("\"initial\":true") == true, "\(dip)")
    }
}
