import ArgumentParser
import ButtonService
import DebounceCore
import Foundation
import GPIODBackend
import LineBackends
import Logging
import SystemPackage
import TraceFormat

/// Reads and checks a configuration file, exiting 65 with the file, line and key of any mistake.
func loadConfiguration(_ path: String) throws -> ServiceConfiguration {
    let text: String
    do {
        text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
        throw failure("cannot read the configuration '\(path)': \(error.localizedDescription)", ExitStatus.cannotOpenInput)
    }
    do {
        return try ConfigurationLoader.load(text, file: path)
    } catch {
        throw failure(error.description, ExitStatus.badData)
    }
}

/// `gpio-debounce check --config FILE`.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check a configuration file for `run` and say what it sets up.")

    @Option(help: ArgumentHelp("The YAML configuration file.", valueName: "file"))
    var config: String

    func run() throws {
        let configuration = try loadConfiguration(config)
        print("\(config): OK: \(configuration.buttons.count) button(s), \(configuration.groups.count) group(s), \(configuration.buttons.reduce(0) { $0 + $1.actions.count }) action(s)")
        for button in configuration.buttons {
            var gestures: [String] = []
            if let hold = button.gestures.holdNs { gestures.append("hold \(DurationSyntax.format(hold))") }
            if let interval = button.gestures.repeatIntervalNs { gestures.append("repeat every \(DurationSyntax.format(interval))") }
            if let window = button.gestures.clickWindowNs { gestures.append("clicks within \(DurationSyntax.format(window)) (\(button.gestures.clickPolicy.rawValue))") }
            if let throttle = button.gestures.throttleNs { gestures.append("throttle \(DurationSyntax.format(throttle))") }
            if let group = button.group { gestures.append("group \(group)") }
            print("  \(button.name): \(button.chip ?? (Int(button.line) == nil ? "the chip that has" : LineLocator.defaultChip)) line \(button.line), bias \(button.bias.rawValue), press \(button.debounce.press), release \(button.debounce.release)\(gestures.isEmpty ? "" : "; " + gestures.joined(separator: ", "))")
            for action in button.actions {
                print("    on \(action.on.rawValue)\(action.count.map { " \($0)" } ?? ""): \(action.action.arguments.joined(separator: " "))")
            }
        }
    }
}

/// `gpio-debounce run --config FILE`: the daemon.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the buttons of a configuration file: debounced events, gestures and actions, in one process.",
        discussion: """
            One ppoll loop over every button's line (one request per chip), sleeping until the earliest \
            deadline of any button: nothing runs while the buttons are idle. Events are printed like \
            `watch` prints them (plus "button"); actions run their commands without blocking the loop. \
            SIGINT or SIGTERM releases the lines and exits 0.
            """)

    @Option(help: ArgumentHelp("The YAML configuration file.", valueName: "file"))
    var config: String

    @OptionGroup var output: OutputOptions

    @Option(help: "Log level on stderr: trace, debug, info, notice, warning, error or critical.")
    var logLevel: LogLevelArgument = .init(.info)

    @Flag(help: "Drive every button from a simulated bouncy button instead of real pins (no hardware needed).")
    var simulate = false

    @Option(help: "Seed of the simulated buttons (with --simulate).")
    var seed: UInt64 = 1

    @Option(help: "Presses of each simulated button (with --simulate; default: forever).")
    var presses: Int?

    @Flag(help: .hidden)
    var virtualTime = false

    @Option(name: [.short, .customLong("num-events")], help: "Exit after this many events (gestures included).")
    var numEvents: Int?

    func run() throws {
        let configuration = try loadConfiguration(config)
        let level = logLevel.value
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "gpio-debounce")
        let out = OutputBuffer(fileDescriptor: .standardOutput, flushThreshold: 0)
        let writer = EventWriter(format: output.format == .json ? .json : .text, output: out)
        if simulate {
            let backend = SimulatedButtons(
                count: configuration.buttons.count, seed: seed, activeLevels: configuration.buttons.map(\.debounce.activeLevel),
                presses: presses, pacing: virtualTime ? .virtual : .realTime)
            let places = configuration.buttons.indices.map { ("simulated", $0) }
            // No signalfd here: Ctrl-C ends a simulation the ordinary way.
            try serve(backend, configuration: configuration, places: places, writer: writer, interrupts: nil, logger: logger)
            return
        }
        do {
            let interrupts = try InterruptSignals(watchingChildren: true)
            var chips: [String: GPIOChip] = [:]
            var selections: [LineSelection] = []
            for button in configuration.buttons {
                let (chip, offsets) = try LineLocator.locate(chip: button.chip, lines: [button.line])
                let shared = chips[chip.path] ?? chip
                chips[chip.path] = shared
                selections.append(LineSelection(chip: shared, offset: offsets[0], bias: button.bias, kernelDebounceNs: button.kernelDebounceNs))
            }
            let backend = try GPIODLines(lines: selections, consumer: "gpio-debounce", interrupts: interrupts)
            logger.info("watching \(selections.count) buttons (libgpiod \(GPIODLines.libgpiodVersion))")
            try serve(backend, configuration: configuration, places: selections.map { ($0.chip.name, $0.offset) }, writer: writer, interrupts: interrupts, logger: logger)
        } catch let error as GPIOError {
            throw failure(error.description, WatchCommand.exitCode(for: error))
        }
    }

    /// The loop: debouncers per line (`DebounceLoop`), then the service's gestures, groups and actions.
    private func serve<Line: LineBackend>(
        _ backend: Line, configuration: ServiceConfiguration, places: [(chip: String, offset: Int)], writer: EventWriter,
        interrupts: InterruptSignals?, logger: Logger
    ) throws {
        var loop: DebounceLoop<Line>
        do {
            loop = try DebounceLoop(line: backend, configurations: configuration.buttons.map(\.debounce))
        } catch {
            throw failure(error.description, ExitStatus.ioError)
        }
        let service = ButtonService(configuration: configuration, places: places, logger: logger)
        var reported = 0
        func report(_ output: ButtonService.Output) throws {
            let place = places[output.button]
            try writer.write(output.event, extraFields: [
                .text("button", configuration.buttons[output.button].name), .text("chip", place.chip), .integer("line", Int64(place.offset)),
            ])
            reported += 1
            if reported == numEvents { throw EventLimitReached() }
        }
        do {
            _ = try loop.run(
                onEvent: { lineEvent in try service.handle(lineEvent.event, button: lineEvent.line, report: report) },
                extraDeadlineNs: {
                    // Simulated lines get no SIGCHLD wakeup: look for finished commands every 100 ms while any run.
                    let reapNs: Int64? = interrupts == nil && service.actions.runningCount > 0 ? backend.nowNs + 100_000_000 : nil
                    return [service.nextDeadlineNs, reapNs].compactMap { $0 }.min()
                },
                onWake: { nowNs in
                    let childExited = interrupts?.childExited ?? false
                    interrupts?.childExited = false
                    try service.advance(toNs: nowNs, childExited: childExited, report: report)
                })
        } catch is EventLimitReached {
        } catch let error as LineError {
            try? writer.output.flush()
            throw failure(error.description, ExitStatus.ioError)
        }
        // Let running commands finish (they are not killed on exit), up to their own timeouts.
        while service.actions.runningCount > 0 {
            MonotonicClock.sleep(untilNs: MonotonicClock.nowNs + 20_000_000)
            service.actions.reap(nowNs: MonotonicClock.nowNs)
            service.actions.enforceTimeouts(nowNs: MonotonicClock.nowNs)
        }
        try? writer.output.flush()
        logger.info("stopped after \(reported) events")
    }
}

/// Thrown by the event callback once `--num-events` events were printed, to end the loop.
private struct EventLimitReached: Error {}

/// `--log-level`.
struct LogLevelArgument: ExpressibleByArgument {
    var value: Logger.Level
    init(_ value: Logger.Level) { self.value = value }
    init?(argument: String) {
        guard let value = Logger.Level(rawValue: argument) else { return nil }
        self.value = value
    }
    static var allValueStrings: [String] { Logger.Level.allCases.map(\.rawValue) }
}
