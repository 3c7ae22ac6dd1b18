import CYAML

/// One libyaml event, copied out of C memory: what `YAMLComposer` needs to build nodes.
struct YAMLEvent {
    enum Kind {
        case streamStart, streamEnd, documentStart, documentEnd, alias, scalar, sequenceStart, sequenceEnd, mappingStart, mappingEnd
    }

    var kind: Kind
    /// A node's anchor (`&name`), or for an alias the name it refers to.
    var anchor: String?
    /// The explicit tag, expanded (`tag:yaml.org,2002:str` for `!!str`); nil when implicit.
    var tag: String?
    /// A scalar's text.
    var value = ""
    var style = YAMLNode.Scalar.Style.plain
    /// A collection start written in flow style (`[` or `{`) rather than by indentation.
    var isFlow = false
    /// Where the event starts (at its anchor or tag, if it has one) and ends.
    var start: YAMLMark
    var end: YAMLMark
    /// For a collection start: whether it nests deeper than the reader's limit (`gdy_nesting_exceeds`).
    var nestsTooDeep = false
}

/// libyaml's event parser over UTF-8 text: owns a `yaml_parser_t` (yaml_parser_initialize, freed by
/// yaml_parser_delete) reading from a buffer it borrows, and hands out events one at a time
/// (yaml_parser_parse), each freed (yaml_event_delete) once copied.
struct YAMLEventReader: ~Copyable {
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let nestingLimit: Int32

    /// A reader of `input`, which must stay valid, unchanged, until the reader is gone.
    init(input: UnsafeBufferPointer<UInt8>, nestingLimit: Int) throws(YAMLError) {
        parser = .allocate(capacity: 1)
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            throw .outOfMemory
        }
        self.nestingLimit = Int32(clamping: nestingLimit)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        if let base = input.baseAddress {
            yaml_parser_set_input_string(parser, base, input.count)
        }
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// The next event, or libyaml's error.
    mutating func next() throws(YAMLError) -> YAMLEvent {
        var raw = yaml_event_t()
        guard yaml_parser_parse(parser, &raw) == 1 else { throw error() }
        defer { yaml_event_delete(&raw) }
        var event = YAMLEvent(kind: .streamEnd, start: Self.mark(raw.start_mark), end: Self.mark(raw.end_mark))
        switch raw.type {
        case YAML_STREAM_START_EVENT: event.kind = .streamStart
        case YAML_STREAM_END_EVENT: event.kind = .streamEnd
        case YAML_DOCUMENT_START_EVENT: event.kind = .documentStart
        case YAML_DOCUMENT_END_EVENT: event.kind = .documentEnd
        case YAML_ALIAS_EVENT:
            event.kind = .alias
            event.anchor = Self.string(raw.data.alias.anchor)
        case YAML_SCALAR_EVENT:
            let scalar = raw.data.scalar
            event.kind = .scalar
            (event.anchor, event.tag) = (Self.string(scalar.anchor), Self.string(scalar.tag))
            event.value = scalar.value.map { Self.text(UnsafeBufferPointer(start: $0, count: scalar.length)) } ?? ""
            event.style = Self.style(scalar.style)
        case YAML_SEQUENCE_START_EVENT:
            let sequence = raw.data.sequence_start
            event.kind = .sequenceStart
            (event.anchor, event.tag) = (Self.string(sequence.anchor), sequence.implicit == 0 ? Self.string(sequence.tag) : nil)
            event.isFlow = sequence.style == YAML_FLOW_SEQUENCE_STYLE
            event.nestsTooDeep = gdy_nesting_exceeds(parser, nestingLimit)
        case YAML_SEQUENCE_END_EVENT: event.kind = .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            let mapping = raw.data.mapping_start
            event.kind = .mappingStart
            (event.anchor, event.tag) = (Self.string(mapping.anchor), mapping.implicit == 0 ? Self.string(mapping.tag) : nil)
            event.isFlow = mapping.style == YAML_FLOW_MAPPING_STYLE
            event.nestsTooDeep = gdy_nesting_exceeds(parser, nestingLimit)
        case YAML_MAPPING_END_EVENT: event.kind = .mappingEnd
        default: event.kind = .streamEnd  // YAML_NO_EVENT: libyaml returns it only after the stream's end.
        }
        return event
    }

    /// The parser's error as a `YAMLError`, with libyaml's words and 1-based positions.
    private func error() -> YAMLError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "cannot be read as YAML"
        switch state.error {
        case YAML_MEMORY_ERROR:
            return .outOfMemory
        case YAML_READER_ERROR:
            let character = state.problem_value >= 0 ? Unicode.Scalar(UInt32(state.problem_value)) : nil
            return .reader(problem: problem, byteOffset: state.problem_offset, character: character)
        default:
            let context = state.context.map { YAMLError.Context(text: String(cString: $0), mark: Self.mark(state.context_mark)) }
            return .syntax(problem: problem, mark: Self.mark(state.problem_mark), context: context)
        }
    }

    private static func mark(_ mark: yaml_mark_t) -> YAMLMark {
        YAMLMark(line: mark.line + 1, column: mark.column + 1)
    }

    /// A scalar's text from its UTF-8 bytes (libyaml has checked them), less a leading byte-order mark
    /// (U+FEFF): invisible in an editor, it would make a key that reads `on` another key. Yams, which
    /// decoded through Foundation, dropped it the same way.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        return String(decoding: bytes.starts(with: bom) ? UnsafeBufferPointer(rebasing: bytes.dropFirst(3)) : bytes, as: UTF8.self)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLNode.Scalar.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }
}
