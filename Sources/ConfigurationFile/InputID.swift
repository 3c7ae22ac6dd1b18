/// Which kind an input is: its raw value is the word messages call an input of the kind (`button`),
/// and the configuration lists them under the plural (`section`). Each kind declares its own in its
/// folder (`InputKindID.button`), beside its settings.
package struct InputKindID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The kind's word: `button`.
    package let rawValue: String

    package init(_ rawValue: String) { self.rawValue = rawValue }

    /// What messages call an input of this kind: `button`.
    package var noun: String { rawValue }
    /// The configuration's top-level key that lists inputs of this kind: `buttons`.
    package var section: String { rawValue + "s" }

    package var description: String { rawValue }

    package static func < (left: Self, right: Self) -> Bool { left.rawValue < right.rawValue }
}

/// The one identity of an input, from its configuration to its outputs: its kind and its name. Names
/// are unique among all of a file's inputs, so the name alone finds an input in a roster
/// (`Roster.index(of:)`); the kind tells a reload that an input of the same name became another kind.
package struct InputID: Hashable, Sendable, CustomStringConvertible {
    package var kind: InputKindID
    package var name: String

    package init(_ kind: InputKindID, _ name: String) {
        self.kind = kind
        self.name = name
    }

    /// As messages write it: `encoder 'volume'`.
    package var description: String { "\(kind.noun) '\(name)'" }
}
