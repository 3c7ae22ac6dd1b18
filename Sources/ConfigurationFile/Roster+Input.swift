extension Roster {
    /// One input of a run: a button, an encoder, a contact, a counter or a keypad, with its name, its
    /// settings and its lines.
    package struct Input: Sendable {
        /// Its name in the configuration (unique among all inputs).
        package var name: String
        /// What it is, with its settings.
        package var kind: Kind
        /// Its identity: its kind and name.
        package var id: InputID { InputID(kind.id, name) }
        /// Its lines, in the run's line order: one for a button, a sensor or a counter; A then B for an
        /// encoder, then its reset button's when it has one; a keypad's keys, row by row.
        package var lines: [LineID]

        /// The kinds of input, each with its settings. A new kind is a new case here, the lines it
        /// watches (`lineSettings`) and its words for messages; the switches that miss it do not compile.
        package enum Kind: Sendable {
            case button(ButtonConfiguration)
            case encoder(EncoderSettings)
            case sensor(SensorSettings)
            case counter(CounterSettings)
            case keypad(KeypadSettings)
        }
    }
}

extension Roster.Input.Kind {
    /// The lines an input of this kind watches, in order, each with its role and settings (nil for a
    /// keypad's key, which no pin carries).
    var lineSettings: [(Roster.Role, LineSettings?)] {
        switch self {
        case .button(let button): [(.single, button.lineSettings)]
        case .encoder(let encoder):
            [(.encoderA, encoder.lineA), (.encoderB, encoder.lineB)] + (encoder.reset.map { [(.encoderReset, $0.lineSettings)] } ?? [])
        case .sensor(let sensor): [(.single, sensor.lineSettings)]
        case .counter(let counter): [(.single, counter.lineSettings)]
        case .keypad(let keypad):
            (0..<keypad.matrix.rows).flatMap { row in (0..<keypad.matrix.columns).map { column in (Roster.Role.key(row: row, column: column), nil) } }
        }
    }

    /// Which kind it is.
    package var id: InputKindID {
        switch self {
        case .button: .button
        case .encoder: .encoder
        case .sensor: .sensor
        case .counter: .counter
        case .keypad: .keypad
        }
    }

    /// Its name, from its settings.
    var name: String {
        switch self {
        case .button(let button): button.name
        case .encoder(let encoder): encoder.name
        case .sensor(let sensor): sensor.name
        case .counter(let counter): counter.name
        case .keypad(let keypad): keypad.name
        }
    }

    /// What messages call an input of this kind: `button`, `encoder`, `sensor`, `counter`, `keypad`.
    package var noun: String { id.noun }

    /// The configuration's top-level key that lists inputs of this kind: `buttons`, `encoders`,
    /// `sensors`, `counters`, `keypads`.
    package var section: String { id.section }
}
