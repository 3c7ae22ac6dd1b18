import Foundation
import Testing

/// Lines and counts on the command line are checked as the configuration file checks them: a line is
/// an offset from 0 to 65535 or a name, each named once; a count is a whole number from 1 up, and a
/// refusal says what is allowed, with exit 64.
@Suite struct ArgumentCheckTests {
    /// Each of these once became another line (`17abc` and 2^64 as line 0) or was taken as given.
    @Test(arguments: [
        (["watch", "17abc", "--simulate", "-n", "1"], "'17abc' is not a plain whole number"),
        (["watch", "18446744073709551616", "--simulate", "-n", "1"], "offset '18446744073709551616' is out of range"),
        (["watch", "4294967296", "--simulate", "-n", "1"], "offset '4294967296' is out of range"),
        (["watch", "65536", "--simulate", "-n", "1"], "offset '65536' is out of range"),
        (["watch", "017", "--simulate", "-n", "1"], "without leading zeros"),
        (["watch", "17", "17", "--simulate", "-n", "1"], "line 17 is named twice"),
        (["watch", "--encoder", "17,0x1b", "--simulate", "-n", "1"], "'0x1b' is not a plain whole number"),
        (["record", "17abc", "--simulate", "--presses", "1"], "'17abc' is not a plain whole number"),
    ])
    func aLineTheConfigurationRefusesIsRefusedHere(arguments: [String], message: String) throws {
        let result = try CLITests.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// What still works: the largest offset, names, and a named line reported as its number.
    @Test func theLargestOffsetAndNamesAreLines() throws {
        let result = try CLITests.run(["watch", "65535", "GPIO27", "--simulate", "--seed", "3", "-n", "4", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"line\":65535") || result.stdout.contains("\"line\":27"), "\(result.stdout)")
        #expect(!result.stdout.contains("\"line\":0,"))
    }

    @Test(arguments: [
        (["demo", "--presses", "-3"], "must be at least 1"),
        (["demo", "--presses", "0"], "must be at least 1"),
        (["demo", "--presses", "99999999999999999999"], "is too large: at most 9223372036854775807"),
        (["demo", "--presses", "three"], "is not a whole number from 1 to 9223372036854775807"),
        (["generate", "--edges", "-1"], "must be at least 1"),
        (["run", "--config", "examples/buttons.yaml", "--simulate", "--num-events", "-2"], "must be at least 1"),
        (["watch", "--simulate", "-n", "-2"], "must be at least 1"),
        // run --simulate --presses 0 starts, publishes and stops: 0 is allowed there.
        (["run", "--config", "examples/buttons.yaml", "--simulate", "--presses", "-1"], "must be at least 0"),
    ])
    func aCountSaysWhatIsAllowed(arguments: [String], message: String) throws {
        let result = try CLITests.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        #expect(!result.stderr.contains("Missing value"))
    }
}

/// Words the program says about itself stay true.
@Suite struct SelfDescriptionTests {
    /// Offsets without `--chip` mean the 40-pin header's chip since 0.2.0 (`--help` is also the man page).
    @Test func watchHelpNamesTheHeadersChip() throws {
        // As one line: the help is wrapped to the terminal's width.
        let help = try CLITests.run(["watch", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("offsets are on the 40-pin header's chip"), "\(help)")
        #expect(!help.contains("offsets are on gpiochip0"))
    }

    /// Every shipped example passes `check` as shipped (on this machine, which has no GPIO chip: what it
    /// names for the Pi, lines and the MQTT password file, is noted, not refused).
    @Test func everyExampleConfigurationPassesCheck() throws {
        let examples = CLITests.root.appendingPathComponent("examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".yaml") }
        #expect(files.count >= 5)
        for file in files {
            let result = try CLITests.run(["check", "--config", examples.appendingPathComponent(file).path])
            #expect(result.status == 0, "\(file): \(result.stderr)")
        }
    }
}
