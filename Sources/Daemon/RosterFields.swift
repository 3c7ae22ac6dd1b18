import Actions
import Assembly
import ConfigurationFile
import EventOutput

extension Roster {
    /// What the printer writes with each line's events, in the roster's line order, from the input
    /// that owns the line and the line's place (`places`, in the same order). An encoder's lines have
    /// none: its rotations have fields of their own (`encoderFields`).
    package func lineFields(_ places: [RunAssembly.LinePlace]) -> [EventFields] {
        lines.map { line in
            let (input, place) = (input(owning: line.id), places[line.id.index])
            return switch input.kind {
            case .button: EventFields.button(input.name, chip: place.chip, line: place.offset)
            case .encoder: EventFields.none
            case .sensor: EventFields.sensor(input.name, chip: place.chip, line: place.offset)
            case .counter: EventFields.counter(input.name, chip: place.chip, line: place.offset)
            case .keypad(let keypad):
                if case .key(let row, let column) = line.owner.role {
                    EventFields.key(keypad.namesKey(keypad.key(row: row, column: column)) ? String(keypad.key(row: row, column: column)) : "?", keypad: input.name)
                } else {
                    EventFields.keypad(input.name)
                }
            }
        }
    }

    /// What the printer writes with each keypad's codes: its name.
    package var keypadFields: [Int: EventFields] {
        Dictionary(uniqueKeysWithValues: inputIndices(of: .keypad).map { ($0, EventFields.keypad(inputs[$0].name)) })
    }

    /// What the printer writes with each encoder's rotations: its name, its chip and its lines A and B.
    package func encoderFields(_ places: [RunAssembly.LinePlace]) -> [Int: EventFields] {
        Dictionary(
            uniqueKeysWithValues: zip(inputIndices(of: .encoder), encoders).map { input, encoder in
                (input, EventFields.encoder(encoder.settings.name, chip: places[encoder.lineA.index].chip, lines: [places[encoder.lineA.index].offset, places[encoder.lineB.index].offset]))
            })
    }

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
