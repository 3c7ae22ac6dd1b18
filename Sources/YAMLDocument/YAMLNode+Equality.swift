/// Node equality as YAML defines it for mapping keys: the same kind, the same content and the same
/// resolved tag. Marks and styles do not count, so `name` and `"name"` are equal (both strings), but
/// `1` (an integer) and `"1"` (a string) are not.
extension YAMLNode: Hashable {
    package static func == (lhs: YAMLNode, rhs: YAMLNode) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let left), .scalar(let right)):
            left.string == right.string && left.resolvedTag == right.resolvedTag
        case (.sequence(let left), .sequence(let right)):
            left.resolvedTag == right.resolvedTag && left.nodes == right.nodes
        case (.mapping(let left), .mapping(let right)):
            left.resolvedTag == right.resolvedTag && left.pairs.count == right.pairs.count
                && zip(left.pairs, right.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default:
            false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .scalar(let scalar):
            hasher.combine(scalar.string)
            hasher.combine(scalar.resolvedTag)
        case .sequence(let sequence):
            hasher.combine(sequence.resolvedTag)
            hasher.combine(sequence.nodes)
        case .mapping(let mapping):
            hasher.combine(mapping.resolvedTag)
            for pair in mapping.pairs {
                hasher.combine(pair.key)
                hasher.combine(pair.value)
            }
        }
    }
}

extension YAMLNode.Scalar {
    /// The tag that decides what the scalar is: its explicit tag; `!!str` for a quoted or block scalar
    /// and for the non-specific tag `!`; for a plain scalar without a tag, the type its text has under
    /// YAML 1.1's implicit rules (`YAMLTagResolver`).
    package var resolvedTag: String {
        switch tag {
        case nil: style == .plain ? YAMLTagResolver.tag(ofPlain: string) : YAMLTagResolver.str
        case "!": YAMLTagResolver.str
        case let tag?: tag
        }
    }
}

extension YAMLNode.Sequence {
    /// The explicit tag, or `!!seq`.
    package var resolvedTag: String { tag.flatMap { $0 == "!" ? nil : $0 } ?? YAMLTagResolver.prefix + "seq" }
}

extension YAMLNode.Mapping {
    /// The explicit tag, or `!!map`.
    package var resolvedTag: String { tag.flatMap { $0 == "!" ? nil : $0 } ?? YAMLTagResolver.prefix + "map" }
}
