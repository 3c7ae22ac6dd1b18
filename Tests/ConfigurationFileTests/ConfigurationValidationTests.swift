import ConfigurationFile
import Foundation
import Testing

/// Every configuration a user could get wrong is refused with file:line:column, the key and what is
/// allowed; no message quotes more than a short, escaped excerpt of the file, and a file that is not
/// recognisably a configuration is not quoted at all.
@Suite struct ConfigurationValidationTests {
    /// The error `text` gives, or nil if it loads.
    static func failure(_ text: String, programs: ProgramLookup? = nil) -> ConfigurationError? {
        do {
            _ = try ConfigurationLoader.load(text, file: "b.yaml", programs: programs)
            return nil
        } catch {
            return error
        }
    }

    static func failure(bytes: [UInt8]) -> ConfigurationError? {
        do {
            _ = try ConfigurationLoader.load(bytes: bytes, file: "b.yaml")
            return nil
        } catch {
            return error
        }
    }

    /// One button with `extra` keys (flow style), e.g. `hold: 0ms`.
    static func button(_ extra: String) -> String { "buttons:\n  - {name: a, line: 1, \(extra)}\n" }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    // MARK: One line, one button

    @Test(arguments: [
        // Both on the default chip (offsets mean the 40-pin header's chip), the same offset.
        ("buttons:\n  - {name: a, line: 17}\n  - {name: b, line: 17}\n", "b.yaml:3:21: buttons[1].line: line 17 of the 40-pin header's chip is already the line of button 'a' (buttons[0])"),
        // The same chip as written, the same offset.
        ("buttons:\n  - {name: a, line: 4, chip: pinctrl-rp1}\n  - {name: b, line: 4, chip: pinctrl-rp1}\n", "buttons[1].line: line 4 of 'pinctrl-rp1' is already the line of button 'a'"),
        // gpiochip0 written two ways.
        ("buttons:\n  - {name: a, line: 5, chip: 0}\n  - {name: b, line: 5, chip: /dev/gpiochip0}\n", "line 5 of 'gpiochip0' is already"),
        // The same name, on the chip that has it.
        ("buttons:\n  - {name: a, line: GPIO17}\n  - {name: b, line: GPIO17}\n", "the line named 'GPIO17' (on the chip that has it) is already the line of button 'a'"),
        ("defaults: {chip: gpiochip1}\nbuttons:\n  - {name: a, line: GPIO17}\n  - {name: b, line: GPIO17}\n", "the line named 'GPIO17' of 'gpiochip1' is already"),
    ])
    func aLineServesOneButton(text: String, message: String) throws {
        let error = try #require(Self.failure(text))
        #expect(error.description.contains(message), "\(error)")
        #expect(error.description.contains("one line serves one input"))
    }

    @Test func theSameOffsetOnAnotherChipIsAnotherLine() {
        #expect(Self.failure("buttons:\n  - {name: a, line: 17}\n  - {name: b, line: 17, chip: gpiochip1}\n  - {name: c, line: GPIO17}\n") == nil)
        // Which chip the header's is depends on the machine (gpiochip4 on a Pi 5 with an older kernel):
        // `run` refuses these two where they are one line.
        #expect(Self.failure("buttons:\n  - {name: a, line: 5}\n  - {name: b, line: 5, chip: gpiochip0}\n") == nil)
    }

    @Test(arguments: [
        ("-1", "an offset cannot be negative"),
        ("-17", "an offset cannot be negative"),
        ("+3", "write the offset without a sign"),
        ("017", "without leading zeros"),
        ("0x11", "'0x11' is not a plain whole number"),
        ("1.5", "'1.5' is not a plain whole number"),
        ("70000", "offset '70000' is out of range"),
        ("99999999999999999999999", "is out of range"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "a line name has at most 31 bytes"),
        ("\"\"", "cannot be empty"),
        ("~", "has no value"),
        ("\"GPIO\\e[2J\"", "contains a control character ('\\u{1B}')"),
        ("[17]", "must be a single value, not a list"),
    ])
    func badLines(line: String, message: String) throws {
        let error = try #require(Self.failure("buttons:\n  - {name: a, line: \(line)}\n"))
        #expect(error.description.hasPrefix("b.yaml:2:"), "\(error)")
        #expect(error.description.contains("buttons[0].line: "))
        #expect(error.description.contains(message), "\(error)")
        #expect(line.hasPrefix("[") || line.hasPrefix("~") || line.hasPrefix("\"") || error.description.contains("0 to 65535"))
    }

    @Test(arguments: [
        ("-1", "a chip number cannot be negative"),
        ("007", "is not a chip number"),
        ("gpiochipX", "is not a chip name"),
        ("a-label-much-longer-than-the-kernel-allows", "a chip label has at most 31 bytes"),
        ("\"\\0\"", "contains a NUL byte"),
    ])
    func badChips(chip: String, message: String) throws {
        let error = try #require(Self.failure(Self.button("chip: \(chip)")))
        #expect(error.description.contains("buttons[0].chip: ") && error.description.contains(message), "\(error)")
    }

    // MARK: Durations

    /// Each duration: its key, how to write it in a one-button file, and its minimum.
    static let durations: [(key: String, yaml: @Sendable (String) -> String, minimum: String)] = [
        ("buttons[0].hold", { button("hold: \($0)") }, "1ms"),
        ("buttons[0].clicks.window", { button("clicks: {window: \($0)}") }, "1ms"),
        ("buttons[0].throttle", { button("throttle: \($0)") }, "1ms"),
        ("buttons[0].repeat.delay", { button("repeat: {delay: \($0), interval: 100ms}") }, "1ms"),
        ("buttons[0].repeat.interval", { button("repeat: {interval: \($0)}") }, "10ms"),
        ("buttons[0].actions[0].timeout", { button("actions: [{on: press, run: [x], timeout: \($0)}]") }, "1ms"),
        ("groups.g.lockout", { "groups: {g: {lockout: \($0)}}\nbuttons:\n  - {name: a, line: 1, group: g}\n" }, "1ms"),
    ]

    @Test(arguments: 0..<7)
    func durationsHaveAMinimumAndAMaximum(index: Int) throws {
        let (key, yaml, minimum) = Self.durations[index]
        for tooShort in ["0", "0ms", "1ns", "999us", minimum == "10ms" ? "9.999ms" : "0.5ms"] {
            let error = try #require(Self.failure(yaml(tooShort)), "\(key): \(tooShort)")
            #expect(error.description.contains("\(key): '\(tooShort)' is too short"), "\(error)")
            #expect(error.description.contains("from \(minimum) to 1h"), "\(error)")
            #expect(error.line != nil && error.column != nil)
        }
        let negative = try #require(Self.failure(yaml("-1s")))
        #expect(negative.description.contains("\(key): durations cannot be negative") && negative.description.contains("from \(minimum) to 1h"), "\(negative)")
        let long = try #require(Self.failure(yaml("3600.001s")))
        #expect(long.description.contains("\(key): '3600.001s' is too long") && long.description.contains("to 1h"), "\(long)")
        let bad = try #require(Self.failure(yaml("soon")))
        #expect(bad.description.contains("'soon' is not a duration") && bad.description.contains("from \(minimum) to 1h"), "\(bad)")
        #expect(Self.failure(yaml(minimum)) == nil, "\(key): \(minimum)")
        #expect(Self.failure(yaml("3600s")) == nil, "\(key): 3600s")
        #expect(Self.failure(yaml("1h")) == nil, "\(key): 1h")
        #expect(Self.failure(yaml("2min")) == nil, "\(key): 2min")
    }

    @Test func aRepeatIntervalOfANanosecondSaysWhy() throws {
        let error = try #require(Self.failure(Self.button("repeat: {interval: 1ns}")))
        #expect(error.description.contains("at most 100 a second"))
    }

    @Test(arguments: [
        ("debounce: defer:-5ms", "buttons[0].debounce: durations cannot be negative"),
        ("press: \"eager:5ms,glitch:-1us\"", "buttons[0].press: durations cannot be negative"),
        ("release: defer:7200s", "'7200s' is longer than 1h"),
        ("kernel_debounce: 500ns", "'500ns' is not a whole number of microseconds"),
        ("kernel_debounce: -5us", "kernel_debounce: durations cannot be negative"),
        ("kernel_debounce: 7200s", "is too long: kernel_debounce is 0 (none) or whole microseconds from 1us to 1h"),
    ])
    func debounceDurations(extra: String, message: String) throws {
        let error = try #require(Self.failure(Self.button(extra)))
        #expect(error.description.contains(message), "\(error)")
    }

    @Test func zeroDebounceAndKernelDebounceStayAllowed() {
        #expect(Self.failure(Self.button("debounce: \"eager:5ms,glitch:0ms\", kernel-debounce: 0, press: defer:0ms")) == nil)
    }

    @Test func aMistakeUnderDefaultsIsNamedThere() throws {
        let error = try #require(Self.failure("defaults:\n  debounce: defer:soon\nbuttons:\n  - {name: a, line: 1, debounce: defer:5ms}\n"))
        #expect(error.description.hasPrefix("b.yaml:2:13: defaults.debounce: 'soon' is not a duration"), "\(error)")
    }

    // MARK: Counts and names

    @Test(arguments: [
        ("actions: [{on: press, run: [x], policy: parallel, limit: 0}]", "buttons[0].actions[0].limit: must be a whole number from 1 to 64, not '0'"),
        ("actions: [{on: press, run: [x], policy: parallel, limit: -2}]", "must be a whole number from 1 to 64, not '-2'"),
        ("actions: [{on: press, run: [x], limit: 2}]", "`limit` goes with `policy: parallel` only"),
        ("clicks: {window: 300ms}, actions: [{on: click, count: 0, run: [x]}]", "buttons[0].actions[0].count: must be a whole number from 1 to 9, not '0'"),
        ("clicks: {window: 300ms, max: 2}, actions: [{on: click, count: 3, run: [x]}]", "count 3 never happens: the button's `clicks: {max: 2}`"),
        ("clicks: {window: 300ms, max: 0}", "buttons[0].clicks.max: must be a whole number from 1 to 9, not '0'"),
        ("group: g", "no group 'g' under `groups:`; defined: none"),
        ("group: \"\"", "buttons[0].group: cannot be empty"),
        ("actions: [{on: press, run: []}]", "run: must be a list"),
        ("actions: [{on: press, run: [\"\"]}]", "run[0]: cannot be empty"),
        ("actions: [{on: press, shell: \"\"}]", "shell: cannot be empty"),
        ("actions: [{on: press, shell: ~}]", "shell: has no value"),
    ])
    func countsLimitsAndReferences(extra: String, message: String) throws {
        let error = try #require(Self.failure(Self.button(extra)))
        #expect(error.description.contains(message), "\(error)")
    }

    @Test(arguments: [
        ("name: \"\"", "buttons[0].name: cannot be empty"),
        ("name: ", "buttons[0].name: has no value"),
        ("name: null", "buttons[0].name: has no value"),
        ("name: \(String(repeating: "n", count: 65))", "a button's name has at most 64 characters; this one has 65"),
        ("name: \"door\\tbell\"", "contains a control character ('\\u{9}')"),
    ])
    func badNames(field: String, message: String) throws {
        let error = try #require(Self.failure("buttons:\n  - line: 1\n    \(field)\n"))
        #expect(error.description.contains(message), "\(error)")
    }

    @Test func aMadeUpNameThatCollidesSaysSo() throws {
        let error = try #require(Self.failure("buttons:\n  - {line: 1}\n  - {name: button1, line: 2}\n"))
        #expect(error.description.contains("b.yaml:3:12: buttons[1].name: the name 'button1' is already that of button 'button1' (buttons[0]), which has no `name:` and is called so"), "\(error)")
        let other = try #require(Self.failure("buttons:\n  - {name: button2, line: 1}\n  - {line: 2}\n"))
        #expect(other.description.contains("this button has no `name:` and would be called 'button2'"), "\(other)")
    }

    @Test func groupNamesAreChecked() throws {
        let empty = try #require(Self.failure("groups: {\"\": {lockout: 1s}}\nbuttons: [{line: 1}]\n"))
        #expect(empty.description.contains("groups: cannot be empty"), "\(empty)")
        let missing = try #require(Self.failure("groups: {g: {}}\nbuttons: [{line: 1}]\n"))
        #expect(missing.description.contains("groups.g: a group needs `lockout: DURATION` (from 1ms to 1h)"), "\(missing)")
    }

    @Test func atMostSixtyFourButtons() throws {
        let many = "buttons:\n" + (0..<65).map { "  - {line: \($0)}\n" }.joined()
        let error = try #require(Self.failure(many))
        #expect(error.description.contains("b.yaml:66:5: buttons: at most 64 buttons"), "\(error)")
        #expect(Self.failure("buttons:\n" + (0..<64).map { "  - {line: \($0)}\n" }.joined()) == nil)
    }

    // MARK: NUL bytes and control characters

    @Test(arguments: [
        ("buttons:\n  - {name: \"a\\0b\", line: 1}\n", "buttons[0].name: contains a NUL byte"),
        ("buttons:\n  - {line: \"GPIO\\x00\"}\n", "buttons[0].line: contains a NUL byte"),
        ("buttons:\n  - {line: 1, actions: [{on: press, run: [/bin/echo, \"a\\0b\"]}]}\n", "buttons[0].actions[0].run[1]: contains a NUL byte"),
        ("buttons:\n  - {line: 1, actions: [{on: press, run: [\"/bin/ec\\0ho\"]}]}\n", "buttons[0].actions[0].run[0]: contains a NUL byte"),
        ("buttons:\n  - {line: 1, actions: [{on: press, shell: \"echo \\0 > /tmp/x\"}]}\n", "buttons[0].actions[0].shell: contains a NUL byte"),
        ("groups: {\"g\\0\": {lockout: 1s}}\nbuttons:\n  - {line: 1}\n", "groups: contains a NUL byte"),
    ])
    func noStringCarriesANulByte(text: String, message: String) throws {
        let error = try #require(Self.failure(text))
        #expect(error.description.contains(message), "\(error)")
        #expect(!error.description.unicodeScalars.contains("\0"))
    }

    @Test func argumentsAndShellCommandsMayHoldTabsAndNewlines() throws {
        let configuration = try ConfigurationLoader.load(
            "buttons:\n  - line: 1\n    actions:\n      - {on: press, run: [/bin/echo, \"a\\tb\", \"\"]}\n      - on: release\n        shell: |\n          echo one\n          echo two\n",
            file: "b.yaml")
        #expect(configuration.buttons[0].actions[0].action.arguments == ["/bin/echo", "a\tb", ""])
        #expect(configuration.buttons[0].actions[1].action.arguments == ["/bin/sh", "-c", "echo one\necho two\n"])
    }

    @Test func anArgumentLongerThanTheKernelTakesIsRefused() throws {
        let error = try #require(Self.failure(Self.button("actions: [{on: press, run: [/bin/echo, \(String(repeating: "x", count: 131_072))]}]")))
        #expect(error.description.contains("run[1]: is 131072 bytes: an argument or command has at most 131071 bytes"), "\(error)")
        #expect(error.description.count < 300)
    }

    /// Control characters from the file are escaped in every message, and values are shortened.
    @Test(arguments: [
        "buttons:\n  - {line: 1, \"\\e]0;owned\\a\": 1}\n",
        "buttons:\n  - {line: 1, bias: \"\\e[2Jup\"}\n",
        "buttons:\n  - {line: 1, hold: \"\\e[31m5\"}\n",
        "buttons:\n  - {line: 1, press: \"\\e[31mdefer:5ms\"}\n",
        "buttons:\n  - {line: 1, group: \"\\e[31m\"}\n",
        "buttons:\n  - line: 1\n    name: \"\u{1B}[31m\"\n",
        "buttons:\n  - {line: 1, hold: \(String(repeating: "9", count: 500))x}\n",
    ])
    func messagesNeverCarryControlCharactersOrLongValues(text: String) throws {
        let error = try #require(Self.failure(text))
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(error)")
        #expect(error.description.count < 400, "\(error)")
    }

    // MARK: Programs

    @Test func programsAreLookedUpAsPosixSpawnpWould() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tool = directory + "/tool", plain = directory + "/plain"
        _ = FileManager.default.createFile(atPath: tool, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        _ = FileManager.default.createFile(atPath: plain, contents: Data("data\n".utf8), attributes: [.posixPermissions: 0o644])
        let lookup = ProgramLookup(searchPath: "/nonexistent-dir:\(directory)")
        func run(_ program: String) -> String { Self.button("actions: [{on: press, run: [\"\(program)\", arg]}]") }

        #expect(Self.failure(run(tool), programs: lookup) == nil)
        #expect(Self.failure(run("tool"), programs: lookup) == nil)
        #expect(Self.failure(Self.button("actions: [{on: press, shell: 'echo hi'}]"), programs: lookup) == nil)

        let missing = try #require(Self.failure(run("/nonexistent/program"), programs: lookup))
        #expect(missing.description.contains("b.yaml:2:52: buttons[0].actions[0].run[0]: no such program '/nonexistent/program'"), "\(missing)")
        let notOnPath = try #require(Self.failure(run("no-such-tool"), programs: lookup))
        #expect(notOnPath.description.contains("no program 'no-such-tool' on PATH ('/nonexistent-dir:\(directory)'): install it, or write its absolute path"), "\(notOnPath)")
        let notExecutable = try #require(Self.failure(run(plain), programs: lookup))
        #expect(notExecutable.description.contains("'\(plain)' is not executable (chmod +x it"), "\(notExecutable)")
        let foundNotExecutable = try #require(Self.failure(run("plain"), programs: lookup))
        #expect(foundNotExecutable.description.contains("'plain' is found at '\(plain)' but it is not executable"), "\(foundNotExecutable)")
        let aDirectory = try #require(Self.failure(run(directory), programs: lookup))
        #expect(aDirectory.description.contains("is a directory, not a program"), "\(aDirectory)")
        let relative = try #require(Self.failure(run("./no-such-script"), programs: lookup))
        #expect(relative.description.contains("relative to the working directory"), "\(relative)")
        // Without a lookup (the library's default), programs are not looked up.
        #expect(Self.failure(run("/nonexistent/program")) == nil)
    }

    @Test func aShellActionNeedsBinSh() throws {
        let root = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let error = try #require(Self.failure(Self.button("actions: [{on: press, shell: 'echo hi'}]"), programs: ProgramLookup(searchPath: "/bin", root: root)))
        #expect(error.description.contains("buttons[0].actions[0].shell: `shell:` runs /bin/sh -c, but no such program '/bin/sh'"), "\(error)")
    }

    // MARK: Files that are not configurations, and what a message may show

    @Test func aByteOrderMarkIsAccepted() throws {
        let text = "buttons:\n  - {name: a, line: 17}\n"
        #expect(try ConfigurationLoader.load("\u{FEFF}" + text, file: "b.yaml").buttons.count == 1)
        #expect(try ConfigurationLoader.load(bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8), file: "b.yaml").buttons.count == 1)
        // Positions are unchanged by it.
        let error = try #require(Self.failure(bytes: [0xEF, 0xBB, 0xBF] + Array("buttons:\n  - {line: 1, hodl: 3s}\n".utf8)))
        #expect(error.description.hasPrefix("b.yaml:2:15: buttons[0]: unknown key 'hodl'"), "\(error)")
    }

    @Test(arguments: ["", "\n\n  \n", "# just a comment\n", "\u{FEFF}"])
    func anEmptyFileSaysWhatAConfigurationNeeds(text: String) throws {
        let error = try #require(Self.failure(text))
        #expect(error.description.hasPrefix("b.yaml: the file is empty"), "\(error)")
        #expect(error.description.contains("a configuration needs at least one list of inputs (`buttons:`, `encoders:`, `sensors:`, `counters:`, `keypads:` or `selectors:`)"))
    }

    static let secret = "s3cr3t-Hash$6$abcdefgh"

    /// Files that are not configurations: the message gives the line number only, none of the content.
    @Test(arguments: [
        ("root:$6$\(secret):19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n", "b.yaml:1: not a gpio-debounce configuration"),
        ("root:x:0:0:\(secret):/root:/bin/bash\n", "b.yaml:1: not a gpio-debounce configuration"),
        ("services:\n  web: {image: \(secret)}\n", "b.yaml:1: not a gpio-debounce configuration: its top-level mapping has none of the keys defaults, groups, buttons, encoders, sensors, counters, keypads, selectors, keyboard, mqtt, socket, api; a configuration is YAML with at least one top-level list of inputs"),
        ("- \(secret)\n- buttons\n", "b.yaml:1: not a gpio-debounce configuration: its top level is not a mapping"),
        ("just \(secret) text\n", "b.yaml:1: not a gpio-debounce configuration"),
        ("# config\n\(secret): [unclosed\nmore: \(secret)\n", "b.yaml:3: not a gpio-debounce configuration: it is not valid YAML (line 3)"),
        ("a: 1\n\(secret)\u{1B}[2J: 2\n", "b.yaml:2: not a gpio-debounce configuration: it is not valid YAML (line 2)"),
        ("\(secret)\0\u{7F}ELF\n", "b.yaml:1: not a gpio-debounce configuration: it is binary data"),
        ("x: 1\ny: \(secret)\n\0", "b.yaml:3: not a gpio-debounce configuration: it is binary data"),
    ])
    func aFileThatIsNotAConfigurationIsNeverQuoted(text: String, message: String) throws {
        let error = try #require(Self.failure(text))
        #expect(error.description.hasPrefix(message), "\(error)")
        #expect(error.column == nil)
        for word in [Self.secret, "s3cr3t", "root", "daemon", "services", "image", "bash", "ELF", "just"] {
            #expect(!error.description.contains(word), "\(word) in \(error)")
        }
    }

    @Test func aMisspeltTopLevelKeyGetsAHintButNoQuote() throws {
        let error = try #require(Self.failure("buton:\n  - {line: 1}\n"))
        #expect(error.description.contains("(the key on line 1 looks like a misspelt `buttons`)"), "\(error)")
        #expect(!error.description.contains("buton"))
    }

    @Test func binaryAndNonUTF8Bytes() throws {
        let elf = try #require(Self.failure(bytes: [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00]))
        #expect(elf.description.hasPrefix("b.yaml:1: not a gpio-debounce configuration: it is binary data"), "\(elf)")
        let latin1 = try #require(Self.failure(bytes: Array("x: 1\ny: caf".utf8) + [0xE9, 0x0A]))
        #expect(latin1.description.hasPrefix("b.yaml:2: not a gpio-debounce configuration: it is not UTF-8 text"), "\(latin1)")
        #expect(!latin1.description.contains("caf"))
        let latin1Configuration = try #require(Self.failure(bytes: Array("# caf".utf8) + [0xE9, 0x0A] + Array("buttons:\n  - {line: 1}\n".utf8)))
        #expect(latin1Configuration.description.hasPrefix("b.yaml:1: the file is not UTF-8 text"), "\(latin1Configuration)")
        let large = try #require(Self.failure(bytes: Array(repeating: 0x20, count: ConfigurationLoader.maximumBytes + 1)))
        #expect(large.description.contains("larger than 1 MiB"), "\(large)")
    }

    /// A YAML mistake in a configuration shows where, and at most a short excerpt of the line.
    @Test func aSyntaxErrorShowsAShortExcerptOnly() throws {
        let tail = String(repeating: "very long text ", count: 20)
        let error = try #require(Self.failure("buttons:\n  - line: 17\n    hold: [1\n    name: abcdefghijklmnopqrstuvwxyz \(tail)\n"))
        #expect(error.description.hasPrefix("b.yaml:4:9: not valid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 3, column 11), near '"), "\(error)")
        #expect(!error.description.contains(tail) && !error.description.contains("xyz"), "\(error)")
        #expect(error.description.count < 200)
        let duplicate = try #require(Self.failure("buttons:\n  - line: 17\n    name: a\n    name: b\n"))
        #expect(duplicate.description.hasPrefix("b.yaml:4:5: not valid YAML: the key 'name' appears twice in one mapping (first at line 3, column 5): remove or rename this one"), "\(duplicate)")
        #expect(!duplicate.description.contains("line: 17"))
        let control = try #require(Self.failure("buttons:\n  - line: 1\n    name: \"\u{1B}[31mred\"\n"))
        #expect(control.description.hasPrefix("b.yaml:3:12: not valid YAML: control characters are not allowed ('\\u{1B}')"), "\(control)")
        #expect(!control.description.unicodeScalars.contains("\u{1B}"))
    }

    /// A key that is an alias of a list of aliases ... would expand exponentially while its keys are hashed
    /// (a 1 KB file hung `check`): refused before the YAML is composed, at once.
    @Test(arguments: ["? *a20\n: 1\n", "[*a20, *a20]: 1\n", "*a20 : 1\n", "x: {*a20: 1}\n"])
    func anAliasedKeyIsRefusedBeforeItCanExpand(key: String) throws {
        var text = "buttons:\n  - {line: 1}\na0: &a0 [x, x, x, x, x, x, x, x]\n"
        for level in 1...20 { text += "a\(level): &a\(level) [*a\(level - 1), *a\(level - 1), *a\(level - 1), *a\(level - 1)]\n" }
        let start = ContinuousClock.now
        let error = try #require(Self.failure(text + key))
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(error.description.hasPrefix("b.yaml:24:"), "\(error)")
        #expect(error.description.contains("keys must be plain words, and this key is an alias (*name), a list or a mapping"), "\(error)")
    }

    /// Anchors and aliases as values stay allowed: one list of actions shared by two buttons.
    @Test func anchorsAndAliasesAsValuesStayAllowed() throws {
        let configuration = try ConfigurationLoader.load("""
            buttons:
              - name: a
                line: 1
                actions: &actions [{on: press, run: [/bin/true]}]
              - {name: b, line: 2, actions: *actions}
            """, file: "b.yaml")
        #expect(configuration.buttons.map { $0.actions.map(\.action.arguments) } == [[["/bin/true"]], [["/bin/true"]]])
    }

    @Test func theFullSetOfMinimumsLoads() throws {
        let configuration = try ConfigurationLoader.load("""
            groups: {g: {lockout: 1ms}}
            buttons:
              - name: a
                line: 0
                chip: "0"
                hold: 1ms
                repeat: {delay: 1ms, interval: 10ms}
                clicks: {window: 1ms, max: 1}
                throttle: 1ms
                group: g
                kernel_debounce: 1us
                actions:
                  - {on: click, count: 1, run: [/bin/true], timeout: 1ms, policy: parallel, limit: 1}
            """, file: "b.yaml", programs: .environment)
        let button = configuration.buttons[0]
        #expect(button.gestures.holdNs == 1_000_000 && button.gestures.repeatIntervalNs == 10_000_000 && button.lineSettings.kernelDebounceNs == 1_000)
        #expect(configuration.groups["g"] == 1_000_000)
    }
}
