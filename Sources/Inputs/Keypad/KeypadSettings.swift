import ConfigurationFile
import DebounceCore
import Settings
import YAMLDocument

/// One matrix keypad of a configuration (`keypads:`): its row and column lines, the layout of its
/// keys, how it is scanned (`MatrixConfiguration`), how each key is debounced and which gestures it
/// reports, and what its keys and codes start. Each key is a line of the run (`Roster.Role.key`),
/// debounced and followed as a button's line is.
package struct KeypadSettings: Sendable, Equatable {
    package var name: String
    /// The row lines, top to bottom: inputs with edge detection, pulled up unless `bias:` says otherwise.
    package var rows: [LineSettings]
    /// The column lines, left to right: driven low one at a time while scanning, and all at once
    /// while waiting for a key; high impedance (inputs) otherwise.
    package var columns: [LineSettings]
    /// `layout[row][column]`: the key's name, one character (`keys: ["123A", ...]`).
    package var layout: [[Character]]
    /// The scan: rows and columns, diodes, settle time and interval.
    package var matrix: MatrixConfiguration
    /// Each key's debouncing (active low: a key down reads its row low).
    package var debounce: DebounceConfiguration
    /// Each key's gestures (`hold:`, `repeat:`, `clicks:`, `throttle:`).
    package var gestures: GestureConfiguration
    /// Commands its keys' events and its codes start.
    package var actions: [KeypadActionConfiguration] = []
    /// The key each key types on the virtual keyboard (`key_map:`); empty: none.
    package var keyMap: [Character: UInt16] = [:]
    /// PIN entry (`code:`), if any.
    package var code: CodeConfiguration?
    /// Whether MQTT gets the entered code itself (`publish_code: true`); otherwise only its length.
    package var publishCode = false

    /// The layout of a pad with 4 rows and 4 or 3 columns, as such pads are printed (`123A` … `*0#D`,
    /// `123` … `*0#`); nil for other sizes, which `keys:` must lay out.
    package static func standardLayout(rows: Int, columns: Int) -> [[Character]]? {
        guard rows == 4 else { return nil }
        switch columns {
        case 4: return ["123A", "456B", "789C", "*0#D"].map(Array.init)
        case 3: return ["123", "456", "789", "*0#"].map(Array.init)
        default: return nil
        }
    }

    /// The layout a keypad of this size has when none is written (`watch --keypad`, the demo): the
    /// printed one of a 4×4 or 4×3 pad (`standardLayout`), else 0-9, A-Z, a-z row by row, again from 0
    /// after the 62nd key.
    package static func defaultLayout(rows: Int, columns: Int) -> [[Character]] {
        if let standard = standardLayout(rows: rows, columns: columns) { return standard }
        let keys = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        return (0..<rows).map { row in (0..<columns).map { keys[(row * columns + $0) % keys.count] } }
    }

    /// The key at `row` and `column`.
    package func key(row: Int, column: Int) -> Character { layout[row][column] }

    /// The keys named in the `keys:` of an action on their events: each has a role of its own (a
    /// doorbell's), so none is a key of a code unless `allowed_keys:` says so (`ConfigurationReader`
    /// refuses a listed one).
    package var keysWithOwnActions: Set<Character> {
        Set(actions.flatMap { $0.on == .code ? [] : Array($0.keys ?? []) })
    }

    /// Whether events name `key`: on a keypad with `code:`, the keys a code is made of are secret and
    /// are written as `?`; its end, clear and back keys, and every key of a keypad without a code, are named.
    package func namesKey(_ key: Character) -> Bool {
        guard let code else { return true }
        return !code.collects(key)
    }
}

/// What starts a keypad's command: an event of its keys, as a button's (`on: press`, `release`,
/// `hold`, `long_release`, `repeat`, `click` with its count, nil for any), or an entered code (`on: code`).
package enum KeypadTrigger: Sendable, Hashable {
    case key(ButtonEvent.Kind, count: Int?)
    case code

    /// The word `on:` takes.
    package var name: String {
        switch self {
        case .key(let kind, _): kind.rawValue
        case .code: "code"
        }
    }
}

/// A command a keypad starts: on `on`, for the keys in `keys` (nil: any key; a code's has none).
package struct KeypadActionConfiguration: Sendable, Equatable {
    package var on: KeypadTrigger
    package var keys: Set<Character>?
    package var action: Action
}

extension KeypadSettings: InputSettings {
    package static var kind: InputKindID { .keypad }
    package static var sectionExample: String { "`- name: door` entries with `rows:` and `columns:`" }
    package static var example: String { "`keypads: [{name: door, rows: [5, 6, 13, 19], columns: [12, 16, 20, 21]}]`" }

    package static func read(_ node: YAMLNode, key: String, index: Int, context: ConfigurationReader.Context) throws(ConfigurationError) -> Self {
        try context.reader.readKeypad(node, key: key, index: index, defaults: context.defaults)
    }
    /// Its keys, row by row: lines of the run that no pin carries (its scan makes their edges).
    package var watchedLines: [(role: Roster.Role, settings: LineSettings?)] {
        (0..<matrix.rows).flatMap { row in (0..<matrix.columns).map { column in (Roster.Role.key(row: row, column: column), nil) } }
    }
    /// Its rows, then its columns.
    package var pinsOfItsOwn: [(what: String, settings: LineSettings)] {
        rows.enumerated().map { ("row \($0 + 1)", $1) } + columns.enumerated().map { ("column \($0 + 1)", $1) }
    }
    /// Its rows' items, then its columns' (`keypads[0].columns[1]`).
    package static func place(ofPin pin: Int, in fields: [String: YAMLNode], key: String) -> (node: YAMLNode, key: String)? {
        guard case .sequence(let rows)? = fields["rows"] else { return nil }
        if pin < rows.count { return (rows[pin], "\(key).rows[\(pin)]") }
        guard case .sequence(let columns)? = fields["columns"], pin - rows.count < columns.count else { return nil }
        return (columns[pin - rows.count], "\(key).columns[\(pin - rows.count)]")
    }

    /// A key by its character (`key 5`).
    package func label(of role: Roster.Role) -> String? {
        for row in 0..<matrix.rows {
            for column in 0..<matrix.columns where Roster.Role.key(row: row, column: column) == role { return "key \(key(row: row, column: column))" }
        }
        return nil
    }
}

extension ServiceConfiguration {
    /// Matrix keypads (`keypads:`).
    package var keypads: [KeypadSettings] { roster.inputs(of: KeypadSettings.self).map(\.settings) }
}

extension Roster {
    /// The keypads, in order, each with its keys' lines (row by row: `keys[row * columns + column]`).
    package var keypads: [(settings: KeypadSettings, keys: [LineID])] { inputs(of: KeypadSettings.self).map { ($0.settings, $0.lines) } }
}

extension InputKindID {
    /// A matrix keypad (`keypads:`).
    package static let keypad = InputKindID("keypad")
}

extension Roster.Role {
    /// A keypad's key, at `row` and `column` of its matrix (from 0): `key 1,1` is the top left one.
    package static func key(row: Int, column: Int) -> Roster.Role { Roster.Role("key \(row + 1),\(column + 1)") }
}
