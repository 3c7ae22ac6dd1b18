import ConfigurationFile
import Testing

/// Keys are snake_case; an old spelling (`kernel-debounce`) still loads, with a note naming where it
/// is and how it is written now.
@Suite struct RenamedKeyTests {
    @Test func theOldSpellingLoadsWithANote() throws {
        let configuration = try ConfigurationLoader.load(
            "defaults:\n  kernel-debounce: 2us\nbuttons:\n  - {name: a, line: 17, kernel-debounce: 5us}\n  - {name: b, line: 27}\n", file: "b.yaml")
        #expect(configuration.buttons.map(\.lineSettings.kernelDebounceNs) == [5_000, 2_000])
        #expect(configuration.deprecations.map(\.description) == [
            "b.yaml:2:3: defaults.kernel-debounce: `kernel-debounce` is now written `kernel_debounce` (keys are snake_case, as in Home Assistant and ESPHome); the old spelling still works for now",
            "b.yaml:4:25: buttons[0].kernel-debounce: `kernel-debounce` is now written `kernel_debounce` (keys are snake_case, as in Home Assistant and ESPHome); the old spelling still works for now",
        ])
    }

    @Test func theNewSpellingLoadsWithoutANote() throws {
        let configuration = try ConfigurationLoader.load("buttons:\n  - {name: a, line: 17, kernel_debounce: 5us}\n", file: "b.yaml")
        #expect(configuration.buttons[0].lineSettings.kernelDebounceNs == 5_000)
        #expect(configuration.deprecations.isEmpty)
    }

    @Test func bothSpellingsInOneMappingAreOneKeyTwice() {
        #expect {
            try ConfigurationLoader.load("buttons:\n  - {name: a, line: 17, kernel_debounce: 5us, kernel-debounce: 5us}\n", file: "b.yaml")
        } throws: { error in
            (error as? ConfigurationError)?.description.contains("the key 'kernel_debounce' appears twice") == true
        }
    }
}
