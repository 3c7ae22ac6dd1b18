import ArgumentParser
import Assembly
import DebounceCore
import EventLoop
import EventOutput
import GPIODBackend
import LineInput
import LinuxSys
import Pipeline
import Recording
import Settings
import Simulation
import SystemPackage

/// `gpio-debounce watch`: debounced events from real pins (or the simulated button), as they happen.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch GPIO lines and print one debounced press or release per physical press.",
        discussion: """
            Lines are offsets (17) or names (GPIO17); without --chip, offsets are on the 40-pin header's chip \
            (a Raspberry Pi's GPIO17 is 17 on every model; elsewhere gpiochip0) and names are looked up on \
            the header's chip first, then on the others. Output is line-buffered, so it can be piped. SIGINT or SIGTERM \
            releases the lines, flushes and exits 0, with a summary (events, lost kernel events) on stderr. \
            A line's state at the start is its level read then; a press that began as the line was requested \
            (its edge stamped before that read) is reported as a press, and a button held from before is \
            reported by its release only (--initial-state shows it pressed).
            Exit codes: 66 no such chip or line, 69 bias or kernel debouncing unsupported, 74 the chip \
            vanished or an I/O error, 75 line busy, 77 permission denied. With --wait-for-chips, a chip not \
            there or gone is waited for instead of 66 or 74.
            """)

    @Argument(help: ArgumentHelp("Lines to watch: offsets or names.", valueName: "line"), transform: LineArgument.parse)
    var lines: [String] = []

    @Option(name: [.short, .long], help: "The chip: a path (/dev/gpiochip0), a name (gpiochip0), a number (0) or a label (pinctrl-bcm2711).")
    var chip: String?

    @Option(name: [.short, .long], help: "Bias: pull-up (button to ground, the default), pull-down, disabled or as-is (libgpiod 2's gpiomon's names; 1.6's disable is accepted too).")
    var bias: BiasArgument = .init(.pullUp)

    @Option(
        name: [.customLong("kernel-debounce"), .customLong("debounce-period")],
        help: ArgumentHelp("Also ask the kernel to debounce for this long (libgpiod 2, Linux 5.10 or later).", valueName: "duration"),
        transform: { try DurationSyntax.parseNs($0) })
    var kernelDebounceNs: Int64 = 0

    @Option(name: [.short, .customLong("num-events")], help: "Exit after this many debounced events.", transform: CountArgument.parse)
    var numEvents: Int?

    @Option(
        name: .customLong("idle-timeout"), help: ArgumentHelp("Exit after this long with no edge.", valueName: "duration"),
        transform: { try DurationSyntax.parseNs($0) })
    var idleTimeoutNs: Int64?

    @Option(help: "Consumer name shown to other programs (gpioinfo) for the requested lines.")
    var consumer: String = "gpio-debounce"

    @OptionGroup var simulation: SimulationOptions<WatchCommand>

    @OptionGroup var modes: WatchModes

    @Flag(
        help: ArgumentHelp(
            "First print each watched line's state at the start as an event: initial, with its level (0 or 1) and, for a button, pressed or released (JSON, e.g. {\"event\":\"initial\",\"state\":\"released\",\"level\":1,\"time_ns\":1523456789012,\"chip\":\"gpiochip0\",\"line\":17})."))
    var initialState = false

    @Flag(
        help: ArgumentHelp(
            "When the chip is not there, or goes away while watched (an expander unplugged, a driver reloaded), wait for it to appear in /dev and go on, instead of exiting 66 or 74; what happens is said on stderr."))
    var waitForChips = false

    @OptionGroup var kernelQueue: KernelQueueOptions
    @OptionGroup var debounce: DebounceOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        let chosen = modes.chosen
        if let mode = chosen.first {
            let others = (lines.isEmpty ? [] : ["buttons"]) + chosen.dropFirst().map { type(of: $0).anInput }
            guard others.isEmpty else {
                let listed = others.count < 2 ? others.joined() : others.dropLast().joined(separator: ", ") + " or " + (others.last ?? "")
                throw ValidationError(
                    "\(type(of: mode).option) names the \(type(of: mode).input)'s lines: watch \(listed) in another `gpio-debounce watch`.")
            }
        }
        if let stray = modes.all.lazy.filter({ !$0.isChosen }).compactMap(\.strayOptions).first { throw ValidationError(stray) }
        if let mode = chosen.first { return try mode.validate(with: self) }
        if !simulation.simulate, lines.isEmpty { throw ValidationError("Say which line to watch, e.g. `gpio-debounce watch 17` (or --simulate).") }
        if lines.count > 64 { throw ValidationError("At most 64 lines per watch.") }
        try LineArgument.requireDistinct(lines)
    }

    func run() throws {
        if simulation.simulate { SimulatedPinsNote.say(options: (kernelDebounceNs > 0 ? ["--kernel-debounce"] : []) + kernelQueue.given) }
        if let mode = modes.chosen.first { return try mode.watch(with: self) }
        try watchButtons()
    }

    /// The lines named, each a button debounced on its own (or the simulated buttons): one event per
    /// press and release, a summary per line at the stop.
    private func watchButtons() throws {
        let signals = try signalDescriptor()
        guard let assembly = try simulation.simulate ? simulatedLines() : pins(lines, signals: signals) else { return }
        let places = assembly.places.compactMap { $0 }
        let printer = output.printer(lineFields: places.map(\.fields), tallyField: .lostEvents, printsInitialStates: initialState)
        let loop = try makeLoop { () throws(LineError) in
            try assembly.loop(
                plan: PipelinePlan(lines: [LinePlan(debounce: debounce.configuration)]), sinks: [printer] + availabilityNotices, stop: .signals(signals),
                limits: limits)
        }
        _ = try runToEnd(loop) { Self.summarize(loop, places: places, printer: printer) }
    }

    /// Each line's presses and releases, from how many edges, and the events lost and corrected.
    private static func summarize(_ loop: EventLoop, places: [RunAssembly.LinePlace], printer: EventPrinter) {
        for (index, place) in places.enumerated() {
            let statistics = loop.pipeline.statistics(line: index) ?? DebounceStatistics()
            printToStandardError(
                "\(place.chip) line \(place.offset): \(counted(statistics.presses, "press", "presses")), \(counted(statistics.releases, "release")) from \(counted(statistics.edges, "edge")); \(counted(printer.tally(line: index).lostEvents, "event")) lost by the kernel, \(statistics.resyncCorrections) corrected by re-reading the line")
        }
    }

    /// The real lines `names`, on `--chip`; with `--wait-for-chips` a chip not there is waited for
    /// (`nil`: a signal ended the wait), and one that goes away while watched too.
    func pins(_ names: [String], signals: SignalDescriptor) throws -> RunAssembly? {
        let open = { () throws(GPIOError) in
            try RunAssembly.pins(
                on: ChipInventory.read(), chip: chip, lines: names, bias: bias.value, kernelDebounceNs: kernelDebounceNs, consumer: consumer,
                eventBufferSize: kernelQueue.eventBufferSize, waitsForVanishedChips: waitForChips)
        }
        guard waitForChips else { return try opening(open) }
        return try ChipArrival(signals: signals) { printToStandardError("gpio-debounce: \($0.text)") }.opening(open)
    }

    /// What says, with `--wait-for-chips`, that a chip went away or came back.
    var availabilityNotices: [any Sink] { waitForChips ? [ChipAvailabilityNotice()] : [] }

    /// The loop's limits: `--num-events`, `--idle-timeout`.
    var limits: LoopLimits { LoopLimits(maximumEvents: numEvents, idleTimeoutNs: idleTimeoutNs) }

    /// `--simulate`: a simulated bouncy button for each line named (line 0 if none is), pressed until
    /// stopped (or `--presses` times), in real time (or virtual).
    private func simulatedLines() -> RunAssembly {
        let seed = simulation.chosenSeed()
        let named = lines.isEmpty ? ["0"] : lines
        let buttons = named.indices.map {
            BouncyButton(seed: seed &+ UInt64($0), activeLevel: debounce.configuration.activeLevel, presses: simulation.presses)
        }
        return RunAssembly.simulated(SimulatedLines(buttons: buttons), names: named, virtualTime: simulation.virtualTime)
    }
}

/// `--bias pull-up|pull-down|disabled|as-is`, as libgpiod 2's gpiomon names them, and `disable`,
/// libgpiod 1.6's gpiomon's name for `disabled`.
struct BiasArgument: ExpressibleByArgument, CustomStringConvertible {
    var value: Bias
    init(_ value: Bias) { self.value = value }
    init?(argument: String) {
        guard let value = Bias(spelling: argument) else { return nil }
        self.value = value
    }
    var description: String { value.rawValue }
    static var allValueStrings: [String] { Bias.allCases.map(\.rawValue) }
}

extension WatchCommand: SimulationHelp {
    static let simulate = ArgumentHelp(
        "Watch simulated bouncy buttons instead of real pins (no hardware needed): one per line named, reported as that line (GPIO27 as 27), or line 0; \(WatchModes.simulationHelp).")
    static let seed = ArgumentHelp("Seed of the simulation (with --simulate).")
    /// Hidden: a watch runs until stopped; for tests, how many times each simulated input is used.
    static let presses = ArgumentHelp("How many times each simulated input is pressed or moved (with --simulate; default: until stopped).", visibility: .hidden)
    static let defaultSeed: UInt64? = nil
    static let fewestPresses = 1
}
