import Foundation
import ConfigurationFile
import Testing

/// Every duration of a configuration needs its unit: a bare number other than 0 is refused at its
/// file, line and column with the spellings to write.
@Suite struct DurationUnitConfigurationTests {
    /// Each case: the file, the key refused and the bare number in it. The error is at the key's value
    /// (the first line that has `name: `, the column after it).
    @Test(arguments: [
        ("sensors:\n  - {name: door, line: 23, on_delay: 2}\n", "sensors[0].on_delay", "2"),
        ("buttons:\n  - {name: a, line: 1, hold: 3}\n", "buttons[0].hold", "3"),
        ("buttons:\n  - {name: a, line: 1, debounce: \"defer:2\"}\n", "buttons[0].debounce", "2"),
        ("buttons:\n  - {name: a, line: 1, press: \"eager:5ms,glitch:1.5\"}\n", "buttons[0].press", "1.5"),
        ("buttons:\n  - {name: a, line: 1, kernel_debounce: 5}\n", "buttons[0].kernel_debounce", "5"),
        ("defaults: {debounce: \"defer:20\"}\nbuttons: [{line: 1}]\n", "defaults.debounce", "20"),
        ("counters:\n  - {name: m, line: 5, timeout: 90}\n", "counters[0].timeout", "90"),
        ("keypads:\n  - {name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], scan_interval: 20}\n", "keypads[0].scan_interval", "20"),
        ("keypads:\n  - {name: p, rows: [1, 2, 3, 4], columns: [5, 6, 7], code: {timeout: 5}}\n", "keypads[0].code.timeout", "5"),
    ] as [(String, String, String)])
    func aBareNumberIsRefusedWithTheSpellingToWrite(text: String, key: String, number: String) throws {
        let error = try #require(ConfigurationValidationTests.failure(text))
        let name = String(key.split(separator: ".").last ?? "") + ": "
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains(name) })
        let column = try #require(lines[line].range(of: name)).upperBound.utf16Offset(in: lines[line]) + 1
        #expect(error.line == line + 1 && error.column == column && error.key == key, "\(error)")
        #expect(error.message.contains("a duration needs a unit: write \(number)ms (or \(number)s, \(number)us)"), "\(error)")
    }

    /// Zero is the same in every unit: `kernel_debounce: 0` (none) and `defer:0` need none.
    @Test func zeroNeedsNoUnit() throws {
        let configuration = try ConfigurationLoader.load("buttons:\n  - {name: a, line: 1, kernel_debounce: 0, debounce: \"defer:0\"}\n", file: "b.yaml")
        #expect(configuration.buttons.count == 1)
    }
}
