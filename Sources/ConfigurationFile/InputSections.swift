/// The kinds of input a configuration may list, each by its settings' type, in the run's order (the
/// order of their sections' inputs in the roster). The loader knows kinds only through these, given
/// by the registry of kinds (`InputKinds.sections`, in Inputs).
package struct InputSections: Sendable {
    /// Each kind's settings' type, in the run's order.
    package let kinds: [any InputSettings.Type]

    package init(_ kinds: [any InputSettings.Type]) { self.kinds = kinds }

    /// The sections' keys, in the run's order: `buttons`, `encoders`, ...
    package var names: [String] { kinds.map { $0.kind.section } }

    /// The keys a configuration's top-level mapping may have.
    var topLevelKeys: [String] { ["defaults", "groups"] + names + ["keyboard", "mqtt", "socket", "api"] }

    /// What messages give as a start: the first two kinds' examples, "`buttons: [...]` or `encoders: [...]`".
    var examples: String { kinds.prefix(2).map { $0.example }.joined(separator: " or ") }

    /// The sections as messages list them: each key as "`buttons:`", joined by commas, with "or"
    /// before the last.
    var listed: String {
        let written = names.map { "`\($0):`" }
        return written.count < 2 ? written.joined() : written.dropLast().joined(separator: ", ") + " or " + (written.last ?? "")
    }
}
