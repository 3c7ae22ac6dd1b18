import DebounceCore
import EventLoop
import GPIODBackend
import LineInput
import LinuxSys
import Pipeline
import Settings
import Simulation
import TraceInput

/// The one way a run is put together, for every command (`watch`, `record`, `run`, `replay`, `demo`)
/// and the library's `Button`: an input (real pins, simulated lines or a recorded trace) with the clock
/// that goes with it, then the stages (one `LinePlan` per line, group lockouts) and the sinks, as one
/// `EventLoop`.
///
/// ```swift
/// let run = try RunAssembly.pins(on: .read(), chip: nil, lines: ["17"], bias: .pullUp)   // or .simulated / .trace
/// let loop = try run.loop(plan: PipelinePlan(lines: [plan]), sinks: [printer], stop: .signals(signals))
/// _ = try loop.run()
/// ```
///
/// The input decides the clock, so that no command chooses one by hand: real pins run on
/// `CLOCK_MONOTONIC` (the kernel stamps their edges with it), simulated lines in real time from 0 (or
/// in virtual time), a trace in virtual time from its first timestamp.
package struct RunAssembly {
    /// Where a line is, for the events' fields and the actions' environment: the chip's name
    /// (`gpiochip0`, `simulated`) and the offset; `nil` for a recorded trace, which has neither.
    package struct LinePlace: Sendable, Hashable {
        package var chip: String
        package var offset: Int

        package init(chip: String, offset: Int) {
            self.chip = chip
            self.offset = offset
        }
    }

    /// What stops a run from outside: SIGINT and SIGTERM (a command), a stop switch (the library, which
    /// leaves the process's signals alone), or nothing (a trace ends by itself).
    package enum StopControl {
        case signals(SignalDescriptor)
        case stopSwitch(StopSwitch)
        case none
    }

    /// The edges' source, owned by the loop once it is made.
    package let source: any EdgeSource
    /// The run's one clock.
    package let clock: LoopClock
    /// Each line's place, in the source's line order (`nil` for a trace).
    package let places: [LinePlace?]
    /// The source of the lines that are not inputs' own sources' (a keypad's keys), as it was made (pins,
    /// simulated lines or a trace): the run's lines from 0; nil when the run has no other lines.
    package let pinSource: (any EdgeSource)?
    /// The sources of the inputs that are sources of their own (`InputSource`), each with its input's
    /// name, in the order their lines follow the pins'.
    package let inputSources: [NamedSource]

    /// A run whose lines are all `source`'s (no input of its own), placed at `places`, on `clock`.
    init(source: any EdgeSource, clock: LoopClock, places: [LinePlace?]) {
        self.init(source: source, clock: clock, places: places, pinSource: source, inputSources: [])
    }

    /// A run whose lines are `source`'s: `pinSource`'s lines (none if nil), then `inputSources`' lines.
    init(source: any EdgeSource, clock: LoopClock, places: [LinePlace?], pinSource: (any EdgeSource)?, inputSources: [NamedSource]) {
        self.source = source
        self.clock = clock
        self.places = places
        self.pinSource = pinSource
        self.inputSources = inputSources
    }

    /// Real pins: `lines` (offsets or names) on `chip` (nil: the header's chip, or wherever the named
    /// lines are), found among `chips` (`ChipInventory.read()`), all with one bias;
    /// `waitsForVanishedChips` as for `GPIODLines`. Throws what `ChipInventory.locate` and `GPIODLines` throw.
    package static func pins(
        on chips: ChipInventory, chip: String?, lines: [String], bias: Bias, kernelDebounceNs: Int64 = 0, consumer: String = "gpio-debounce",
        eventBufferSize: Int? = nil, waitsForVanishedChips: Bool = false
    ) throws(GPIOError) -> RunAssembly {
        let (gpioChip, offsets) = try chips.locate(chip: chip, lines: lines)
        let selections = offsets.map { LineSelection(chip: gpioChip, offset: $0, bias: bias, kernelDebounceNs: kernelDebounceNs) }
        return try pins(selections, consumer: consumer, eventBufferSize: eventBufferSize, waitsForVanishedChips: waitsForVanishedChips)
    }

    /// Real pins, each line with its own chip, bias and kernel debouncing (a configuration's buttons);
    /// `waitsForVanishedChips` as for `GPIODLines` (the daemon); after a daemon's reload, keeping the
    /// requests of `previous` whose chip's lines are all kept (`previousLine`: each line's index in
    /// `previous`, see `GPIODLines(lines:...:keeping:previousLine:)`).
    package static func pins(
        _ selections: [LineSelection], consumer: String = "gpio-debounce", eventBufferSize: Int? = nil, waitsForVanishedChips: Bool = false,
        keeping previous: GPIODLines? = nil, previousLine: [Int?] = []
    ) throws(GPIOError) -> RunAssembly {
        let lines = try GPIODLines(
            lines: selections, consumer: consumer, eventBufferSize: eventBufferSize, waitsForVanishedChips: waitsForVanishedChips, keeping: previous,
            previousLine: previousLine)
        return RunAssembly(source: lines, clock: .monotonic, places: selections.map { LinePlace(chip: $0.chip.name, offset: $0.offset) })
    }

    /// Simulated lines, reported as the lines the user named (`names[i]`: `GPIO27` as 27; see
    /// `SimulatedLineNumber`), in real time from 0 or in virtual time; or on `clock`, a run's that goes
    /// on (the daemon's reload).
    package static func simulated(_ lines: SimulatedLines, names: [String], virtualTime: Bool, clock: LoopClock? = nil) -> RunAssembly {
        precondition(names.count == lines.lineCount, "one name per simulated line")
        let places = names.enumerated().map { LinePlace(chip: "simulated", offset: SimulatedLineNumber.of($1, index: $0)) }
        return RunAssembly(source: lines, clock: clock ?? (virtualTime ? .virtual() : .realTime()), places: places)
    }

    /// A recorded trace (`TraceEdgeSource`, one line or several, which has read every line's initial
    /// level), in virtual time from the first initial level's timestamp.
    package static func trace(_ source: TraceEdgeSource) -> RunAssembly {
        RunAssembly(source: source, clock: .virtual(startNs: source.startNs), places: Array(repeating: nil, count: source.lineCount))
    }

    /// The run's loop: its lines through the pipeline `plan` describes, the outputs to `sinks` in order.
    /// Reads each line's initial level (`LineError` when that fails).
    package func loop(plan: PipelinePlan, sinks: [any Sink], stop: StopControl, limits: LoopLimits = LoopLimits()) throws(LineError) -> EventLoop {
        switch stop {
        case .signals(let signals): try EventLoop(clock: clock, source: source, plan: plan, sinks: sinks, signals: signals, limits: limits)
        case .stopSwitch(let stopSwitch): try EventLoop(clock: clock, source: source, plan: plan, sinks: sinks, stopSwitch: stopSwitch, limits: limits)
        case .none: try EventLoop(clock: clock, source: source, plan: plan, sinks: sinks, limits: limits)
        }
    }
}
