/// One input's settings, whatever its kind: what the roster and the configuration's checks ask of
/// every input. Each kind's settings conform beside their type; `Roster.Input.Kind.settings` is the
/// one place that lists them.
package protocol InputSettings: Sendable {
    /// Which kind it is.
    static var kind: InputKindID { get }
    /// Its name in the configuration.
    var name: String { get }
    /// The lines it watches, in the run's line order, each with its role and where it is (nil for a
    /// line no pin carries, as a keypad's key).
    var watchedLines: [(role: Roster.Role, settings: LineSettings?)] { get }
    /// The pins it requests itself rather than its lines' (a keypad's rows and columns), each with
    /// what messages add to its name (`row 1`); empty: its lines' pins.
    var pinsOfItsOwn: [(what: String, settings: LineSettings)] { get }
    /// What messages call its line of role `role` after its name, when its role's words do not say
    /// (`key 5` for a keypad's key); nil: the role's.
    func label(of role: Roster.Role) -> String?
    /// Whether `other` is the same kind with the same settings (lines, debouncing, gestures, actions,
    /// keys, ...): what a reload keeps.
    func isSame(as other: any InputSettings) -> Bool
}

extension InputSettings {
    package var pinsOfItsOwn: [(what: String, settings: LineSettings)] { [] }
    package func label(of role: Roster.Role) -> String? { nil }
}

extension InputSettings where Self: Equatable {
    package func isSame(as other: any InputSettings) -> Bool { (other as? Self) == self }
}
