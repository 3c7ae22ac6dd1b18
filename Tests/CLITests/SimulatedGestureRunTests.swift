import Foundation
import Testing

/// `run --simulate` makes the gestures each button's configuration recognizes, so that trying a file
/// shows every gesture and its action, and none that the file does not configure.
@Suite struct SimulatedGestureRunTests {
    struct Event: Decodable {
        var event: String
        var button: String?
        var count: Int?
    }

    static func events(_ yaml: String, presses: Int, seed: Int = 1) throws -> [Event] {
        let path = try ReplayThroughPipelineTests.configuration(yaml)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run([
            "run", "--config", path, "--simulate", "--virtual-time", "--presses", String(presses), "--seed", String(seed), "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(Event.self, from: Data($0.utf8)) }
    }

    /// Each gesture of a button as `kind` or `click<count>`.
    static func gestures(of button: String, in events: [Event]) -> Set<String> {
        Set(events.filter { $0.button == button }.map { $0.event == "click" ? "click\($0.count ?? 0)" : $0.event })
    }

    @Test(arguments: [1, 2, 3])
    func holdsDoubleAndTripleClicksComeAndNothingElse(seed: Int) throws {
        let events = try Self.events(
            """
            buttons:
              - name: lights
                line: GPIO17
                hold: 1s
                clicks: {window: 400ms, policy: exclusive}
              - name: power
                line: GPIO3
                hold: 3s
              - name: plain
                line: GPIO4
            """, presses: 30, seed: seed)
        #expect(Self.gestures(of: "lights", in: events) == ["press", "release", "click1", "click2", "click3", "hold", "long_release"])
        #expect(Self.gestures(of: "power", in: events) == ["press", "release", "hold", "long_release"])
        #expect(Self.gestures(of: "plain", in: events) == ["press", "release"])
        for button in ["lights", "power", "plain"] {
            #expect(events.filter { $0.button == button && $0.event == "press" }.count == 30, "--presses counts physical presses")
        }
    }

    @Test func repeatsAndTheClickCountsActionsName() throws {
        let events = try Self.events(
            """
            buttons:
              - name: volume
                line: 27
                repeat: {delay: 500ms, interval: 150ms}
                clicks: {window: 300ms, max: 2}
                actions: [{on: click, count: 2, run: ["true"]}]
              - name: menu
                line: 22
                clicks: {window: 300ms}
                actions: [{on: click, count: 4, run: ["true"]}]
            """, presses: 40)
        #expect(Self.gestures(of: "volume", in: events) == ["press", "release", "click1", "click2", "repeat"])
        #expect(Self.gestures(of: "menu", in: events) == ["press", "release", "click1", "click2", "click3", "click4"])
    }
}
