import Actions
import DebounceCore
import EventLoop
import Inputs
import Foundation
import Logging
import Pipeline
import Settings
import Simulation
import Testing

/// An encoder's actions: the detent's fields in the environment, and a fast flick coalesced into two
/// runs, the second with the final position.
@Suite struct EncoderActionTests {
    static let ms: Int64 = 1_000_000
    /// Encoder `volume`, input 0.
    static let volume = EncoderPresenter(name: "volume", input: 0, chip: "sim", lines: [0, 1], lineIndices: [0, 1])

    /// `detents` clockwise detents, each 4 transitions `stepMs` apart (A leads), from 10 ms on.
    static func clockwise(detents: Int, stepMs: Int64) -> SimulatedLines {
        var a: [Edge] = [], b: [Edge] = []
        var timeMs: Int64 = 10
        for _ in 0..<detents {
            a.append(Edge(level: .low, timeNs: timeMs * ms)); timeMs += stepMs
            b.append(Edge(level: .low, timeNs: timeMs * ms)); timeMs += stepMs
            a.append(Edge(level: .high, timeNs: timeMs * ms)); timeMs += stepMs
            b.append(Edge(level: .high, timeNs: timeMs * ms)); timeMs += stepMs
        }
        return SimulatedLines(initialLevels: [.high, .high], scripts: [a.makeIterator(), b.makeIterator()])
    }

    @Test func aFlickRunsACoalescedActionTwiceEndingWithTheFinalPosition() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("gd-enc-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let runner = ActionRunner(
            actions: [Action(name: "volume.rotate", arguments: ["/bin/sh", "-c", "echo $GPIO_ENCODER $GPIO_DIRECTION $GPIO_POSITION >> \(log); sleep 0.2"], policy: .coalesce)],
            bindings: [InputActionBinding(input: 0, on: "rotate", action: 0)], inputs: [Self.volume],
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        // 10 detents in 40 ms, in real time: the first starts the command, the other nine come while it runs.
        let loop = try EventLoop(
            clock: .realTime(), source: Self.clockwise(detents: 10, stepMs: 1), plan: PipelinePlan(lines: [.raw], encoders: [EncoderPlan(lineA: 0, lineB: 1)]),
            sinks: [runner])
        #expect(try loop.run() == .endOfInput)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines == ["volume cw 1", "volume cw 10"])
    }

    /// `on: cw` runs on clockwise detents only, `on: ccw` on counter-clockwise ones only: both are
    /// bound, and the log shows which ran.
    @Test func onChoosesTheDirection() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("gd-enc-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let runner = ActionRunner(
            actions: [
                Action(name: "up", arguments: ["/bin/sh", "-c", "echo up $GPIO_POSITION >> \(log)"], policy: .queue),
                Action(name: "down", arguments: ["/bin/sh", "-c", "echo down $GPIO_POSITION >> \(log)"], policy: .queue),
            ],
            bindings: [InputActionBinding(input: 0, on: "cw", action: 0), InputActionBinding(input: 0, on: "ccw", action: 1)], inputs: [Self.volume],
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let loop = try EventLoop(
            clock: .realTime(), source: Self.clockwise(detents: 2, stepMs: 5), plan: PipelinePlan(lines: [.raw], encoders: [EncoderPlan(lineA: 0, lineB: 1)]),
            sinks: [runner])
        #expect(try loop.run() == .endOfInput)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines == ["up 1", "up 2"], "two clockwise detents run the on: cw action twice and the on: ccw action never")
    }
}
