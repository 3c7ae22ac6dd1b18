extension YAMLNode {
    /// The deepest nesting of lists and mappings composed, as libyaml's later releases allow by default.
    package static let maximumNesting = 1000
    /// The most nodes all aliases of a document may stand for together: far more than any real
    /// configuration shares, far fewer than a few lines of aliases of aliases reach.
    package static let maximumAliasedNodes = 100_000

    /// The single document in `text` (UTF-8 YAML 1.1, as libyaml reads it), or nil when the text holds
    /// none (empty, or blanks and comments only). Aliases are resolved to copies of their anchored node;
    /// a mapping with two equal keys, a second document, lists and mappings nested deeper than
    /// `maximumNesting`, or aliases standing for more than `maximumAliasedNodes` nodes are errors.
    package static func compose(
        _ text: String, maximumNesting: Int = maximumNesting, maximumAliasedNodes: Int = maximumAliasedNodes
    ) throws(YAMLError) -> YAMLNode? {
        guard !text.isEmpty else { return nil }
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(YAMLError) -> YAMLNode? in
                var composer = YAMLComposer(
                    reader: try YAMLEventReader(input: buffer, nestingLimit: maximumNesting),
                    nestingLimit: maximumNesting, aliasLimit: maximumAliasedNodes)
                return try composer.singleDocument()
            }
        }
        return try result.get()
    }
}

/// Builds nodes from libyaml's events without recursion (an explicit stack of open collections), the
/// way Yams' `compose` did: anchors are registered when their node is complete (so an alias inside its
/// own anchor is undefined, and a later anchor of the same name replaces an earlier one), and each
/// mapping's keys are checked for repeats as it closes.
struct YAMLComposer: ~Copyable {
    /// An open sequence or mapping: its start event, the nodes so far (a mapping's keys and values in
    /// turn), and how many nodes it stands for with its aliases expanded.
    private struct Open {
        var start: YAMLEvent
        var nodes: [YAMLNode] = []
        var weight = 1
    }

    var reader: YAMLEventReader
    let nestingLimit: Int
    let aliasLimit: Int
    /// Each anchor's node and how many nodes it stands for.
    private var anchors: [String: (node: YAMLNode, weight: Int)] = [:]
    /// How many nodes the aliases read so far stand for.
    private var aliased = 0

    init(reader: consuming YAMLEventReader, nestingLimit: Int, aliasLimit: Int) {
        self.reader = reader
        self.nestingLimit = nestingLimit
        self.aliasLimit = aliasLimit
    }

    /// The stream's only document, or nil for an empty stream.
    mutating func singleDocument() throws(YAMLError) -> YAMLNode? {
        _ = try reader.next()  // STREAM-START
        guard try reader.next().kind == .documentStart else { return nil }
        let root = try node(from: try reader.next())
        _ = try reader.next()  // DOCUMENT-END
        let after = try reader.next()
        guard after.kind == .streamEnd else {
            throw .syntax(
                problem: "but found another document", mark: after.start,
                context: .init(text: "expected a single document in the stream", mark: YAMLMark(line: 1, column: 1)))
        }
        return root
    }

    /// The node that starts with `first`, reading events up to its end.
    private mutating func node(from first: YAMLEvent) throws(YAMLError) -> YAMLNode {
        var open: [Open] = []
        var event = first
        while true {
            let done: (node: YAMLNode, weight: Int)
            switch event.kind {
            case .alias:
                guard let name = event.anchor, let anchored = anchors[name] else {
                    throw .syntax(problem: "found undefined alias", mark: event.start, context: nil)
                }
                aliased += anchored.weight
                guard aliased <= aliasLimit else { throw .aliasesExpandTooFar(limit: aliasLimit, mark: event.start) }
                done = anchored
            case .scalar:
                done = (.scalar(YAMLNode.Scalar(event.value, style: event.style, tag: event.tag, mark: event.start)), 1)
                register(event.anchor, done)
            case .sequenceStart, .mappingStart:
                if event.nestsTooDeep {
                    // Where libyaml reports it: at the `[` or `{` (the event ends after it), or where an
                    // indented collection starts.
                    let mark = event.isFlow ? YAMLMark(line: event.end.line, column: event.end.column - 1) : event.end
                    throw .nestedTooDeep(limit: nestingLimit, mark: mark, context: .init(text: "while parsing", mark: event.start))
                }
                open.append(Open(start: event))
                event = try reader.next()
                continue
            case .sequenceEnd, .mappingEnd:
                guard let closed = open.popLast() else { throw Self.unexpected(event) }
                done = (try Self.collection(closed), closed.weight)
                register(closed.start.anchor, done)
            case .streamStart, .streamEnd, .documentStart, .documentEnd:
                throw Self.unexpected(event)
            }
            guard !open.isEmpty else { return done.node }
            open[open.count - 1].nodes.append(done.node)
            open[open.count - 1].weight += done.weight
            event = try reader.next()
        }
    }

    private mutating func register(_ anchor: String?, _ node: (node: YAMLNode, weight: Int)) {
        if let anchor { anchors[anchor] = node }
    }

    /// The sequence or mapping `open` holds, once its end event is read.
    private static func collection(_ open: Open) throws(YAMLError) -> YAMLNode {
        let start = open.start
        guard start.kind == .mappingStart else { return .sequence(YAMLNode.Sequence(open.nodes, tag: start.tag, mark: start.start)) }
        let pairs = stride(from: 0, to: open.nodes.count - 1, by: 2).map { (key: open.nodes[$0], value: open.nodes[$0 + 1]) }
        if pairs.count > 1 { try checkKeys(pairs.map(\.key)) }
        return .mapping(YAMLNode.Mapping(pairs, tag: start.tag, mark: start.start))
    }

    /// Throws `duplicateKey` at the first key (in text order) that repeats an earlier one, naming both
    /// places: the repetition is what the user has to remove or rename.
    private static func checkKeys(_ keys: [YAMLNode]) throws(YAMLError) {
        var firsts: [YAMLNode: Int] = [:]
        for (index, key) in keys.enumerated() {
            if let first = firsts[key] { throw .duplicateKey(key: key.string, mark: key.mark, first: keys[first].mark) }
            firsts[key] = index
        }
    }

    /// An event libyaml's parser never gives in this place.
    private static func unexpected(_ event: YAMLEvent) -> YAMLError {
        .syntax(problem: "found an unexpected \(event.kind) event", mark: event.start, context: nil)
    }
}
