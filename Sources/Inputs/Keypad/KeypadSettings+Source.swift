import Assembly
import ConfigurationFile
import DebounceCore
import GPIODBackend
import Keypads
import Simulation
import SystemPackage

extension KeypadSettings {
    package static var simulationHelp: String { "random keys typed per keypad (codes on one with code:)" }

    /// The seed offset of simulated keypads (buttons 0, encoders 1000, sensors 2000, counters 3000,
    /// reset buttons 4000): the `index`-th keypad types with the simulation's seed plus 5000 plus `index`.
    static let simulationSeedOffset: UInt64 = 5_000
    /// How many keys a simulated keypad types when the simulation gives no number of presses.
    static let simulatedPresses = 1_000

    /// This keypad simulated, the `index`-th keypad: a person typing (`SimulatedTyping`: random keys,
    /// or codes when it has `code:`, each followed by a key with an action of its own if it has any) on
    /// a matrix that answers its scan as a real one would, from `startNs`; `presses` keys (nil: 1000).
    /// Each key is placed at its row's line, as written (`SimulatedLineNumber`).
    package func simulatedSource(index: UInt64, seed: UInt64, presses: Int?, startNs: Int64) -> InputKinds.OwnSource? {
        let typing = SimulatedTyping(
            layout: layout, code: code, ownKeys: keysWithOwnActions, seed: seed &+ Self.simulationSeedOffset &+ index,
            presses: presses ?? Self.simulatedPresses, startNs: startNs)
        let source = RunAssembly.NamedSource(name: name, source: KeypadSource.simulated(matrix, keyEdges: typing.keyEdges, startNs: startNs))
        let places = keyRows.map { row in RunAssembly.LinePlace(chip: "simulated", offset: SimulatedLineNumber.of(rows[row].line, index: row)) }
        return (source, places)
    }

    /// This keypad on this machine's pins: `pins` are its rows then its columns as found (chip and
    /// offset), requested as a `GPIODMatrixPort` (its chips waited for if they go away). Each key is
    /// placed at its row's line.
    package func requestedSource(pins: [(chip: GPIOChip, offset: Int)]) throws(GPIOError) -> InputKinds.OwnSource? {
        guard pins.count == rows.count + columns.count else {
            throw .system(operation: "requesting keypad \(name)'s \(rows.count + columns.count) pins (\(pins.count) found)", errno: .invalidArgument)
        }
        let rowSelections = zip(pins.prefix(rows.count), rows).map { LineSelection(chip: $0.chip, offset: $0.offset, bias: $1.bias) }
        let columnSelections = pins.dropFirst(rows.count).prefix(columns.count).map { LineSelection(chip: $0.chip, offset: $0.offset, bias: .asIs) }
        let port = try GPIODMatrixPort(rows: rowSelections, columns: columnSelections, consumer: "gpio-debounce", waitsForVanishedChips: true)
        let source = RunAssembly.NamedSource(name: name, source: KeypadSource(configuration: matrix, port: port))
        return (source, keyRows.map { RunAssembly.LinePlace(chip: rowSelections[$0].chip.name, offset: rowSelections[$0].offset) })
    }

    /// Each key's row, row by row (the keys' line order).
    private var keyRows: [Int] { (0..<matrix.keyCount).map { $0 / matrix.columns } }
}
