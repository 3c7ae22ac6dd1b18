import ButtonService
import DebounceCore
import Foundation
import LineBackends
import Logging
import Testing

/// The daemon's logic end to end in virtual time: simulated buttons → debouncers → gestures → actions.
@Suite struct ButtonServiceTests {
    /// A logger that prints nothing: the tests check what happened, not the log lines.
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-\(UUID().uuidString)").path
    }

    /// Runs `configuration` over simulated buttons (each pressed `presses` times) and returns what was reported.
    static func run(_ yaml: String, presses: Int, seed: UInt64 = 3) throws -> (outputs: [ButtonService.Output], service: ButtonService) {
        let configuration = try ConfigurationLoader.load(yaml, file: "test.yaml")
        let backend = SimulatedButtons(
            count: configuration.buttons.count, seed: seed, activeLevels: configuration.buttons.map(\.debounce.activeLevel),
            presses: presses, pacing: .virtual)
        var loop = try DebounceLoop(line: backend, configurations: configuration.buttons.map(\.debounce))
        let service = ButtonService(configuration: configuration, places: configuration.buttons.indices.map { ("sim", $0) }, logger: Self.quiet)
        var outputs: [ButtonService.Output] = []
        _ = try loop.run(
            onEvent: { service.handle($0.event, button: $0.line) { outputs.append($0) } },
            extraDeadlineNs: { service.nextDeadlineNs },
            onWake: { service.advance(toNs: $0, childExited: false) { outputs.append($0) } })
        return (outputs, service)
    }

    @Test func exclusiveClicksGiveOneClickPerPressWhenPressesAreFarApart() throws {
        let (outputs, _) = try Self.run("""
            buttons:
              - {name: a, line: 1, clicks: {window: 200ms, policy: exclusive}}
            """, presses: 6)
        #expect(outputs.filter { $0.event.kind == .press }.count == 6)
        #expect(outputs.filter { $0.event.kind == .click }.map(\.event.count) == Array(repeating: 1, count: 6))
    }

    @Test func holdsComeOnlyFromLongPresses() throws {
        let (outputs, _) = try Self.run("""
            buttons:
              - {name: a, line: 1, hold: 250ms}
            """, presses: 30)
        let holds = outputs.filter { $0.event.kind == .hold }
        #expect(!holds.isEmpty && holds.count < 30)
        for hold in holds { #expect(hold.event.timeNs >= hold.event.onsetNs + 250_000_000) }
    }

    @Test func aGroupLetsOnlyOneOfItsButtonsFireWithinTheLockout() throws {
        let (outputs, _) = try Self.run("""
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
        let (_, service) = try Self.run("""
            buttons:
              - name: door
                line: 4
                actions:
                  - on: press
                    shell: 'echo "$GPIO_EVENT $GPIO_BUTTON $GPIO_CHIP $GPIO_LINE $GPIO_COUNT $GPIO_TIME_NS" >> \(log)'
                    policy: parallel
                    limit: 8
            """, presses: 3)
        let deadline = Date().addingTimeInterval(10)
        while service.actions.runningCount > 0, Date() < deadline {
            usleep(10_000)
            service.actions.reap(nowNs: 0)
        }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("press door sim 0 0 ") })
    }

    @Test func dropPolicyIgnoresEventsWhileTheCommandRunsAndQueueRunsThemAfter() throws {
        let logger = Self.quiet
        let log = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let runner = ActionRunner(actions: [
            Action(name: "drop", arguments: ["/bin/sh", "-c", "sleep 0.3; echo drop >> \(log)"], policy: .drop),
            Action(name: "queue", arguments: ["/bin/sh", "-c", "sleep 0.1; echo queue >> \(log)"], policy: .queue),
        ], logger: logger)
        for _ in 0..<3 {
            runner.trigger(0, environment: [:], nowNs: 0)
            runner.trigger(1, environment: [:], nowNs: 0)
        }
        let deadline = Date().addingTimeInterval(10)
        while runner.runningCount > 0, Date() < deadline {
            usleep(10_000)
            runner.reap(nowNs: 0)
        }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0 == "drop" }.count == 1)
        #expect(lines.filter { $0 == "queue" }.count == 3)
    }

    @Test func aCommandPastItsTimeoutIsTerminated() throws {
        let runner = ActionRunner(actions: [Action(name: "slow", arguments: ["sleep", "30"], timeoutNs: 100_000_000)], logger: Self.quiet)
        let start = DispatchTime.now().uptimeNanoseconds
        runner.trigger(0, environment: [:], nowNs: 0)
        #expect(runner.runningCount == 1)
        usleep(150_000)
        runner.enforceTimeouts(nowNs: 200_000_000)
        let deadline = Date().addingTimeInterval(5)
        while runner.runningCount > 0, Date() < deadline {
            usleep(10_000)
            runner.reap(nowNs: 300_000_000)
        }
        #expect(runner.runningCount == 0)
        #expect(DispatchTime.now().uptimeNanoseconds - start < 5_000_000_000)
    }

    @Test func aMissingProgramIsLoggedNotFatal() {
        let runner = ActionRunner(actions: [Action(name: "nope", arguments: ["/nonexistent/program"])], logger: Self.quiet)
        runner.trigger(0, environment: [:], nowNs: 0)
        var attempts = 0
        while runner.runningCount > 0, attempts < 200 {
            usleep(10_000)
            runner.reap(nowNs: 0)
            attempts += 1
        }
        #expect(runner.runningCount == 0)
    }
}
