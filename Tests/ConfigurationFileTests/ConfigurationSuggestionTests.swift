import ConfigurationFile
import Testing

/// A misspelt key, key name or device class gets a "did you mean" from the same nearest-name search;
/// a keypad's mistakes point at what to change and show an example of the pad's own size.
@Suite struct ConfigurationSuggestionTests {
    @Test(arguments: [
        ("keypads:\n  - {name: p, rows: [1, 2, 3, 4], colums: [5, 6, 7]}\n", "unknown key 'colums' (did you mean columns?); allowed: name, chip, rows, columns"),
        ("encoders:\n  - {name: knob, lines: [17, 27], steps_per_detant: 4}\n", "unknown key 'steps_per_detant' (did you mean steps_per_detent?)"),
        ("buttons:\n  - {name: a, line: 1, hodl: 1s}\n", "unknown key 'hodl' (did you mean hold?)"),
        ("buttons:\n  - {name: a, line: 1, key: KEY_VOLDOWN}\n", "unknown key 'KEY_VOLDOWN' (did you mean KEY_VOLUMEDOWN?)"),
        ("sensors:\n  - {name: d, line: 2, device_class: doors}\n", "(did you mean door?)"),
    ])
    func aMisspeltNameGetsTheNearestOne(text: String, message: String) throws {
        let error = try #require(ConfigurationValidationTests.failure(text))
        #expect(error.message.contains(message), "\(error)")
    }

    /// A key far from every allowed one gets no guess.
    @Test func aKeyNearNothingGetsNoGuess() throws {
        let error = try #require(ConfigurationValidationTests.failure("buttons:\n  - {name: a, line: 1, zzzzzz: 1}\n"))
        #expect(error.message.hasPrefix("unknown key 'zzzzzz'; allowed:"), "\(error)")
    }

    /// A line twice in one keypad: the error is at the second one in its list.
    @Test func aLineTwiceInOneKeypadPointsAtItInItsList() throws {
        let error = try #require(ConfigurationValidationTests.failure("keypads:\n  - name: p\n    rows: [1, 2, 3, 4]\n    columns: [5, 2, 7]\n"))
        #expect(error.key == "keypads[0].columns[1]" && error.line == 4 && error.column == 18, "\(error)")
        #expect(error.message.contains("line 2 of the 40-pin header's chip is already a line of keypad 'p' (keypads[0])"), "\(error)")
    }

    /// The example of a layout has the pad's rows and columns.
    @Test(arguments: [
        ("rows: [1, 2, 3], columns: [5, 6, 7]", "needs `keys:`, one string per row, e.g. keys: [\"123\", \"456\", \"789\"]"),
        ("rows: [1, 2], columns: [5, 6, 7, 8, 9]", "e.g. keys: [\"12345\", \"67890\"]"),
        ("rows: [1, 2, 3], columns: [5, 6, 7], keys: [\"123\", \"456\"]", "must list 3 strings, one per row, each of 3 keys, e.g. keys: [\"123\", \"456\", \"789\"]"),
        ("rows: [1, 2, 3, 4, 5, 6], columns: [7, 8]", "e.g. keys: [\"12\", \"34\", \"56\", \"78\", …]"),
    ])
    func aLayoutExampleHasThePadsSize(entry: String, message: String) throws {
        let error = try #require(ConfigurationValidationTests.failure("keypads:\n  - {name: p, \(entry)}\n"))
        #expect(error.message.contains(message), "\(error)")
    }
}
