import ConfigurationFile
import Settings
import Testing

/// Bias names are libgpiod 2's gpiomon's, with libgpiod 1.6's `disable` accepted for `disabled`.
@Suite struct BiasSpellingTests {
    @Test(arguments: [("pull-up", Bias.pullUp), ("pull-down", .pullDown), ("disabled", .disabled), ("disable", .disabled), ("as-is", .asIs)])
    func bothGpiomonsNamesAreRead(text: String, bias: Bias) throws {
        #expect(Bias(spelling: text) == bias)
        let configuration = try ConfigurationLoader.load("buttons:\n  - {line: 17, bias: \(text)}\n", file: "b.yaml")
        #expect(configuration.buttons[0].lineSettings.bias == bias)
        let defaults = try ConfigurationLoader.load("defaults: {bias: \(text)}\nbuttons:\n  - {line: 17}\n", file: "b.yaml")
        #expect(defaults.buttons[0].lineSettings.bias == bias)
    }

    @Test func otherNamesAreRefusedWithLibgpiod2sList() {
        #expect(Bias(spelling: "pullup") == nil && Bias(spelling: "Disable") == nil)
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.load("buttons:\n  - {line: 17, bias: off}\n", file: "b.yaml") }
    }
}
