/// A position in YAML text: 1-based line and column, columns counted in characters (Unicode scalars),
/// as libyaml counts them.
package struct YAMLMark: Hashable, Sendable, CustomStringConvertible {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package var description: String { "line \(line), column \(column)" }
}

/// One node of a composed YAML document: a scalar, a sequence or a mapping, each with the position
/// where it starts. An alias (`*name`) is composed as a copy of the node its anchor (`&name`) names,
/// marks included, so it reports the anchored node's position; copies share their storage.
package enum YAMLNode: Sendable {
    case scalar(Scalar)
    case sequence(Sequence)
    case mapping(Mapping)

    /// A scalar: its text (after escapes and folding, less a leading U+FEFF; it may hold NUL characters), how it was written,
    /// and its explicit tag, if any.
    package struct Scalar: Sendable {
        /// How a scalar was written; only `plain` scalars are subject to implicit typing (`~`, `on`, `017`).
        package enum Style: Sendable, Equatable {
            case plain, singleQuoted, doubleQuoted, literal, folded
        }

        package var string: String
        package var style: Style
        /// The explicit tag as libyaml expands it (`tag:yaml.org,2002:str` for `!!str`), or nil.
        package var tag: String?
        package var mark: YAMLMark

        package init(_ string: String, style: Style = .plain, tag: String? = nil, mark: YAMLMark = YAMLMark(line: 1, column: 1)) {
            self.string = string
            self.style = style
            self.tag = tag
            self.mark = mark
        }
    }

    /// A sequence's items in order.
    package struct Sequence: RandomAccessCollection, Sendable {
        package var nodes: [YAMLNode]
        package var tag: String?
        package var mark: YAMLMark

        package init(_ nodes: [YAMLNode], tag: String? = nil, mark: YAMLMark = YAMLMark(line: 1, column: 1)) {
            self.nodes = nodes
            self.tag = tag
            self.mark = mark
        }

        package var startIndex: Int { nodes.startIndex }
        package var endIndex: Int { nodes.endIndex }
        package subscript(position: Int) -> YAMLNode { nodes[position] }
    }

    /// A mapping's entries in the order written. Keys equal as YAML defines it (the same text and the
    /// same resolved tag) are refused when the document is composed, but keys that differ only in tag
    /// (`1` and `"1"`) both stay, so a reader that goes by text alone must check for repeats itself.
    package struct Mapping: RandomAccessCollection, Sendable {
        package typealias Element = (key: YAMLNode, value: YAMLNode)

        package var pairs: [Element]
        package var tag: String?
        package var mark: YAMLMark

        package init(_ pairs: [Element], tag: String? = nil, mark: YAMLMark = YAMLMark(line: 1, column: 1)) {
            self.pairs = pairs
            self.tag = tag
            self.mark = mark
        }

        package var startIndex: Int { pairs.startIndex }
        package var endIndex: Int { pairs.endIndex }
        package subscript(position: Int) -> Element { pairs[position] }

        /// The keys in order.
        package var keys: [YAMLNode] { pairs.map(\.key) }

        /// The value of the first key that is a scalar with this text, or nil.
        package subscript(key: String) -> YAMLNode? {
            pairs.first { $0.key.string == key }?.value
        }
    }

    /// Where the node starts (for an alias: where the anchored node starts).
    package var mark: YAMLMark {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .sequence(let sequence): sequence.mark
        case .mapping(let mapping): mapping.mark
        }
    }

    /// A scalar's text; nil for a sequence or a mapping.
    package var string: String? {
        if case .scalar(let scalar) = self { return scalar.string }
        return nil
    }

    package var isSequence: Bool {
        if case .sequence = self { return true }
        return false
    }
}
