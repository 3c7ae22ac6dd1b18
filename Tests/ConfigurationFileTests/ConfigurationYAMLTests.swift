import ConfigurationFile
import Testing

/// What the configuration reader says about YAML that libyaml reads but a configuration cannot use.
@Suite struct ConfigurationYAMLTests {
    static func failure(_ text: String) -> ConfigurationError? {
        do {
            _ = try ConfigurationLoader.load(text, file: "b.yaml")
            return nil
        } catch {
            return error
        }
    }

    /// Aliases of lists of aliases (no alias as a key) stand for billions of values: refused at once.
    @Test func anAliasBombAsValuesIsRefusedAtOnce() throws {
        var text = "buttons:\n  - {line: 1}\na0: &a0 [x, x, x, x, x, x, x, x]\n"
        for level in 1...20 { text += "a\(level): &a\(level) [*a\(level - 1), *a\(level - 1), *a\(level - 1), *a\(level - 1)]\n" }
        let start = ContinuousClock.now
        let error = try #require(Self.failure(text))
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(error.description.hasPrefix("b.yaml:10:15: not valid YAML: its aliases"), "\(error)")
        #expect(error.description.contains("not valid YAML: its aliases (*name) stand for more than 100000 values in all"), "\(error)")
    }

    /// `on` (a YAML 1.1 bool) and `'on'` (a string) are different YAML keys, but the same word here.
    @Test func keysThatDifferOnlyInTypeAreStillTheSameWord() throws {
        let error = try #require(Self.failure("buttons:\n  - {line: 1, actions: [{on: press, 'on': release, run: [x]}]}\n"))
        #expect(error.description.hasPrefix("b.yaml:2:37: buttons[0].actions[0]: the key 'on' appears twice"), "\(error)")
    }

    /// A byte-order mark pasted before a key is invisible, so the key is read without it.
    @Test func aByteOrderMarkBeforeAKeyIsDropped() throws {
        let configuration = try ConfigurationLoader.load("buttons:\n  - {line: 1, \u{FEFF}name: door}\n", file: "b.yaml")
        #expect(configuration.buttons.map(\.name) == ["door"])
    }
}
