import Actions
import DebounceCore
import EventLoop
import Inputs
import Foundation
import LinuxSys
import Logging
import Pipeline
import Settings
import Simulation
import Testing

/// The action runner on the event loop, in real time: its commands are real processes, their timeouts
/// and the shutdown's grace period count on the loop's clock, and a run ends only when they have ended.
@Suite struct ActionRunnerTests {
    static let ms: Int64 = 1_000_000
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Button `b`, on line 0 of chip `sim`, run line 0.
    static let button = ButtonPresenter(name: "b", chip: "sim", line: 0, lineIndex: 0, gestures: [])

    static func plan(_ strategy: DebounceStrategy) -> [LinePlan] { [LinePlan(debounce: DebounceConfiguration(both: strategy))] }

    /// Action timeouts count on the loop's clock: a real-time simulated run kills a command that runs
    /// past its timeout (the old daemon read "now" from a copy of the line whose clock never moved, so the
    /// timeout never fired), and wakes a bounded number of times while it waits (no spinning).
    @Test func anActionTimeoutFiresOnTheLoopsClockWithoutSpinning() throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("gd-\(UUID().uuidString).pid").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let runner = ActionRunner(
            actions: [Action(name: "slow", arguments: ["/bin/sh", "-c", "sleep 30 & echo $! > \(pidFile); wait"], timeoutNs: 300 * Self.ms)],
            bindings: [InputActionBinding(input: 0, on: "press", action: 0)], inputs: [Self.button], logger: Self.quiet)
        let lines = SimulatedLines(initialLevel: .high, script: [Edge(level: .low, timeNs: Self.ms)])
        let started = MonotonicClock.nowNs
        let loop = try EventLoop(clock: .realTime(), source: lines, plan: PipelinePlan(lines: Self.plan(.eager(lockoutNs: Self.ms))), sinks: [runner])
        #expect(try loop.run() == .endOfInput)
        let elapsedNs = MonotonicClock.nowNs - started
        #expect(elapsedNs >= 300 * Self.ms && elapsedNs < 3_000 * Self.ms, "elapsed \(elapsedNs / Self.ms) ms")
        #expect(loop.wakeups < 12, "\(loop.wakeups) wakeups")
        #expect(runner.runningCount == 0)
        let grandchild = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(ProcessGroup.hasEnded(pid: grandchild, withinNs: 5_000_000_000), "the action's grandchild \(grandchild) survived its timeout")
    }

    /// Stopping (here: the stop switch) waits for a running action up to the grace period, then kills
    /// its whole group; nothing is left running and the run does not hang.
    @Test func stoppingGivesActionsTheGracePeriodThenKillsTheirGroups() throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("gd-\(UUID().uuidString).pid").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let runner = ActionRunner(
            actions: [Action(name: "forever", arguments: ["/bin/sh", "-c", "sleep 300 & echo $! > \(pidFile); exec sleep 300"])],
            bindings: [InputActionBinding(input: 0, on: "press", action: 0)], inputs: [Self.button], logger: Self.quiet)
        let stopSwitch = try StopSwitch()
        let lines = SimulatedLines(initialLevel: .high, script: [Edge(level: .low, timeNs: Self.ms), Edge(level: .high, timeNs: 60_000 * Self.ms)])
        let loop = try EventLoop(
            clock: .realTime(), source: lines, plan: PipelinePlan(lines: Self.plan(.eager(lockoutNs: Self.ms))), sinks: [runner], stopSwitch: stopSwitch,
            limits: LoopLimits(shutdownGraceNs: 400 * Self.ms))
        let stopper = Thread {
            while !FileManager.default.fileExists(atPath: pidFile) { Thread.sleep(forTimeInterval: 0.01) }
            Thread.sleep(forTimeInterval: 0.1)
            stopSwitch.stop()
        }
        stopper.start()
        let started = MonotonicClock.nowNs
        #expect(try loop.run() == .interrupted(signal: nil))
        let elapsedNs = MonotonicClock.nowNs - started
        #expect(elapsedNs >= 400 * Self.ms && elapsedNs < 5_000 * Self.ms, "elapsed \(elapsedNs / Self.ms) ms")
        let grandchild = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(ProcessGroup.hasEnded(pid: grandchild, withinNs: 5_000_000_000), "the action's grandchild \(grandchild) survived the shutdown")
        #expect(runner.runningCount == 0)
    }

    /// The Nth event's action runs when `maximumEvents` is N (the old daemon stopped before running it).
    @Test func theLastEventsActionStillRuns() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("gd-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let runner = ActionRunner(
            actions: [Action(name: "note", arguments: ["/bin/sh", "-c", "echo \"$GPIO_EVENT\" >> \(log)"])],
            bindings: [InputActionBinding(input: 0, on: "release", action: 0)], inputs: [Self.button], logger: Self.quiet)
        let loop = try EventLoop(
            clock: .realTime(), source: SimulatedLines(buttons: [BouncyButton(seed: 2, presses: 1)]),
            plan: PipelinePlan(lines: Self.plan(.defer(windowNs: 10 * Self.ms))), sinks: [runner], limits: LoopLimits(maximumEvents: 2))
        #expect(try loop.run() == .eventLimit)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "release\n")
    }

    /// A release's action sees how long the button was held (`GPIO_HELD_NS`: onset to onset), a long
    /// release's too; a press's is 0.
    @Test func actionsSeeHowLongTheButtonWasHeld() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("gd-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let note = Action(name: "note", arguments: ["/bin/sh", "-c", "echo \"$GPIO_EVENT $GPIO_HELD_NS\" >> \(log)"])
        let runner = ActionRunner(
            actions: [note], bindings: ["press", "release", "long_release"].map { InputActionBinding(input: 0, on: $0, action: 0) }, inputs: [Self.button],
            logger: Self.quiet)
        // Press edge at 10 ms, release edge at 710 ms: held 700 ms, past the 500 ms hold.
        let script = [Edge(level: .low, timeNs: 10 * Self.ms), Edge(level: .high, timeNs: 710 * Self.ms)]
        let plan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 10 * Self.ms)), gestures: GestureConfiguration(holdNs: 500 * Self.ms))
        let loop = try EventLoop(
            clock: .realTime(), source: SimulatedLines(initialLevel: .high, script: script), plan: PipelinePlan(lines: [plan]), sinks: [runner])
        #expect(try loop.run() == .endOfInput)
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "press 0\nrelease 700000000\nlong_release 700000000\n")
    }

    /// A sensor's actions run on its changes as bound (`on`, `off`, `change`), never for the state at
    /// the start, with the change in their environment.
    @Test func aContactsChangesRunItsActions() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("gd-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let note = { (tag: String) in
            Action(name: tag, arguments: ["/bin/sh", "-c", "echo \"\(tag) $GPIO_EVENT $GPIO_SENSOR $GPIO_STATE $GPIO_PREVIOUS_NS $GPIO_LINE\" >> \(log)"])
        }
        let runner = ActionRunner(
            actions: [note("opened"), note("changed")],
            bindings: [InputActionBinding(input: 0, on: "on", action: 0), InputActionBinding(input: 0, on: "change", action: 1)],
            inputs: [SensorPresenter(name: "door", chip: "sim", line: 23, lineIndex: 0, deviceClass: nil)], logger: Self.quiet)
        // Open (high) at 100 ms for 300 ms, closed again at 400 ms: on, then off after 300 ms.
        let script = [Edge(level: .high, timeNs: 100 * Self.ms), Edge(level: .low, timeNs: 400 * Self.ms)]
        let plan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 10 * Self.ms), activeLevel: .activeHigh), role: .contact(ContactConfiguration()))
        let loop = try EventLoop(clock: .realTime(), source: SimulatedLines(initialLevel: .low, script: script), plan: PipelinePlan(lines: [plan]), sinks: [runner])
        #expect(try loop.run() == .endOfInput)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").sorted()
        #expect(lines == ["changed state door off 300000000 23", "changed state door on 0 23", "opened state door on 0 23"])
    }
}
