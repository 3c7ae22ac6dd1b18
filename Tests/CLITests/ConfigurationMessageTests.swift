import Foundation
import Testing

/// `check` and `run` on configurations a user could get wrong, or a file that is not one at all: every
/// message says what is wrong without misleading, never quotes a file that is not a configuration, and
/// never lets a control character from the file reach the terminal.
@Suite struct ConfigurationMessageTests {
    /// Writes `contents` to a new temporary file and returns its path.
    static func file(_ contents: some Sequence<UInt8>, suffix: String = ".yaml") throws -> String {
        let path = RecordAnalyzeTests.temporaryPath(suffix)
        try Data(contents).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func file(_ text: String) throws -> String { try file(Array(text.utf8)) }

    /// `check --config path`, and the file removed afterwards.
    static func check(_ path: String, removing: Bool = true) throws -> CLITests.Result {
        defer { if removing { try? FileManager.default.removeItem(atPath: path) } }
        return try CLITests.run(["check", "--config", path])
    }

    static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test func aByteOrderMarkIsAccepted() throws {
        let result = try Self.check(try Self.file([0xEF, 0xBB, 0xBF] + Array("buttons:\n  - {name: door, line: 17}\n".utf8)))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("OK: 1 button(s)"))
    }

    @Test func devNullIsEmptyNotAPermissionProblem() throws {
        let result = try Self.check("/dev/null", removing: false)
        #expect(result.status == 65)
        #expect(result.stderr == "gpio-debounce: error: /dev/null: the file is empty: a configuration needs at least one list of inputs (`buttons:`, `encoders:`, `sensors:`, `counters:`, `keypads:` or `selectors:`), each input with its lines, e.g. `buttons: [{name: door, line: 17}]` or `encoders: [{name: volume, lines: [17, 27]}]`\n")
        #expect(!result.stderr.lowercased().contains("permission"))
    }

    @Test func aDirectoryIsNamedAsOne() throws {
        let directory = RecordAnalyzeTests.temporaryPath("")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let result = try Self.check(directory)
        #expect(result.status == 66)
        #expect(result.stderr.contains("cannot read the configuration '\(directory)': it is a directory, not a file"), "\(result.stderr)")
        // Foundation's own words for it ("NSCocoaErrorDomain Code=256"); not a bare "256", which the
        // directory's random name (a UUID) holds in about one run of 190.
        #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("Code=256"))
    }

    @Test func aMissingFileIsNoSuchFile() throws {
        let result = try Self.check("/nonexistent/buttons.yaml", removing: false)
        #expect(result.status == 66)
        #expect(result.stderr == "gpio-debounce: error: cannot open the configuration '/nonexistent/buttons.yaml': no such file\n")
    }

    @Test func anEndlessFileIsRefusedWithoutReadingItAll() throws {
        let result = try Self.check("/dev/zero", removing: false)
        #expect(result.status == 65)
        #expect(result.stderr.contains("larger than 1 MiB"))
    }

    @Test func aNegativeDurationSaysDurationsCannotBeNegative() throws {
        let result = try Self.check(try Self.file("buttons:\n  - name: power\n    line: 3\n    hold: -3s\n"))
        #expect(result.status == 65)
        #expect(result.stderr.contains(":4:11: buttons[0].hold: durations cannot be negative: a hold is from 1ms to 1h"), "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"))
    }

    @Test func aTinyRepeatIntervalSaysTheMinimum() throws {
        let result = try Self.check(try Self.file("buttons:\n  - {name: a, line: 3, repeat: {interval: 1ns}}\n"))
        #expect(result.status == 65)
        #expect(result.stderr.contains("buttons[0].repeat.interval: '1ns' is too short: a repeat interval is from 10ms to 1h"), "\(result.stderr)")
    }

    @Test func aSyntaxErrorShowsAShortExcerptNotTheLine() throws {
        let line = "    name: \"lights \(String(repeating: "and more ", count: 30))"
        let result = try Self.check(try Self.file("buttons:\n  - line: 17\n    hold: [1s\n\(line)\n"))
        #expect(result.status == 65)
        #expect(result.stderr.contains(":4:9: not valid YAML: did not find expected ',' or ']'"), "\(result.stderr)")
        #expect(!result.stderr.contains(line) && !result.stderr.contains("and more and more"))
        #expect(result.stderr.count < 250)
    }

    /// `check --config /etc/shadow` and its kin: not a configuration, by line number only.
    @Test(arguments: [
        "root:$6$Zq0secretsalt$hashhashhash:19700:0:99999:7:::\nbin:*:19700:0:99999:7:::\n",
        "root:x:0:0:secretsalt:/root:/bin/bash\n",
        "[database]\npassword = secretsalt\n",
        "services:\n  db:\n    environment: {PASSWORD: secretsalt}\n",
        "password: secretsalt\n\u{1B}]0;owned\u{07}: [\n",
    ])
    func aFileThatIsNotAConfigurationIsNotPrinted(text: String) throws {
        let path = try Self.file(text)
        let result = try Self.check(path)
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("gpio-debounce: error: \(path):"), "\(result.stderr)")
        #expect(result.stderr.contains(": not a gpio-debounce configuration: "), "\(result.stderr)")
        for word in ["secretsalt", "root", "bin", "database", "password", "PASSWORD", "services", "owned", "hash"] {
            #expect(!result.stderr.contains(word), "\(word) in \(result.stderr)")
        }
        #expect(!Self.hasControlCharacters(result.stderr))
    }

    @Test func theRealShadowFileIsNotPrinted() throws {
        guard let shadow = try? String(contentsOfFile: "/etc/shadow", encoding: .utf8), let first = shadow.split(separator: "\n").first else { return }
        let result = try Self.check("/etc/shadow", removing: false)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("gpio-debounce: error: /etc/shadow:1: not a gpio-debounce configuration: "), "\(result.stderr)")
        #expect(!result.stderr.contains(first) && !result.stderr.contains("root"))
    }

    @Test func aBinaryFileIsNotPrinted() throws {
        var bytes: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00]
        bytes += Array("secretsalt\n\u{1B}[2J".utf8) + (0..<200).map { UInt8($0) }
        let result = try Self.check(try Self.file(bytes, suffix: ".bin"))
        #expect(result.status == 65)
        #expect(result.stderr.contains(":1: not a gpio-debounce configuration: it is binary data"), "\(result.stderr)")
        #expect(!result.stderr.contains("secretsalt") && !result.stderr.contains("ELF") && !Self.hasControlCharacters(result.stderr))
    }

    /// Escape sequences written into a configuration are escaped in `check`'s report and in errors.
    @Test func controlCharactersFromTheFileNeverReachTheTerminalRaw() throws {
        let report = try Self.check(try Self.file("buttons:\n  - line: 17\n    actions: [{on: press, run: [/bin/echo, \"\\e]0;owned\\a\\e[2J\"]}]\n"))
        #expect(report.status == 0, "\(report.stderr)")
        #expect(!Self.hasControlCharacters(report.stdout))
        #expect(report.stdout.contains("/bin/echo \\u{1B}]0;owned\\u{7}\\u{1B}[2J"), "\(report.stdout)")
        for text in [
            "buttons:\n  - {line: 17, \"\\e[31mhodl\": 3s}\n",
            "buttons:\n  - {line: 17, name: \"\\e[31mred\"}\n",
            "buttons:\n  - line: 17\n    name: \"\u{1B}[31mred\"\n",
            "buttons:\n  - {line: 17, actions: [{on: press, run: [\"\\e[2J\"]}]}\n",
        ] {
            let result = try Self.check(try Self.file(text))
            #expect(result.status == 65)
            #expect(!Self.hasControlCharacters(result.stderr), "\(result.stderr)")
            #expect(result.stderr.contains("\\u{1B}"), "\(result.stderr)")
        }
    }

    @Test func twoButtonsOnOneLineAreRefusedByCheckAndRun() throws {
        let path = try Self.file("buttons:\n  - {name: a, line: 17}\n  - {name: b, line: 17}\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for arguments in [["check", "--config", path], ["run", "--config", path, "--simulate", "--presses", "1"]] {
            let result = try CLITests.run(arguments)
            #expect(result.status == 65, "\(arguments)")
            #expect(result.stderr.contains("\(path):3:21: buttons[1].line: line 17 of the 40-pin header's chip is already the line of button 'a' (buttons[0])"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// `run` reads the MQTT password before it starts, and a missing file is an input that cannot be
    /// opened (66). `check` on a machine with GPIO chips refuses it the same way (tested in the VM);
    /// on one without (where a configuration is written, not run) it says so in a note and passes.
    @Test func aMissingPasswordFileIsRefusedByRunWith66AndNotedByCheckWithoutChips() throws {
        let password = RecordAnalyzeTests.temporaryPath("-password")
        let path = try Self.file("buttons:\n  - {name: a, line: 17}\nmqtt:\n  url: mqtt://127.0.0.1:1\n  username: u\n  password_file: \(password)\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try CLITests.run(["run", "--config", path, "--simulate", "--presses", "1"])
        #expect(run.status == 66, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("gpio-debounce: error: cannot read the MQTT password file \(password): No such file or directory"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        if !FileManager.default.fileExists(atPath: "/dev/gpiochip0") {
            let check = try CLITests.run(["check", "--config", path])
            #expect(check.status == 0, "\(check.stderr)")
            #expect(check.stderr.contains("gpio-debounce: note: cannot read the MQTT password file \(password): No such file or directory"), "\(check.stderr)")
            #expect(check.stderr.contains("run refuses to start (exit 66) until it is there"), "\(check.stderr)")
        }
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: password))
        defer { try? FileManager.default.removeItem(atPath: password) }
        let result = try CLITests.run(["check", "--config", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(": OK: 1 button(s)"))
    }

    /// A key in its old spelling loads, and `check` and `run` warn where it is and how it is written now.
    @Test func anOldKeySpellingWarnsInCheckAndRun() throws {
        let path = try Self.file("buttons:\n  - {name: a, line: 17, kernel-debounce: 5us}\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for arguments in [["check", "--config", path], ["run", "--config", path, "--simulate", "--virtual-time", "--presses", "1"]] {
            let result = try CLITests.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("gpio-debounce: warning: \(path):2:25: buttons[0].kernel-debounce: `kernel-debounce` is now written `kernel_debounce`"), "\(result.stderr)")
        }
    }

    /// A program that cannot be started is refused by `run` and `run --simulate --run-actions` (exit 65),
    /// which would run it; `run --simulate`, which only shows it, and `check` on a machine without
    /// GPIO chips (where a configuration is written, not run) note it and go on.
    @Test func programsMustExistAndBeExecutable() throws {
        let script = try Self.file(Array("#!/bin/sh\n".utf8), suffix: ".sh")
        defer { try? FileManager.default.removeItem(atPath: script) }
        let cases = [
            ("[gpio-debounce-no-such-program]", "buttons[0].actions[0].run[0]: no program 'gpio-debounce-no-such-program' on PATH"),
            ("[/nonexistent/bin/tool, on]", "buttons[0].actions[0].run[0]: no such program '/nonexistent/bin/tool'"),
            ("[\(script)]", "buttons[0].actions[0].run[0]: '\(script)' is not executable (chmod +x it"),
            ("[/tmp]", "buttons[0].actions[0].run[0]: '/tmp' is a directory, not a program"),
        ]
        for (run, message) in cases {
            let path = try Self.file("buttons:\n  - name: a\n    line: 17\n    actions:\n      - on: press\n        run: \(run)\n")
            defer { try? FileManager.default.removeItem(atPath: path) }
            for arguments in [["run", "--config", path], ["run", "--config", path, "--simulate", "--run-actions", "--presses", "1"]] {
                let result = try CLITests.run(arguments)
                #expect(result.status == 65, "\(arguments)")
                #expect(result.stderr.contains("gpio-debounce: error: \(path):6:15: \(message)"), "\(result.stderr)")
            }
            let simulation = try CLITests.run(["run", "--config", path, "--simulate", "--virtual-time", "--presses", "1"])
            #expect(simulation.status == 0, "\(simulation.stderr)")
            #expect(simulation.stderr.contains("gpio-debounce: note: \(path):6:15: \(message)"), "\(simulation.stderr)")
            #expect(simulation.stderr.contains("a simulation runs no action, but run without --simulate refuses to start (exit 65) until it is there"))
            #expect(simulation.stdout.contains("would run \"a.press\""), "\(simulation.stdout)")
            if !FileManager.default.fileExists(atPath: "/dev/gpiochip0") {
                let check = try CLITests.run(["check", "--config", path])
                #expect(check.status == 0, "\(check.stderr)")
                #expect(check.stderr.contains("gpio-debounce: note: \(path):6:15: \(message)"), "\(check.stderr)")
                #expect(check.stderr.contains("not refused on a machine without GPIO chips, but run refuses to start (exit 65) until it is there"))
            }
        }
        // A program found on PATH, and a shell command (/bin/sh), pass.
        let fine = try Self.check(try Self.file("buttons:\n  - {line: 17, actions: [{on: press, run: [true]}, {on: release, shell: 'exit 0'}]}\n"))
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    /// A duration without its unit is refused where it is written, in a file (65) as on the command line (64).
    @Test func aDurationWithoutItsUnitIsRefusedWithTheSpellingToWrite() throws {
        let path = try Self.file("sensors:\n  - name: door\n    line: 23\n    on_delay: 2\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let check = try Self.check(path, removing: false)
        #expect(check.status == 65)
        #expect(check.stderr.contains("\(path):4:15: sensors[0].on_delay: a duration needs a unit: write 2ms (or 2s, 2us)"), "\(check.stderr)")
        for arguments in [["watch", "--simulate", "--debounce", "defer:2"], ["run", "--config", path, "--simulate", "--shutdown-grace", "5"]] {
            let result = try CLITests.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("a duration needs a unit: write "), "\(result.stderr)")
        }
    }

    /// Nesting beyond libyaml's 1000 levels is a YAML mistake like another (and reads no further).
    @Test func deepNestingIsRefused() throws {
        let result = try Self.check(try Self.file("buttons: " + String(repeating: "[", count: 100_000) + "\n"))
        #expect(result.status == 65)
        #expect(result.stderr.contains(":1:11: not valid YAML: lists and mappings nested more than 1000 deep"), "\(result.stderr)")
        #expect(result.stderr.count < 250)
    }

    @Test func aNulByteInAStringIsRefused() throws {
        let result = try Self.check(try Self.file("buttons:\n  - {line: 17, actions: [{on: press, shell: \"echo a\\0rm -rf /\"}]}\n"))
        #expect(result.status == 65)
        #expect(result.stderr.contains(":2:45: buttons[0].actions[0].shell: contains a NUL byte"), "\(result.stderr)")
    }

    /// The examples pass `check` (as long as the programs their actions run are installed).
    @Test(arguments: [("examples/buttons.yaml", ["logger"]), ("examples/shutdown-button.yaml", ["systemctl"])])
    func theExamplesPassCheck(example: String, programs: [String]) throws {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/bin:/usr/bin").split(separator: ":")
        guard programs.allSatisfy({ program in path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") } }) else { return }
        let result = try CLITests.run(["check", "--config", CLITests.root.appendingPathComponent(example).path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(": OK: "))
    }
}
