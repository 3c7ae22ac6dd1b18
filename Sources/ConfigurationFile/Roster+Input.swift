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

        /// The kinds of input, each with its settings (`InputSettings`). A new kind is a new case here
        /// and in `settings`.
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
    /// Its settings, as every kind's answer what the roster asks (`InputSettings`): the one list of
    /// the kinds' settings.
    package var settings: any InputSettings {
        switch self {
        case .button(let button): button
        case .encoder(let encoder): encoder
        case .sensor(let sensor): sensor
        case .counter(let counter): counter
        case .keypad(let keypad): keypad
        }
    }

    /// Which kind it is.
    package var id: InputKindID { type(of: settings).kind }

    /// Its name, from its settings.
    var name: String { settings.name }

    /// What messages call an input of this kind: `button`, `encoder`, `sensor`, `counter`, `keypad`.
    package var noun: String { id.noun }

    /// The configuration's top-level key that lists inputs of this kind: `buttons`, `encoders`,
    /// `sensors`, `counters`, `keypads`.
    package var section: String { id.section }
}
