import Foundation
import Testing

/// What the help and the usage lines say: every kind of input a command takes, and what is required.
@Suite struct UsageTextTests {
    /// `command --help`, its lines joined (the help wraps them at the terminal's width).
    static func help(_ command: String) throws -> String {
        let result = try CLITests.run([command, "--help"])
        #expect(result.status == 0)
        return result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The help lists what each kind says of itself: its section, what simulates it, its state file.
    @Test func runsHelpNamesEveryKindAndWhatTheSimulationDoesWithIt() throws {
        let help = try Self.help("run")
        #expect(help.contains("Run the buttons, encoders, sensors, counters, keypads and selectors of a configuration file"), "\(help)")
        #expect(help.contains("random keys typed per keypad (codes on one with code:), a switch turned now and then per selector, each"), "\(help)")
        #expect(help.contains("(the encoders' positions in `positions`, the counters' totals in `counters`)"), "\(help)")
    }

    @Test func resetsHelpSaysWhatEachKindWithAValueResets() throws {
        let help = try Self.help("reset")
        #expect(help.contains("An encoder's position: without --to it goes to its reset_to:"), "\(help)")
        #expect(help.contains("A counter's total, in pulses: without --to it starts again from 0"), "\(help)")
    }

    /// Each watch mode is one kind's lines: given with lines or another mode, the message names what
    /// was given together, and an option of a mode not chosen names the mode to add.
    @Test(arguments: [
        (["watch", "--encoder", "17,27", "4"], "--encoder A,B names the encoder's lines: watch buttons in another `gpio-debounce watch`."),
        (["watch", "--selector", "5,6", "--keypad", "1,2/3,4", "--encoder", "7,8"],
         "--selector LINES names the selector's lines: watch a keypad or an encoder in another `gpio-debounce watch`."),
        (["watch", "--scan-interval", "5ms", "4"], "--scan-settle and --scan-interval say how --keypad scans a keypad: add --keypad ROWS/COLUMNS."),
        (["demo", "--encoder", "--keypad"], "--keypad and --encoder are two demos: choose one."),
        (["watch", "--keypad", "1,2/3,4", "--code", "gray"], "--code, --positions and --settle say how --selector reads a switch: add --selector LINES."),
        (["watch", "--encoder", "17,27", "--scan-interval", "5ms"], "--scan-settle and --scan-interval say how --keypad scans a keypad: add --keypad ROWS/COLUMNS."),
        (["watch", "--selector", "5,6", "--scan-settle", "20us"], "--scan-settle and --scan-interval say how --keypad scans a keypad: add --keypad ROWS/COLUMNS."),
        (["watch", "--steps-per-detent", "2", "17"], "--steps-per-detent and --reverse say how --encoder decodes an encoder's lines: add --encoder A,B."),
        (["watch", "--keypad", "1,2/3,4", "--reverse"], "--steps-per-detent and --reverse say how --encoder decodes an encoder's lines: add --encoder A,B."),
        (["replay", "-", "--reverse"], "--steps-per-detent and --reverse say how --encoder decodes an encoder's lines: add --encoder A,B."),
        (["replay", "-", "--button", "door"], "--button names an input of a configuration: add --config FILE."),
        (["record", "--encoder", "17,27", "--simulate", "--drop", "0.1"], "--drop applies to a recording of one line, not to --encoder A,B."),
    ])
    func modesGivenTogetherAreRefusedByName(arguments: [String], message: String) throws {
        let result = try CLITests.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func watchsSimulateHelpNamesTheEncoderAndTheKeypad() throws {
        let help = try Self.help("watch")
        #expect(help.contains("with --encoder a simulated encoder turned, with --keypad a simulated keypad typed on, with --selector a simulated switch turned now and then."), "\(help)")
    }

    /// No usage line reads as if options were required (argument-parser writes `<options>` alone when
    /// a command has more than 12 options, none of them required).
    @Test(arguments: ["demo", "watch", "run", "record", "replay", "generate", "analyze", "check", "doctor", "list"])
    func noUsageLineRequiresOptions(command: String) throws {
        let result = try CLITests.run([command, "--help"])
        #expect(result.status == 0)
        let usage = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("USAGE:") })
        #expect(!usage.hasSuffix(" <options>"), "\(usage)")
    }

    @Test func demosUsageNamesItsThreeDemos() throws {
        let result = try CLITests.run(["demo", "--help"])
        #expect(result.stdout.contains("USAGE: gpio-debounce demo [--encoder | --keypad] [<options>]"), "\(result.stdout)")
    }

    @Test func generatesUsageSaysPressesOrEdgesIsRequired() throws {
        let help = try CLITests.run(["generate", "--help"])
        #expect(help.stdout.contains("USAGE: gpio-debounce generate (--presses <count> | --edges <count>)"), "\(help.stdout)")
        let missing = try CLITests.run(["generate"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("Missing --presses <count> or --edges <count>"), "\(missing.stderr)")
        #expect(missing.stderr.contains("Usage: gpio-debounce generate (--presses <count> | --edges <count>)"), "\(missing.stderr)")
        #expect(missing.stdout.isEmpty)
        let both = try CLITests.run(["generate", "--presses", "2", "--edges", "10"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--presses and --edges are two ways to say how long the trace is: give one."), "\(both.stderr)")
        #expect(both.stdout.isEmpty)
    }
}
