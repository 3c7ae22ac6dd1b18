import Foundation
import Testing

@testable import gpio_debounce

/// What the command line gets before the parser reads it (`ArgumentPrecheck`): a misspelt command
/// gets a suggestion, and a negative duration says that durations cannot be negative.
@Suite struct CommandLineTests {
    @Test func aMisspeltCommandGetsASuggestion() throws {
        let result = try CLITests.run(["wacth", "17"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("gpio-debounce: error: unknown command 'wacth'; did you mean 'watch'?\n"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aWordFarFromEveryCommandListsThem() throws {
        let result = try CLITests.run(["17"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("gpio-debounce: error: unknown command '17'; the commands are watch, run, check, doctor, list, record, analyze, replay, demo, generate, events, status, reload, reset\n"), "\(result.stderr)")
    }

    @Test func commandsHelpAndOptionsAreNotRefused() {
        let commands = ["watch", "run", "help"]
        #expect(ArgumentPrecheck.unknownCommand(["watch", "17"], commands: commands) == nil)
        #expect(ArgumentPrecheck.unknownCommand(["help", "watch"], commands: commands) == nil)
        #expect(ArgumentPrecheck.unknownCommand(["--version"], commands: commands) == nil)
        #expect(ArgumentPrecheck.unknownCommand([], commands: commands) == nil)
    }

    @Test(arguments: [
        ["watch", "--simulate", "--idle-timeout", "-1s", "17"],
        ["watch", "--simulate", "--kernel-debounce", "-5us", "17"],
        ["watch", "--simulate", "--debounce", "-1ms", "17"],
        ["replay", "--press", "-.5ms", "-"],
        ["record", "--simulate", "--duration", "-1s"],
        ["run", "--config", "x.yaml", "--shutdown-grace", "-2s"],
        ["analyze", "--gap", "-1ms", "-"],
    ])
    func aNegativeDurationSaysDurationsCannotBeNegative(arguments: [String]) throws {
        let result = try CLITests.run(arguments, input: "")
        #expect(result.status == 64)
        #expect(result.stderr.contains("durations cannot be negative"), "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"), "\(result.stderr)")
    }

    @Test func onlyADurationOptionsNegativeValueIsJoined() {
        #expect(ArgumentPrecheck.joiningNegativeValues(["watch", "--idle-timeout", "-1s", "17"]) == ["watch", "--idle-timeout=-1s", "17"])
        #expect(ArgumentPrecheck.joiningNegativeValues(["watch", "--idle-timeout", "-v"]) == ["watch", "--idle-timeout", "-v"])
        #expect(ArgumentPrecheck.joiningNegativeValues(["watch", "--seed", "-1"]) == ["watch", "--seed", "-1"])
        #expect(ArgumentPrecheck.joiningNegativeValues(["watch", "--", "--gap", "-1"]) == ["watch", "--", "--gap", "-1"])
    }

    /// `--bias disable` (libgpiod 1.6's gpiomon) is read as `disabled` (libgpiod 2's), and the help says
    /// which gpiomon the names follow.
    @Test func biasDisableIsAccepted() throws {
        for bias in ["disable", "disabled"] {
            let result = try CLITests.run(["watch", "--simulate", "--bias", bias, "--num-events", "1", "17"])
            #expect(result.status == 0, "\(bias): \(result.stderr)")
        }
        #expect(try CLITests.run(["watch", "--simulate", "--bias", "off", "17"]).status == 64)
        let help = try CLITests.run(["watch", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("disabled or as-is (libgpiod 2's gpiomon's names; 1.6's disable is accepted too)"), "\(help)")
    }

    /// Every option whose help shows `<duration>` or `<strategy>` is one the check knows.
    @Test(arguments: ["watch", "run", "record", "analyze", "replay", "demo", "generate"])
    func everyDurationOptionIsKnown(command: String) throws {
        let help = try CLITests.run([command, "--help"]).stdout
        let pattern = try NSRegularExpression(pattern: "((?:--[a-z-]+(?:, )?)+) <(?:duration|strategy)>")
        for match in pattern.matches(in: help, range: NSRange(help.startIndex..., in: help)) {
            let names = String(help[Range(match.range(at: 1), in: help)!]).split(separator: ", ").map(String.init)
            for name in names { #expect(ArgumentPrecheck.durationOptions.contains(name), "\(command) \(name)") }
        }
    }
}
