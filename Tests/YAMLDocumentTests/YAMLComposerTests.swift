import Testing
import YAMLDocument

/// YAML text to nodes through libyaml: positions, styles, keys, aliases, and what is refused.
@Suite struct YAMLComposerTests {
    static func compose(_ text: String) throws(YAMLError) -> YAMLNode {
        guard let node = try YAMLNode.compose(text) else { throw .syntax(problem: "no document", mark: YAMLMark(line: 0, column: 0), context: nil) }
        return node
    }

    static func error(_ text: String) -> YAMLError? {
        do {
            _ = try YAMLNode.compose(text)
            return nil
        } catch {
            return error
        }
    }

    static func mark(_ line: Int, _ column: Int) -> YAMLMark { YAMLMark(line: line, column: column) }

    @Test func nodesKeepTheirPositionsOrderAndStyles() throws {
        let root = try Self.compose("top:\n  - {name: 'a b', line: 17}\n  - \"x\"\n  - |\n    text\n  - >\n    folded\nnext: ~\n")
        guard case .mapping(let top) = root else { Issue.record("not a mapping: \(root)"); return }
        #expect(top.mark == Self.mark(1, 1))
        #expect(top.keys.map(\.string) == ["top", "next"])
        #expect(top.keys.map(\.mark) == [Self.mark(1, 1), Self.mark(8, 1)])
        guard case .sequence(let list)? = top["top"] else { Issue.record("no list"); return }
        #expect(list.mark == Self.mark(2, 3) && list.count == 4)
        guard case .mapping(let button) = list[0] else { Issue.record("no button"); return }
        #expect(button.mark == Self.mark(2, 5))
        #expect(button.pairs.map { $0.value.mark } == [Self.mark(2, 12), Self.mark(2, 25)])
        var styles: [YAMLNode.Scalar.Style] = []
        for node in [button["name"], button["line"], list[1], list[2], list[3], top["next"]] {
            if case .scalar(let scalar)? = node { styles.append(scalar.style) }
        }
        #expect(styles == [.singleQuoted, .plain, .doubleQuoted, .literal, .folded, .plain])
        #expect(list[2].string == "text\n" && list[3].string == "folded\n" && top["next"]?.string == "~")
        #expect(button["name"]?.string == "a b" && list[1].isSequence == false && top["top"]?.isSequence == true)
    }

    @Test func escapesMayGiveNulCharacters() throws {
        #expect(try Self.compose("\"a\\0b\"").string == "a\0b")
    }

    /// A byte-order mark pasted at the start of a key or value is invisible: it is dropped.
    @Test func aScalarsLeadingByteOrderMarkIsDropped() throws {
        guard case .mapping(let mapping) = try Self.compose("{x: 1, \u{FEFF}on: \"\u{FEFF}\u{FEFF}a\"}") else { Issue.record("not a mapping"); return }
        #expect(mapping.keys.map(\.string) == ["x", "on"])
        #expect(mapping["on"]?.string == "\u{FEFF}a")
    }

    @Test(arguments: ["", "   \n\n", "# only a comment\n"])
    func textWithoutADocumentIsNil(text: String) throws {
        #expect(try YAMLNode.compose(text) == nil)
    }

    @Test func aSecondDocumentIsRefused() {
        #expect(Self.error("a: 1\n---\nb: 2\n") == .syntax(
            problem: "but found another document", mark: Self.mark(2, 1),
            context: .init(text: "expected a single document in the stream", mark: Self.mark(1, 1))))
    }

    // MARK: Keys

    @Test(arguments: [
        ("a: 1\na: 2\n", "a", (2, 1), (1, 1)),
        ("b: 1\na: 1\nb: 2\na: 2\n", "b", (3, 1), (1, 1)),
        ("name: 1\n\"name\": 2\n", "name", (2, 1), (1, 1)),
        ("on: 1\n!!bool on: 2\n", "on", (2, 1), (1, 1)),
        ("x:\n  k: 1\n  k: 2\n", "k", (3, 3), (2, 3)),
    ])
    func equalKeysAreRefusedWhereTheyRepeat(text: String, key: String, repeated: (Int, Int), first: (Int, Int)) {
        #expect(Self.error(text) == .duplicateKey(key: key, mark: Self.mark(repeated.0, repeated.1), first: Self.mark(first.0, first.1)))
    }

    /// Keys of one text but different types are different keys: both stay, in order.
    @Test(arguments: ["1: a\n\"1\": b\n", "on: a\n'on': b\n", "~: a\n\"~\": b\n", "017: a\n!!str 017: b\n"])
    func keysThatDifferInTypeBothStay(text: String) throws {
        guard case .mapping(let mapping) = try Self.compose(text) else { Issue.record("not a mapping"); return }
        #expect(mapping.count == 2 && mapping.keys[0].string == mapping.keys[1].string)
        #expect(mapping.pairs.map { $0.value.string } == ["a", "b"])
    }

    // MARK: Aliases

    @Test func anAliasIsACopyOfItsAnchoredNodeWithItsPosition() throws {
        guard case .mapping(let top) = try Self.compose("a: &x [1, 2]\nb: *x\n") else { Issue.record("not a mapping"); return }
        guard case .sequence(let alias)? = top["b"] else { Issue.record("not a list"); return }
        #expect(alias.map(\.string) == ["1", "2"])
        #expect(alias.mark == Self.mark(1, 4))
    }

    @Test func aLaterAnchorOfTheSameNameReplacesTheEarlierOne() throws {
        guard case .mapping(let top) = try Self.compose("a: &x one\nb: &x two\nc: *x\n") else { Issue.record("not a mapping"); return }
        #expect(top["c"]?.string == "two")
    }

    @Test(arguments: [("a: *nowhere\n", 1, 4), ("a: &x [1, *x]\n", 1, 11)])
    func anUndefinedAliasIsRefused(text: String, line: Int, column: Int) {
        #expect(Self.error(text) == .syntax(problem: "found undefined alias", mark: Self.mark(line, column), context: nil))
    }

    /// A few lines of aliases of lists of aliases stand for billions of nodes: refused at once.
    @Test func anAliasBombIsRefused() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        let start = ContinuousClock.now
        let error = Self.error(text)
        #expect(ContinuousClock.now - start < .seconds(2))
        guard case .aliasesExpandTooFar(let limit, let mark)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(limit == YAMLNode.maximumAliasedNodes && mark.line == 5)
        // Sharing within the limit stays allowed.
        #expect(Self.error("a: &a [1, 2, 3]\nb: [*a, *a, *a, *a]\n") == nil)
    }

    // MARK: Nesting and libyaml's errors

    @Test func nestingDeeperThanTheLimitIsRefused() throws {
        let error = Self.error("key: " + String(repeating: "[", count: 5_000))
        guard case .nestedTooDeep(let limit, let mark, let context)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(limit == 1000 && mark.line == 1 && context.text == "while parsing")
        let allowed = String(repeating: "[", count: 900) + String(repeating: "]", count: 900)
        #expect(throws: Never.self) { try YAMLNode.compose(allowed) }
        var block = ""
        for level in 0..<1_100 { block += String(repeating: " ", count: level) + "k:\n" }
        guard case .nestedTooDeep? = Self.error(block + String(repeating: " ", count: 1_100) + "v\n") else { Issue.record("deep block mappings"); return }
    }

    @Test func libyamlsProblemsKeepTheirWordsAndPositions() {
        #expect(Self.error("a: [1\nb: 2\n") == .syntax(
            problem: "did not find expected ',' or ']'", mark: Self.mark(2, 2),
            context: .init(text: "while parsing a flow sequence", mark: Self.mark(1, 4))))
        #expect(Self.error("a: 1\nb: \u{1B}x\n") == .reader(problem: "control characters are not allowed", byteOffset: 8, character: "\u{1B}"))
    }
}
