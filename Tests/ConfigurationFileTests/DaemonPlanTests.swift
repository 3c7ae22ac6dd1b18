import Actions
import ConfigurationFile
import EventLoop
import Pipeline
import DebounceCore
import Foundation
import Simulation
import InMemoryLogging
import Inputs
import Logging
import Testing

/// The daemon's plan end to end in virtual time: simulated buttons → debouncers → gestures and groups → actions.
@Suite struct DaemonPlanTests {
    /// A logger that prints nothing: the tests check what happened, not the log lines.
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-\(UUID().uuidString)").path
    }

    struct Output {
        var button: Int
        var event: ButtonEvent
    }

    /// The configuration `yaml`, its plan, and one simulated button per configured button (each pressed
    /// `presses` times, with seeds `seed`, `seed + 1`, ...).
    static func setUp(_ yaml: String, presses: Int, seed: UInt64) throws -> (ServiceConfiguration, DaemonPlan, SimulatedLines) {
        let configuration = try ConfigurationLoader.load(yaml, file: "test.yaml")
        let buttons = configuration.buttons.enumerated().map { index, button in
            BouncyButton(seed: seed &+ UInt64(index), activeLevel: button.debounce.activeLevel, presses: presses)
        }
        return (configuration, DaemonPlan(configuration), SimulatedLines(buttons: buttons))
    }

    /// Runs `yaml` over simulated buttons in virtual time, through the plan the daemon makes of it, and
    /// returns the events reported.
    static func run(_ yaml: String, presses: Int, seed: UInt64 = 3) throws -> [Output] {
        let (_, plan, lines) = try setUp(yaml, presses: presses, seed: seed)
        let run = try VirtualRun.play(lines, plan: PipelinePlan(lines: plan.plans, groups: plan.groups))
        return run.events.map { Output(button: $0.line, event: $0.event) }
    }

    /// Runs `yaml`'s actions too (the commands are real processes; the run waits for every one).
    /// Returns the run's events.
    @discardableResult
    static func runWithActions(_ yaml: String, presses: Int, seed: UInt64 = 3, logger: Logger = quiet) throws -> [Output] {
        let (configuration, plan, lines) = try setUp(yaml, presses: presses, seed: seed)
        let inputs = InputKinds.presenters(of: configuration.roster, place: { (chip: "sim", offset: $0.index) })
        let runner = ActionRunner(actions: plan.actions, bindings: plan.actionBindings, inputs: inputs, logger: logger)
        let run = try VirtualRun.play(lines, plan: PipelinePlan(lines: plan.plans, groups: plan.groups), sinks: [runner], limits: LoopLimits(shutdownGraceNs: .max))
        return run.events.map { Output(button: $0.line, event: $0.event) }
    }

    @Test func exclusiveClicksGiveOneClickPerPressWhenPressesAreFarApart() throws {
        let outputs = try Self.run("""
            buttons:
              - {name: a, line: 1, clicks: {window: 200ms, policy: exclusive}}
            """, presses: 6)
        #expect(outputs.filter { $0.event.kind == .press }.count == 6)
        #expect(outputs.filter { $0.event.kind == .click }.map(\.event.count) == Array(repeating: 1, count: 6))
    }

    @Test func holdsComeOnlyFromLongPresses() throws {
        let outputs = try Self.run("""
            buttons:
              - {name: a, line: 1, hold: 250ms}
            """, presses: 30)
        let holds = outputs.filter { $0.event.kind == .hold }
        #expect(!holds.isEmpty && holds.count < 30)
        for hold in holds { #expect(hold.event.timeNs >= hold.event.onsetNs + 250_000_000) }
    }

    @Test func aGroupLetsOnlyOneOfItsButtonsFireWithinTheLockout() throws {
        let outputs = try Self.run("""
            groups: {g: {lockout: 5s}}
            buttons:
              - {name: a, line: 1, group: g}
              - {name: b, line: 2, group: g}
            """, presses: 8)
        let presses = outputs.filter { $0.event.kind == .press }.sorted { $0.event.timeNs < $1.event.timeNs }
        for (first, second) in zip(presses, presses.dropFirst()) where first.button != second.button {
            #expect(second.event.timeNs - first.event.timeNs >= 5_000_000_000)
        }
    }

    @Test func actionsGetTheEventInTheirEnvironmentNotTheirCommandLine() throws {
        let log = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: log) }
        try Self.runWithActions("""
            buttons:
              - name: door
                line: 4
                actions:
                  - on: press
                    shell: 'echo "$GPIO_EVENT $GPIO_BUTTON $GPIO_CHIP $GPIO_LINE $GPIO_COUNT $GPIO_TIME_NS" >> \(log)'
                    policy: parallel
                    limit: 8
            """, presses: 3)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("press door sim 0 0 ") })
    }

    @Test func dropPolicyIgnoresEventsWhileTheCommandRunsAndQueueRunsThemAfter() throws {
        let log = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: log) }
        // Virtual time: the three presses come at once, while the commands still run; the queued runs
        // still run after the input ended (the run waits for them).
        try Self.runWithActions("""
            buttons:
              - name: a
                line: 1
                actions:
                  - {on: press, shell: 'sleep 0.3; echo drop >> \(log)', policy: drop}
                  - {on: press, shell: 'sleep 0.1; echo queue >> \(log)', policy: queue}
            """, presses: 3)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0 == "drop" }.count == 1)
        #expect(lines.filter { $0 == "queue" }.count == 3)
    }

    /// A program that is not there: each press logs an error naming it and why, and the run goes on
    /// to the end (both presses and releases reported).
    @Test func aMissingProgramIsLoggedNotFatal() throws {
        let kept = InMemoryLogHandler()
        let events = try Self.runWithActions("""
            buttons:
              - {name: a, line: 1, actions: [{on: press, run: [/nonexistent/program]}]}
            """, presses: 2, logger: Logger(label: "test") { _ in kept })
        #expect(events.filter { $0.event.kind == .press }.count == 2)
        #expect(events.filter { $0.event.kind == .release }.count == 2)
        let lines = kept.entries.map(\.message.description)
        let errors = lines.filter { $0.contains("cannot run '/nonexistent/program'") }
        #expect(errors.count == 2, "one error per press naming the program: \(lines)")
        #expect(errors.allSatisfy { $0.contains("No such file or directory") }, "\(errors)")
    }
}
