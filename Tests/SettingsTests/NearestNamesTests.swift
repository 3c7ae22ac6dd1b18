import Settings
import Testing

/// "Did you mean": the names close to a misspelt line name, key or setting.
@Suite struct NearestNamesTests {
    @Test func suggestsCloseLineNames() {
        let names = ["GPIO17", "GPIO27", "GPIO4", "ID_SDA", "SPI_CE0_N"]
        #expect(NearestNames.suggestions(for: "gpio17", among: names).first == "GPIO17")
        #expect(NearestNames.suggestions(for: "GPIO 17", among: names).first == "GPIO17")
        #expect(NearestNames.suggestions(for: "GPI017", among: names).first == "GPIO17")
        #expect(NearestNames.suggestions(for: "BUTTON", among: names).isEmpty)
    }
}
