import ArgumentParser
import Assembly
import ConfigurationFile
import DebounceCore
import EventLoop
import EventOutput
import GPIODBackend
import Inputs
import Keypads
import LineInput
import Pipeline
import Simulation

/// `watch --keypad ROWS/COLUMNS`: a matrix keypad's keys, each debounced as a line, one event per press
/// and release: `press  … keypad=keypad key=5`.
extension WatchCommand {
    /// `ROWS/COLUMNS` as its two lists of lines, each checked (`LineArgument`), at most 16 each.
    static func keypadLines(_ text: String) throws -> (rows: [String], columns: [String]) {
        let sides = text.split(separator: "/", omittingEmptySubsequences: false)
        guard sides.count == 2 else {
            throw ValidationError("--keypad takes the rows, a slash, then the columns, e.g. --keypad 5,6,13,19/12,16,20,21.")
        }
        let rows = try LineArgument.parseList(String(sides[0]))
        let columns = try LineArgument.parseList(String(sides[1]))
        guard (1...16).contains(rows.count), (1...16).contains(columns.count) else {
            throw ValidationError("--keypad takes 1 to 16 rows and 1 to 16 columns.")
        }
        try LineArgument.requireDistinct(rows + columns)
        return (rows, columns)
    }

    /// Watches the keypad on `rows` and `columns` (or a simulated one typing at random).
    func watchKeypad(rows: [String], columns: [String]) throws {
        let signals = try signalDescriptor()
        let layout = KeypadSettings.defaultLayout(rows: rows.count, columns: columns.count)
        let matrix = keypadScan.matrix(rows: rows.count, columns: columns.count)
        let source: KeypadSource
        let chipName: String
        if simulation.simulate {
            let typing = SimulatedTyping(layout: layout, code: nil, seed: simulation.chosenSeed(), presses: simulation.presses ?? 1_000, startNs: 0)
            source = KeypadSource.simulated(matrix, contacts: typing.contacts, startNs: 0)
            chipName = "simulated"
        } else {
            let open = { () throws(GPIOError) -> (GPIODMatrixPort, String) in
                let inventory = ChipInventory.read()
                let rowPins = try inventory.locate(chip: chip, lines: rows)
                let columnPins = try inventory.locate(chip: chip, lines: columns)
                let port = try GPIODMatrixPort(
                    rows: rowPins.offsets.map { LineSelection(chip: rowPins.chip, offset: $0, bias: bias.value) },
                    columns: columnPins.offsets.map { LineSelection(chip: columnPins.chip, offset: $0, bias: .asIs) }, consumer: consumer)
                return (port, rowPins.chip.name)
            }
            let (port, name) = try opening(open)
            source = KeypadSource(configuration: matrix, port: port)
            chipName = name
        }
        let clock: LoopClock = simulation.simulate ? (simulation.virtualTime ? .virtual() : .realTime()) : .monotonic
        let assembly = RunAssembly.inputSources([RunAssembly.NamedSource(name: "keypad", source: source)], places: layout.joined().map { _ in RunAssembly.LinePlace(chip: chipName, offset: 0) }, clock: clock)
        let printer = output.printer(lineFields: layout.joined().map { EventFields.key(String($0), keypad: "keypad") })
        let loop = try makeLoop { () throws(LineError) in
            try assembly.loop(
                plan: PipelinePlan(lines: [LinePlan(debounce: debounce.configuration)]), sinks: [printer], stop: .signals(signals),
                limits: LoopLimits(maximumEvents: numEvents, idleTimeoutNs: idleTimeoutNs))
        }
        _ = try runToEnd(loop) {
            let presses = (0..<matrix.keyCount).reduce(0) { $0 + (loop.pipeline.statistics(line: $1)?.presses ?? 0) }
            printToStandardError(
                "\(chipName) keypad \(rows.joined(separator: ","))/\(columns.joined(separator: ",")): \(counted(presses, "key press", "key presses")) from \(source.scanSummary)")
        }
    }
}
