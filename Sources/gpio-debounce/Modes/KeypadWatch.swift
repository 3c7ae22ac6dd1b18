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
struct KeypadWatch: WatchMode {
    @Option(
        name: .customLong("keypad"),
        help: ArgumentHelp(
            "Watch a matrix keypad: its row lines, a slash, its column lines (e.g. 5,6,13,19/12,16,20,21): one press and one release per key, named as printed on a 4×4 or 4×3 pad (123A… *0#D). Rows are pulled up (--bias); columns are driven low one at a time while a key is down.",
            valueName: "ROWS/COLUMNS"))
    var lines: String?

    @OptionGroup var scan: KeypadScanOptions

    static let option = "--keypad ROWS/COLUMNS"
    static let input = "keypad"
    static let simulated = "with --keypad a simulated keypad typed on"
    var isChosen: Bool { lines != nil }
    var strayOptions: String? {
        scan.isGiven ? "--scan-settle and --scan-interval say how --keypad scans a keypad: add --keypad ROWS/COLUMNS." : nil
    }

    func validate(with watch: WatchCommand) throws {
        let (rows, columns) = try Self.lines(lines ?? "")
        try scan.check(rows: rows.count, columns: columns.count)
    }

    /// `ROWS/COLUMNS` as its two lists of lines, each checked (`LineArgument`), at most 16 each.
    static func lines(_ text: String) throws -> (rows: [String], columns: [String]) {
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

    /// Watches the keypad on its rows and columns (or a simulated one typing at random).
    func watch(with watch: WatchCommand) throws {
        let (rows, columns) = try Self.lines(lines ?? "")
        let simulation = watch.simulation
        let signals = try signalDescriptor()
        let layout = KeypadSettings.defaultLayout(rows: rows.count, columns: columns.count)
        let matrix = scan.matrix(rows: rows.count, columns: columns.count)
        let source: KeypadSource
        let chipName: String
        if simulation.simulate {
            let typing = SimulatedTyping(layout: layout, code: nil, seed: simulation.chosenSeed(), presses: simulation.presses ?? 1_000, startNs: 0)
            source = KeypadSource.simulated(matrix, keyEdges: typing.keyEdges, startNs: 0)
            chipName = "simulated"
        } else {
            let (chip, bias, consumer) = (watch.chip, watch.bias.value, watch.consumer)
            let open = { () throws(GPIOError) -> (GPIODMatrixPort, String) in
                let inventory = ChipInventory.read()
                let rowPins = try inventory.locate(chip: chip, lines: rows)
                let columnPins = try inventory.locate(chip: chip, lines: columns)
                let port = try GPIODMatrixPort(
                    rows: rowPins.offsets.map { LineSelection(chip: rowPins.chip, offset: $0, bias: bias) },
                    columns: columnPins.offsets.map { LineSelection(chip: columnPins.chip, offset: $0, bias: .asIs) }, consumer: consumer)
                return (port, rowPins.chip.name)
            }
            let (port, name) = try opening(open)
            source = KeypadSource(configuration: matrix, port: port)
            chipName = name
        }
        let clock: LoopClock = simulation.simulate ? (simulation.virtualTime ? .virtual() : .realTime()) : .monotonic
        let assembly = RunAssembly.inputSources(
            [RunAssembly.NamedSource(name: "keypad", source: source)], places: layout.joined().map { _ in RunAssembly.LinePlace(chip: chipName, offset: 0) },
            clock: clock)
        let printer = watch.output.printer(lineFields: layout.joined().map { EventFields.key(String($0), keypad: "keypad") })
        let debounce = watch.debounce.configuration
        let loop = try makeLoop { () throws(LineError) in
            try assembly.loop(plan: PipelinePlan(lines: [LinePlan(debounce: debounce)]), sinks: [printer], stop: .signals(signals), limits: watch.limits)
        }
        _ = try runToEnd(loop) {
            let presses = (0..<matrix.keyCount).reduce(0) { $0 + (loop.pipeline.statistics(line: $1)?.presses ?? 0) }
            printToStandardError(
                "\(chipName) keypad \(rows.joined(separator: ","))/\(columns.joined(separator: ",")): \(counted(presses, "key press", "key presses")) from \(source.scanSummary)")
        }
    }
}
