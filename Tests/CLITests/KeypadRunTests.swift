import Foundation
import Testing

/// Keypads end to end: `run --simulate` of a configuration with a keypad (a simulated person typing on
/// a matrix that answers the scan), its code's action, `watch --keypad`, and `check`.
@Suite struct KeypadRunTests {
    static let keypad = """
        keypads:
          - name: door
            rows: [5, 6, 13, 19]
            columns: [12, 16, 20, 21]
        """

    /// Every key typed is one press then one release of that key, named as printed on the pad.
    @Test func eachKeyTypedIsOnePressThenOneRelease() throws {
        let path = try ReplayThroughPipelineTests.configuration(Self.keypad)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run(["run", "--config", path, "--simulate", "--virtual-time", "--presses", "12", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").map(String.init).filter { $0.contains("\"keypad\":\"door\"") }
        let keys = events.map { line in line.components(separatedBy: "\"key\":\"").last.map { String($0.prefix(1)) } ?? "" }
        #expect(events.count == 24, "\(result.stdout)")
        for index in stride(from: 0, to: events.count - 1, by: 2) {
            #expect(events[index].hasPrefix("{\"event\":\"press\"") && events[index + 1].hasPrefix("{\"event\":\"release\""), "\(events)")
            #expect(keys[index] == keys[index + 1] && "123A456B789C*0#D".contains(keys[index]))
        }
        // The log at the stop counts the keypad's scans, the ambiguous ones and those that named no key.
        #expect(result.stderr.contains(#/scans of keypad door: \d+ scans, \d+ ambiguous \(ghost keys, not reported\), \d+ unnamed \(a key let go before its scan read it, or a bounce: not reported\)/#), "\(result.stderr)")
    }

    /// A code's action gets the digits in GPIO_CODE; the events show its length and never its keys.
    @Test func aCodesActionGetsTheDigitsAndTheEventsOnlyItsLength() throws {
        let codes = RecordAnalyzeTests.temporaryPath("-codes")
        let path = try ReplayThroughPipelineTests.configuration(
            Self.keypad + """

                    code: {min_length: 2, end_keys: "#", clear_keys: "*", allowed_keys: "0123456789"}
                    actions:
                      - {on: code, shell: 'echo "$GPIO_KEYPAD $GPIO_CODE" >> \(codes)'}
                """)
        defer { for file in [path, codes] { try? FileManager.default.removeItem(atPath: file) } }
        // In real time: in virtual time the stop's grace period would pass before a loaded machine had
        // started the command. A machine loaded enough to start every scan only after its key was let
        // go enters no code at all (as a real pad would lose the keys): up to three runs, until one
        // enters a code.
        var result = try CLITests.run(["run", "--config", path, "--simulate", "--run-actions", "--presses", "6", "--format", "json"])
        for _ in 1..<3 where !FileManager.default.fileExists(atPath: codes) {
            result = try CLITests.run(["run", "--config", path, "--simulate", "--run-actions", "--presses", "6", "--format", "json"])
        }
        #expect(result.status == 0, "\(result.stderr)")
        let entered = try String(contentsOfFile: codes, encoding: .utf8).split(separator: "\n").map(String.init)
        // Two codes typed (2 digits and #, twice). In real time a machine loaded enough to start the
        // scan only after a key was let go loses that key, as it would on a real pad: at least one
        // code, each run once, with the length the events give.
        // A lost end key joins two codes into one of four digits. Either way, each action got the digits
        // of the code whose event gave its length, in the same order.
        #expect((1...2).contains(entered.count), "\(entered)")
        for line in entered { #expect(line.hasPrefix("door ") && [2, 4].contains(line.dropFirst(5).count) && line.dropFirst(5).allSatisfy(\.isNumber), "\(entered)") }
        let prefix = "{\"event\":\"code\",\"length\":"
        let eventLengths = result.stdout.split(separator: "\n").compactMap { line in
            line.hasPrefix(prefix) ? Int(line.dropFirst(prefix.count).prefix { $0 != "," }) : nil
        }
        #expect(eventLengths == entered.map { $0.dropFirst(5).count }, "\(result.stdout)")
        // Digits are `?`; the end key is named.
        for digit in "0123456789" { #expect(!result.stdout.contains("\"key\":\"\(digit)\"")) }
        #expect(result.stdout.contains("\"key\":\"#\"") && result.stdout.contains("\"key\":\"?\""))
    }

    @Test func watchKeypadTypesOnASimulatedPad() throws {
        let result = try CLITests.run(["watch", "--keypad", "5,6,13,19/12,16,20,21", "--simulate", "--virtual-time", "--presses", "6"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("press") }.count == 6 && lines.filter { $0.hasPrefix("release") }.count == 6, "\(result.stdout)")
        #expect(lines.allSatisfy { $0.contains("keypad=keypad key=") })
        #expect(result.stderr.contains(#/6 key presses from \d+ scans, \d+ ambiguous \(ghost keys, not reported\), \d+ unnamed \(/#), "\(result.stderr)")
    }

    /// The demo types keys it names at the start, and each is one press in that order.
    @Test func demoKeypadReportsTheKeysItTyped() throws {
        let result = try CLITests.run(["demo", "--keypad", "--virtual-time", "--presses", "8", "--seed", "11"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let typed = try #require(lines.first?.components(separatedBy: "keys typed: ").last?.prefix(8))
        let pressed = lines.filter { $0.hasPrefix("press") }.compactMap { $0.components(separatedBy: "key=").last }
        #expect(pressed.joined() == String(typed), "\(result.stdout)")
        #expect(lines.last?.hasPrefix("8 keys typed: 8 presses reported from ") == true, "\(result.stdout)")
    }

    @Test(arguments: [
        ("5,6/", "a line cannot be empty"),
        ((0...16).map(String.init).joined(separator: ",") + "/20,21", "--keypad takes 1 to 16 rows and 1 to 16 columns"),
        ("5,6,13", "--keypad takes the rows, a slash, then the columns"),
        ("5,6/6,7", "line 6 is named twice"),
    ])
    func aBadKeypadArgumentIsRefused(argument: String, message: String) throws {
        let result = try CLITests.run(["watch", "--keypad", argument])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func checkListsTheKeypad() throws {
        let path = try ReplayThroughPipelineTests.configuration(Self.keypad + "\n    diodes: true\n    key_map: default\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run(["check", "--config", path])
        #expect(result.status == 0, "\(result.stderr)")
        // Its 16 keys are typed on the keyboard `run` makes: the summary says so.
        #expect(result.stdout.contains("0 button(s), 1 keypad(s), 0 group(s), 0 action(s), 16 key binding(s) on the keyboard"), "\(result.stdout)")
        #expect(result.stdout.contains("door: keypad 4×4 on ") && result.stdout.contains("rows 5, 6, 13, 19 (bias pull-up), columns 12, 16, 20, 21"))
        #expect(result.stdout.contains("keys 123A 456B 789C *0#D; diodes (any keys at once)"))
        #expect(result.stdout.contains("types 1 KEY_1, 2 KEY_2"))
    }
}
