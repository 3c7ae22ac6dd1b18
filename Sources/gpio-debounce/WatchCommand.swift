import ArgumentParser
import DebounceCore
import GPIODBackend
import LineBackends
import SystemPackage
import TraceFormat

/// `gpio-debounce watch`: debounced events from real pins (or the simulated button), as they happen.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch GPIO lines and print one debounced press or release per physical press.",
        discussion: """
            Lines are offsets (17) or names (GPIO17); without --chip, offsets are on gpiochip0 and names \
            are looked up on every chip. Output is line-buffered, so it can be piped. SIGINT or SIGTERM \
            releases the lines, flushes and exits 0, with a summary (events, lost kernel events) on stderr.
            Exit codes: 66 no such chip or line, 69 bias or kernel debouncing unsupported, 74 the chip \
            vanished or an I/O error, 75 line busy, 77 permission denied.
            """)

    @Argument(help: ArgumentHelp("Lines to watch: offsets or names.", valueName: "line"))
    var lines: [String] = []

    @Option(name: [.short, .long], help: "The chip: a path (/dev/gpiochip0), a name (gpiochip0), a number (0) or a label (pinctrl-bcm2711).")
    var chip: String?

    @Option(name: [.short, .long], help: "Bias: pull-up (button to ground, the default), pull-down, disabled or as-is.")
    var bias: BiasArgument = .init(.pullUp)

    @Option(
        name: [.customLong("kernel-debounce"), .customLong("debounce-period")],
        help: ArgumentHelp("Also ask the kernel to debounce for this long (libgpiod 2, Linux 5.10 or later).", valueName: "duration"),
        transform: { try DurationSyntax.parseNs($0) })
    var kernelDebounceNs: Int64 = 0

    @Option(name: [.short, .customLong("num-events")], help: "Exit after this many debounced events.")
    var numEvents: Int?

    @Option(
        name: .customLong("idle-timeout"), help: ArgumentHelp("Exit after this long with no edge.", valueName: "duration"),
        transform: { try DurationSyntax.parseNs($0) })
    var idleTimeoutNs: Int64?

    @Option(help: "Consumer name shown to other programs (gpioinfo) for the requested lines.")
    var consumer: String = "gpio-debounce"

    @Flag(help: "Watch the simulated bouncy button instead of a real pin (no hardware needed).")
    var simulate = false

    @Option(help: "Seed of the simulated button (with --simulate).")
    var seed: UInt64?

    @OptionGroup var debounce: DebounceOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if !simulate, lines.isEmpty { throw ValidationError("Say which line to watch, e.g. `gpio-debounce watch 17` (or --simulate).") }
        if let numEvents, numEvents < 1 { throw ValidationError("--num-events must be at least 1.") }
        if lines.count > 64 { throw ValidationError("At most 64 lines per watch.") }
    }

    func run() throws {
        let out = OutputBuffer(fileDescriptor: .standardOutput, flushThreshold: 0)
        let writer = EventWriter(format: output.format == .json ? .json : .text, output: out)
        if simulate {
            let seed = self.seed ?? UInt64(truncatingIfNeeded: MonotonicClock.nowNs)
            let button = BouncyButton(seed: seed, activeLevel: debounce.configuration.activeLevel, presses: nil)
            let line = SimulatedLine(initialLevel: button.initialLevel, edges: button, pacing: .realTime)
            try watch(line, names: [("simulated", 0)], writer: writer, lost: { _ in nil })
            return
        }
        do {
            let interrupts = try InterruptSignals()
            let (chip, offsets) = try LineLocator.locate(chip: chip, lines: lines)
            let backend = try GPIODLines(
                chip: chip, offsets: offsets, bias: bias.value, consumer: consumer, kernelDebounceNs: kernelDebounceNs,
                interrupts: interrupts)
            try watch(backend, names: offsets.map { (chip.name, $0) }, writer: writer, lost: { backend.lostEvents?[$0] })
        } catch let error as GPIOError {
            throw failure(error.description, Self.exitCode(for: error))
        }
    }

    /// Runs the loop over `backend`, printing each event with its chip and line.
    private func watch<Line: LineBackend>(
        _ backend: Line, names: [(chip: String, offset: Int)], writer: EventWriter, lost: (Int) -> Int?
    ) throws {
        var loop: DebounceLoop<Line>
        do {
            loop = try DebounceLoop(line: backend, configuration: debounce.configuration)
        } catch {
            throw failure(error.description, ExitStatus.ioError)
        }
        /// Events the kernel lost: sequence gaps (libgpiod 2), else duplicate edges (their evidence on libgpiod 1).
        func lostEvents(_ index: Int, _ statistics: DebounceStatistics) -> Int64 {
            Int64(lost(index) ?? statistics.duplicateEdges)
        }
        var result: Result<DebounceLoop<Line>.Stop, any Error>
        do {
            result = .success(try loop.run(maximumEvents: numEvents, idleTimeoutNs: idleTimeoutNs) { lineEvent in
                let name = names[lineEvent.line]
                try writer.write(lineEvent.event, extraFields: [
                    .text("chip", name.chip), .integer("line", Int64(name.offset)),
                    .integer("lost_events", lostEvents(lineEvent.line, lineEvent.statistics)),
                ])
            })
        } catch {
            result = .failure(error)
        }
        try? writer.output.flush()
        for (index, debouncer) in loop.debouncers.enumerated() {
            let statistics = debouncer.statistics
            printToStandardError(
                "\(names[index].chip) line \(names[index].offset): \(statistics.presses) presses, \(statistics.releases) releases from \(statistics.edges) edges; \(lostEvents(index, statistics)) events lost by the kernel, \(statistics.resyncCorrections) corrected by re-reading the line")
        }
        switch result {
        case .success: return
        case .failure(let error as LineError): throw failure(error.description, ExitStatus.ioError)
        case .failure(let errno as Errno): throw failure("cannot write the events: \(errno.description)", ExitStatus.ioError)
        case .failure(let error): throw error
        }
    }

    static func exitCode(for error: GPIOError) -> ExitCode {
        switch error {
        case .noSuchChip, .notAChip, .offsetOutOfRange, .unknownLineName, .linesOnDifferentChips: ExitCode(66)
        case .biasUnsupported, .kernelDebounceUnsupported: ExitCode(69)
        case .system: ExitStatus.ioError
        case .lineBusy: ExitCode(75)
        case .permissionDenied: ExitCode(77)
        }
    }
}

/// `--bias pull-up|pull-down|disabled|as-is`.
struct BiasArgument: ExpressibleByArgument, CustomStringConvertible {
    var value: Bias
    init(_ value: Bias) { self.value = value }
    init?(argument: String) {
        guard let value = Bias(rawValue: argument) else { return nil }
        self.value = value
    }
    var description: String { value.rawValue }
    static var allValueStrings: [String] { Bias.allCases.map(\.rawValue) }
}
