import ConfigurationFile

extension ConfigurationLoader {
    /// Parses `text` (the contents of `file`), its inputs of every kind (`InputKinds.sections`). With
    /// `programs`, every `run:` program (and `/bin/sh` for `shell:`) must be found and executable as
    /// `posix_spawnp` would find it; without, they are not looked up.
    public static func load(_ text: String, file: String, programs: ProgramLookup? = nil) throws(ConfigurationError) -> ServiceConfiguration {
        try load(text, file: file, programs: programs, sections: InputKinds.sections)
    }

    /// Parses the bytes of `file`: UTF-8, with or without a byte-order mark.
    public static func load(bytes: [UInt8], file: String, programs: ProgramLookup? = nil) throws(ConfigurationError) -> ServiceConfiguration {
        try load(bytes: bytes, file: file, programs: programs, sections: InputKinds.sections)
    }
}

extension InputKindID {
    /// Every kind, in the run's order (`InputKinds.sections`): the order their sections' inputs are watched in.
    package static let all: [InputKindID] = InputKinds.sections.kinds.map { $0.kind }
}

extension ServiceConfiguration {
    /// How many inputs of each kind it lists, in the order of `InputKindID.all`. Public for the
    /// `_Inputs` product's one user, the configuration's fuzzer (Fuzz/).
    public var inputCounts: [Int] { InputKindID.all.map { kind in roster.inputs.count { $0.kind == kind } } }

    /// Whether a run keeps anything in the state directory (`InputKinds.kept`: a meter's total, an
    /// encoder's position with `restore: true`).
    package var keepsState: Bool { !InputKinds.kept(of: roster).isEmpty }
}
