import ConfigurationFile
import DebounceCore
import EventLoop
import Inputs
import Keys
import LinuxSys
import Logging
import Pipeline
import Settings
import Simulation
import Testing

/// Keys from configurations, in virtual time: a raw timeline per button in, the key reports the virtual
/// keyboard would get out, through the daemon's own plan, loop and `KeyboardSink`.
///
/// Timelines: one character per millisecond, `-` high (released: buttons are active-low), `_` low
/// (pressed); the first character is the initial level. A report is written as its changes, e.g.
/// "+KEY_LEFTCTRL +KEY_C" (down) or "-KEY_C" (up).
@Suite struct KeyboardTests {
    /// Keeps every report, and whether the device was removed.
    final class RecordingKeyboard: KeyReporter {
        var reports: [String] = []
        var destroyed = false

        func report(_ changes: [KeyChange]) throws(UInputError) {
            guard !changes.isEmpty else { return }
            #expect(!destroyed, "a report after the device was removed")
            reports.append(changes.map { ($0.down ? "+" : "-") + (KeyCode.name(of: $0.code) ?? "\($0.code)") }.joined(separator: " "))
        }

        func destroy() { destroyed = true }
    }

    /// Plays `timelines` (one per button of `yaml`) and returns the key reports, checking that the
    /// device was removed at the end.
    static func keys(_ yaml: String, _ timelines: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let configuration = try ConfigurationLoader.load(yaml, file: "test.yaml")
        let plan = DaemonPlan(configuration)
        let scripts = timelines.map { timeline in
            let levels = timeline.map { $0 == "_" ? Level.low : Level.high }
            var edges: [Edge] = []
            for tick in levels.indices.dropFirst() where levels[tick] != levels[tick - 1] {
                edges.append(Edge(level: levels[tick], timeNs: Int64(tick) * 1_000_000))
            }
            return (levels.first ?? .high, edges)
        }
        let lines = SimulatedLines(initialLevels: scripts.map(\.0), scripts: scripts.map { script -> any IteratorProtocol<Edge> in script.1.makeIterator() })
        let keyboard = RecordingKeyboard()
        let sink = KeyboardSink(
            mapping: KeyMapping(bindings: plan.keyBindings, inputs: InputKinds.presenters(of: configuration.roster, place: nil)), device: keyboard,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        _ = try VirtualRun.play(lines, plan: PipelinePlan(lines: plan.plans, groups: plan.groups), sinks: [sink])
        #expect(keyboard.destroyed, "the device was not removed at the end of the run", sourceLocation: sourceLocation)
        return keyboard.reports
    }

    @Test func aButtonsKeyIsDownFromPressToRelease() throws {
        let reports = try Self.keys(
            "buttons: [{name: a, line: 1, debounce: 'defer:2ms', key: KEY_ENTER}]",
            "---_-__________-_----------")
        #expect(reports == ["+KEY_ENTER", "-KEY_ENTER"])
    }

    @Test func bounceMakesNoExtraKeys() throws {
        let reports = try Self.keys(
            "buttons: [{name: a, line: 1, debounce: 'defer:3ms', key: KEY_A}]",
            "---_-_-___-______-_-_--------_-_______-_-----------")
        #expect(reports == ["+KEY_A", "-KEY_A", "+KEY_A", "-KEY_A"])
    }

    @Test func singleAndDoubleClicksTapDifferentKeysAndAHoldHoldsItsKeyUntilTheRelease() throws {
        let yaml = """
            buttons:
              - name: play
                line: 1
                debounce: defer:1ms
                hold: 30ms
                clicks: {window: 10ms, policy: exclusive}
                actions:
                  - {on: click, count: 1, key: KEY_PLAYPAUSE}
                  - {on: click, count: 2, key: KEY_NEXTSONG}
                  - {on: hold, key: KEY_POWER}
            """
        #expect(try Self.keys(yaml, "---____--------------------") == ["+KEY_PLAYPAUSE", "-KEY_PLAYPAUSE"])
        #expect(try Self.keys(yaml, "---___---___---------------") == ["+KEY_NEXTSONG", "-KEY_NEXTSONG"])
        let held = "---" + String(repeating: "_", count: 50) + String(repeating: "-", count: 20)
        #expect(try Self.keys(yaml, held) == ["+KEY_POWER", "-KEY_POWER"])
    }

    @Test func aHoldKeyStaysDownWithThePressKeyAndBothComeUpInOneReportAtTheRelease() throws {
        let reports = try Self.keys(
            "buttons: [{name: a, line: 1, debounce: 'defer:1ms', hold: 20ms, key: KEY_A, actions: [{on: hold, key: KEY_POWER}]}]",
            "--" + String(repeating: "_", count: 40) + "-----")
        #expect(reports == ["+KEY_A", "+KEY_POWER", "-KEY_POWER -KEY_A"])
    }

    @Test func aPressActionTapsItsKeyWhileTheButtonsOwnKeyStaysDown() throws {
        let reports = try Self.keys(
            "buttons: [{name: a, line: 1, debounce: 'defer:1ms', key: KEY_LEFTSHIFT, actions: [{on: press, key: KEY_A}]}]",
            "--________---")
        #expect(reports == ["+KEY_LEFTSHIFT", "+KEY_A", "-KEY_A", "-KEY_LEFTSHIFT"])
    }

    @Test func aCombinationGoesDownInOrderAndComesUpInReverse() throws {
        let reports = try Self.keys(
            "buttons: [{name: copy, line: 1, debounce: 'defer:1ms', actions: [{on: press, key: [KEY_LEFTCTRL, KEY_C]}]}]",
            "---____-----")
        #expect(reports == ["+KEY_LEFTCTRL +KEY_C", "-KEY_C -KEY_LEFTCTRL"])
    }

    @Test func releaseAndRepeatBindingsTapTheirKeys() throws {
        let reports = try Self.keys(
            """
            buttons:
              - name: volume
                line: 1
                debounce: defer:1ms
                repeat: {delay: 10ms, interval: 10ms}
                actions: [{on: repeat, key: KEY_VOLUMEUP}, {on: release, key: KEY_MUTE}]
            """,
            "--" + String(repeating: "_", count: 35) + "-----")
        // Pressed at 2 ms (decided 3 ms): repeats at onset + 10, 20, 30 ms, then the release.
        #expect(reports == ["+KEY_VOLUMEUP", "-KEY_VOLUMEUP", "+KEY_VOLUMEUP", "-KEY_VOLUMEUP", "+KEY_VOLUMEUP", "-KEY_VOLUMEUP", "+KEY_MUTE", "-KEY_MUTE"])
    }

    @Test func aKeyHeldByTwoButtonsComesUpWhenBothLetGo() throws {
        let reports = try Self.keys(
            "buttons: [{name: a, line: 1, debounce: 'defer:1ms', key: KEY_SPACE}, {name: b, line: 2, debounce: 'defer:1ms', key: KEY_SPACE}]",
            "--________-------------",
            "------__________-------")
        #expect(reports == ["+KEY_SPACE", "-KEY_SPACE"])
    }

    @Test func keysStillDownWhenTheRunEndsComeUpLastDownFirstBeforeTheDeviceGoes() throws {
        let reports = try Self.keys(
            "buttons: [{name: a, line: 1, debounce: 'defer:1ms', key: [KEY_LEFTSHIFT, KEY_B]}, {name: b, line: 2, debounce: 'defer:1ms', key: KEY_A}]",
            "--________", "----______")
        #expect(reports == ["+KEY_LEFTSHIFT +KEY_B", "+KEY_A", "-KEY_A -KEY_B -KEY_LEFTSHIFT"])
    }

    @Test func manyBouncyPressesGiveAlternatingDownsAndUpsOnePairPerPress() throws {
        let configuration = try ConfigurationLoader.load("buttons: [{name: a, line: 1, key: KEY_ENTER}]", file: "test.yaml")
        let plan = DaemonPlan(configuration)
        for seed in UInt64(1)...20 {
            let keyboard = RecordingKeyboard()
            let sink = KeyboardSink(
                mapping: KeyMapping(bindings: plan.keyBindings, inputs: InputKinds.presenters(of: configuration.roster, place: nil)), device: keyboard,
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
            let lines = SimulatedLines(buttons: [BouncyButton(seed: seed, activeLevel: .activeLow, presses: 40)])
            _ = try VirtualRun.play(lines, plans: plan.plans, sinks: [sink])
            let expected = Array(repeating: ["+KEY_ENTER", "-KEY_ENTER"], count: 40).flatMap { $0 }
            #expect(keyboard.reports == expected, "seed \(seed)")
        }
    }

    @Test func theDeviceDeclaresEachUsedKeyOnce() throws {
        let configuration = try ConfigurationLoader.load(
            """
            buttons:
              - {name: a, line: 1, key: KEY_A, clicks: {window: 300ms}, actions: [{on: click, key: [KEY_LEFTCTRL, KEY_A]}]}
              - {name: b, line: 2, actions: [{on: release, key: BTN_SOUTH}]}
            """, file: "test.yaml")
        #expect(KeyMapping.keys(of: DaemonPlan(configuration).keyBindings) == [29, 30, 0x130])
    }
}
