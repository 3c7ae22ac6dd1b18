import Actions
import Assembly
import ConfigurationFile

extension Roster {
    /// What the actions' environment calls each line, in the roster's line order: its label
    /// (`volume (A)` for an encoder's, `door key 5` for a keypad's), chip and offset, and for a key its
    /// keypad and character.
    package func actionNames(_ places: [RunAssembly.LinePlace]) -> [ActionRunner.LineName] {
        lines.map { line in
            var name = ActionRunner.LineName(button: label(of: line.id), chip: places[line.id.index].chip, offset: places[line.id.index].offset)
            if case .key(let row, let column) = line.owner.role, case .keypad(let keypad) = input(owning: line.id).kind {
                name.key = (keypad.name, String(keypad.key(row: row, column: column)))
            }
            return name
        }
    }
}
