import YAMLDocument

/// One input's settings, whatever its kind: what the configuration's reader, its roster and its
/// checks ask of every input. Each kind's settings conform in their kind's folder (in Inputs); the
/// registry of kinds lists them (`InputSections`, given by `InputKinds.sections`).
package protocol InputSettings: Sendable {
    /// Which kind it is.
    static var kind: InputKindID { get }
    /// Its name in the configuration.
    var name: String { get }

    /// Reads one entry of its kind's section (`InputKindID.section`): `key` names it in messages
    /// (`buttons[1]`), `index` is its place in the section, `context` what the file's other sections give.
    static func read(_ node: YAMLNode, key: String, index: Int, context: ConfigurationReader.Context) throws(ConfigurationError) -> Self
    /// How an entry of its section is written, for messages: "`- name: door` entries with `line:`".
    static var sectionExample: String { get }
    /// Its section with one entry, as a file may write it: "`buttons: [{name: door, line: 17}]`".
    static var example: String { get }
    /// The most entries its section may list.
    static var maximumEntries: Int { get }
    /// The lines it watches, in the run's line order, each with its role and where it is (nil for a
    /// line no pin carries, as a keypad's key).
    var watchedLines: [(role: Roster.Role, settings: LineSettings?)] { get }
    /// The pins it requests itself rather than its lines' (a keypad's rows and columns), each with
    /// what messages add to its name (`row 1`); empty: its lines' pins.
    var pinsOfItsOwn: [(what: String, settings: LineSettings)] { get }
    /// Where an entry of its section (`fields`, named `key`) writes its `pin`-th pin (in the order of
    /// `Roster.pins(of:)`): the node and its key (`keypads[0].columns[1]`); nil when not written there.
    static func place(ofPin pin: Int, in fields: [String: YAMLNode], key: String) -> (node: YAMLNode, key: String)?
    /// What messages call its line of role `role` after its name, when its role's words do not say
    /// (`key 5` for a keypad's key); nil: the role's.
    func label(of role: Roster.Role) -> String?
    /// Whether `other` is the same kind with the same settings (lines, debouncing, gestures, actions,
    /// keys, ...): what a reload keeps.
    func isSame(as other: any InputSettings) -> Bool
}

extension InputSettings {
    /// An entry of one line: its `line:`.
    package static func place(ofPin pin: Int, in fields: [String: YAMLNode], key: String) -> (node: YAMLNode, key: String)? {
        fields["line"].map { ($0, "\(key).line") }
    }
    package static var maximumEntries: Int { ConfigurationLoader.maximumLines }
    package var pinsOfItsOwn: [(what: String, settings: LineSettings)] { [] }
    package func label(of role: Roster.Role) -> String? { nil }
}

extension InputSettings where Self: Equatable {
    package func isSame(as other: any InputSettings) -> Bool { (other as? Self) == self }
}

/// The settings of a kind whose inputs have one line each (as a button): its one line, `.single`.
package protocol SingleLineSettings: InputSettings {
    /// Its line: chip, line, bias and kernel debouncing.
    var lineSettings: LineSettings { get }
}

extension SingleLineSettings {
    package var watchedLines: [(role: Roster.Role, settings: LineSettings?)] { [(.single, lineSettings)] }
}
