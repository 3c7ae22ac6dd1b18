import Actions
import DebounceCore
import EventLoop
import EventOutput
import Inputs
import Foundation
import Logging
import Pipeline
import Settings
import Simulation
import SystemPackage
import Testing

/// A counter's actions: its pulses (`on: pulse`) and rates (`on: rate`, at a pulse and when the rate
/// falls) start them, with the total, the value and the rate in their environment, and a simulation
/// shows them without running any.
@Suite struct CounterActionTests {
    static let ms: Int64 = 1_000_000
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    /// A meter of 1000 imp/kWh (3600 W at one pulse a second), `energy` on line 24 of chip `sim`, run line 0.
    static let energy = CounterPresenter(
        name: "energy", chip: "sim", line: 24, lineIndex: 0, perUnit: 1000, unit: "kWh", deviceClass: "energy", startTotal: 1000, publishIntervalNs: 0,
        rateUnit: "W")
    /// Its actions: one on each pulse, one on each rate.
    static let bindings = [InputActionBinding(input: 0, on: "pulse", action: 0), InputActionBinding(input: 0, on: "rate", action: 1)]

    /// An S0 output (active low, `defer:10ms`) whose rate is 0 one second after a pulse and falls
    /// every 200 ms until then, from 1000 pulses.
    static let plan = LinePlan(
        debounce: DebounceConfiguration(both: .defer(windowNs: 10 * ms), activeLevel: .activeLow),
        role: .counter(initialTotal: 1000, rate: MeterRateConfiguration(perPulsePerSecond: 3600, timeoutNs: 1000 * ms, reportIntervalNs: 200 * ms)))

    /// 30 ms pulses beginning at each of `onsetsMs`.
    static func pulses(_ onsetsMs: [Int64]) -> SimulatedLines {
        SimulatedLines(initialLevel: .high, script: onsetsMs.flatMap { [Edge(level: .low, timeNs: $0 * ms), Edge(level: .high, timeNs: ($0 + 30) * ms)] })
    }

    /// Pulses 300 ms apart give 12 kW, exactly; the rate then falls at 900, 1100 and 1300 ms (one pulse
    /// over the time since the last onset) and is 0 at the timeout, 1 s after it. Each command sees it.
    @Test func aCountersPulsesAndRatesRunItsActionsWithTheirValues() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("gd-meter-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let note = { (tag: String) in
            Action(
                name: tag, arguments: ["/bin/sh", "-c", "echo \"\(tag) $GPIO_EVENT $GPIO_COUNTER $GPIO_TOTAL $GPIO_VALUE $GPIO_UNIT $GPIO_RATE $GPIO_RATE_UNIT $GPIO_TIME_NS $GPIO_ONSET_NS $GPIO_INTERVAL_NS $GPIO_LINE\" >> \(log)"],
                policy: .queue)
        }
        let runner = ActionRunner(
            actions: [note("p"), note("r")], bindings: Self.bindings, inputs: [Self.energy], logger: Self.quiet)
        // A third pulse 1.2 s after the second, past the timeout (its rate is 0), ends the run.
        let loop = try EventLoop(clock: .realTime(), source: Self.pulses([100, 400, 1600]), plan: PipelinePlan(lines: [Self.plan]), sinks: [runner])
        #expect(try loop.run() == .endOfInput)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        // The queue keeps each action's runs in order; the two actions run side by side.
        #expect(lines.filter { $0.hasPrefix("p ") } == [
            "p pulse energy 1001 1.001 kWh 0 W 110000000 100000000 0 24",
            "p pulse energy 1002 1.002 kWh 12000 W 410000000 400000000 300000000 24",
            "p pulse energy 1003 1.003 kWh 0 W 1610000000 1600000000 1200000000 24",
        ])
        #expect(lines.filter { $0.hasPrefix("r ") } == [
            "r pulse energy 1001 1.001 kWh 0 W 110000000 100000000 0 24",
            "r pulse energy 1002 1.002 kWh 12000 W 410000000 400000000 300000000 24",
            "r rate energy 1002 1.002 kWh 7200 W 900000000   24",
            "r rate energy 1002 1.002 kWh 5142.857 W 1100000000   24",
            "r rate energy 1002 1.002 kWh 4000 W 1300000000   24",
            "r rate energy 1002 1.002 kWh 0 W 1400000000   24",
            "r pulse energy 1003 1.003 kWh 0 W 1610000000 1600000000 1200000000 24",
        ])
    }

    /// A counter without units: its value is its total, its rate in pulses per minute, and no GPIO_UNIT.
    @Test func aCounterWithoutUnitsReportsPulsesPerMinute() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("gd-meter-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let runner = ActionRunner(
            actions: [Action(name: "p", arguments: ["/bin/sh", "-c", "echo \"$GPIO_VALUE ${GPIO_UNIT-none} $GPIO_RATE $GPIO_RATE_UNIT\" >> \(log)"], policy: .queue)],
            bindings: [InputActionBinding(input: 0, on: "pulse", action: 0)],
            inputs: [CounterPresenter(name: "pulses", chip: "sim", line: 5, lineIndex: 0, perUnit: 1, unit: nil, deviceClass: nil, startTotal: 0, publishIntervalNs: 0)],
            logger: Self.quiet)
        let plan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 10 * Self.ms), activeLevel: .activeLow), role: .counter(initialTotal: 0))
        let loop = try EventLoop(clock: .realTime(), source: Self.pulses([100, 350]), plan: PipelinePlan(lines: [plan]), sinks: [runner])
        #expect(try loop.run() == .endOfInput)
        // 250 ms apart: 240 pulses a minute.
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "1 none 0 pulses/min\n2 none 240 pulses/min\n")
    }

    /// Plays `outputs`, or else `lines` through `plan` in virtual time, through a preview of the actions
    /// `energy.pulse` and `energy.rate` in `format`, and returns what it wrote.
    static func shown(_ format: EventFormat, outputs: [PipelineOutput] = [], lines: SimulatedLines? = nil) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gd-meter-\(UUID().uuidString).out").path
        try "".write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = try FileDescriptor.open(FilePath(path), .writeOnly)
        let preview = ActionPreview(
            actions: [Action(name: "energy.pulse", arguments: ["/bin/count"]), Action(name: "energy.rate", arguments: ["/bin/log power"])],
            bindings: Self.bindings, inputs: [Self.energy], format: format, output: OutputBuffer(fileDescriptor: descriptor, flushThreshold: 0))
        if let lines {
            _ = try VirtualRun.play(lines, plans: [plan], sinks: [preview])
        } else {
            for output in outputs { try preview.consume(output, nowNs: 0) }
            try preview.finish(atNs: 0)
        }
        try descriptor.close()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func aPreviewShowsAPulsesActionsAndARatesFallsOnly() throws {
        let outputs: [PipelineOutput] = [
            .count(.line(0), PulseCount(total: 1001, timeNs: 110, onsetNs: 100, intervalNs: 50, rate: 12)),
            .rate(.line(0), CounterReading(rate: 6, ratePerMinute: 600, timeNs: 300, total: 1001)),
            .count(.line(1), PulseCount(total: 1, timeNs: 400, onsetNs: 390)),
        ]
        #expect(try Self.shown(.text, outputs: outputs) == """
              would run "energy.pulse": /bin/count
              would run "energy.rate": '/bin/log power'
              would run "energy.rate": '/bin/log power'

            """)
        #expect(try Self.shown(.json, outputs: outputs) == """
            {"event":"action","action":"energy.pulse","arguments":["/bin/count"],"on":"pulse","time_ns":110}
            {"event":"action","action":"energy.rate","arguments":["/bin/log power"],"on":"pulse","time_ns":110}
            {"event":"action","action":"energy.rate","arguments":["/bin/log power"],"on":"rate","time_ns":300}

            """)
    }

    /// In virtual time, a simulation shows each action when its pulse or fall is decided.
    @Test func aSimulationInVirtualTimeShowsTheActionsAtTheirTimes() throws {
        let shown = try Self.shown(.json, lines: Self.pulses([100, 400, 1600])).split(separator: "\n").map {
            String($0.split(separator: ",").filter { $0.hasPrefix("\"on\"") || $0.hasPrefix("\"time_ns\"") || $0.hasPrefix("{") }.joined(separator: ","))
        }
        let pulse = { (ns: Int64) in ["{\"event\":\"action\",\"on\":\"pulse\",\"time_ns\":\(ns)}", "{\"event\":\"action\",\"on\":\"pulse\",\"time_ns\":\(ns)}"] }
        let fall = { (ns: Int64) in "{\"event\":\"action\",\"on\":\"rate\",\"time_ns\":\(ns)}" }
        #expect(shown == pulse(110_000_000) + pulse(410_000_000) + [900, 1100, 1300, 1400].map { fall($0 * Self.ms) } + pulse(1_610_000_000))
    }
}
