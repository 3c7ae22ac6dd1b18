import Assembly
import ConfigurationFile
import DebounceCore
import GPIODBackend
import Keypads
import Simulation

extension DaemonAssembly {
    /// The seed offset of simulated keypads (buttons 0, encoders 1000, sensors 2000, counters 3000,
    /// reset buttons 4000): the `index`-th keypad types with the simulation's seed plus 5000 plus `index`.
    static let keypadSeedOffset: UInt64 = 5_000
    /// How many keys a simulated keypad types when the simulation gives no number of presses.
    static let simulatedKeypadPresses = 1_000

    /// A simulated keypad for each configured keypad: a person typing (`SimulatedTyping`: random keys,
    /// or codes when it has `code:`, each followed by a key with an action of its own if it has any) on a matrix that answers its scan as a real one would, from `startNs`.
    /// Each key is placed at its row's line, as written (`SimulatedLineNumber`).
    static func simulatedKeypads(
        _ configuration: ServiceConfiguration, _ simulation: DaemonChoices.Simulation, startNs: Int64
    ) -> (sources: [RunAssembly.NamedKeypad], places: [RunAssembly.LinePlace]) {
        var sources: [RunAssembly.NamedKeypad] = []
        var places: [RunAssembly.LinePlace] = []
        for (index, keypad) in configuration.keypads.enumerated() {
            let typing = SimulatedTyping(
                layout: keypad.layout, code: keypad.code, ownKeys: keypad.keysWithOwnActions, seed: simulation.seed &+ keypadSeedOffset &+ UInt64(index),
                presses: simulation.presses ?? simulatedKeypadPresses, startNs: startNs)
            sources.append(RunAssembly.NamedKeypad(name: keypad.name, source: KeypadSource.simulated(keypad.matrix, contacts: typing.contacts, startNs: startNs)))
            places += keyRows(keypad).map { row in
                RunAssembly.LinePlace(chip: "simulated", offset: SimulatedLineNumber.of(keypad.rows[row].line, index: row))
            }
        }
        return (sources, places)
    }

    /// Each configured keypad on this machine's pins: `located` are its rows then its columns as found
    /// (`MachineCheck`, in `Roster.pins` order), requested as a `GPIODMatrixPort`. Each key is placed at
    /// its row's line.
    static func requestedKeypads(
        _ configuration: ServiceConfiguration, located: ArraySlice<MachineCheck.Located<GPIOChip>>
    ) throws(GPIOError) -> (sources: [RunAssembly.NamedKeypad], places: [RunAssembly.LinePlace]) {
        var sources: [RunAssembly.NamedKeypad] = []
        var places: [RunAssembly.LinePlace] = []
        var next = located.startIndex
        for keypad in configuration.keypads {
            let pins = located[next..<(next + keypad.rows.count + keypad.columns.count)]
            next = pins.endIndex
            let rows = zip(pins.prefix(keypad.rows.count), keypad.rows).map { LineSelection(chip: $0.place, offset: $0.offset, bias: $1.bias) }
            let columns = pins.suffix(keypad.columns.count).map { LineSelection(chip: $0.place, offset: $0.offset, bias: .asIs) }
            let port = try GPIODMatrixPort(rows: rows, columns: columns, consumer: "gpio-debounce", waitsForVanishedChips: true)
            sources.append(RunAssembly.NamedKeypad(name: keypad.name, source: KeypadSource(configuration: keypad.matrix, port: port)))
            places += keyRows(keypad).map { RunAssembly.LinePlace(chip: rows[$0].chip.name, offset: rows[$0].offset) }
        }
        return (sources, places)
    }

    /// Each key's row, row by row (the keys' line order).
    private static func keyRows(_ keypad: KeypadSettings) -> [Int] {
        (0..<keypad.matrix.keyCount).map { $0 / keypad.matrix.columns }
    }
}
