import GPIODBackend
import Testing

/// The chip that offsets alone mean, on the chip layouts of Raspberry Pi kernels and of other boards
/// (the same layouts as vm/gpio-sim.sh's `gpiosim_board`, which the kernel tests run on).
@Suite struct HeaderChipTests {
    /// The header's names at offsets 0 to 27 (bcm2711 and rp1), then `extra` more lines.
    static func headerNames(extra: [String]) -> [String] {
        ["ID_SDA", "ID_SCL"] + (2...27).map { "GPIO\($0)" } + extra
    }
    static func unnamed(_ count: Int) -> [String] { Array(repeating: "", count: count) }

    static let pi3 = [ChipDescription(
        name: "gpiochip0", label: "pinctrl-bcm2835",
        lineNames: ["ID_SDA", "ID_SCL", "SDA1", "SCL1", "GPIO_GCLK"] + (5...27).map { "GPIO\($0)" } + unnamed(26))]
    static let pi4 = [
        ChipDescription(name: "gpiochip0", label: "pinctrl-bcm2711", lineNames: headerNames(extra: ["RGMII_MDIO", "RGMIO_MDC"] + unnamed(28))),
        ChipDescription(name: "gpiochip1", label: "raspberrypi-exp-gpio", lineNames: ["BT_ON", "WL_ON", "PWR_LED_OFF", "GLOBAL_RESET", "VDD_SD_IO_SEL", "CAM_GPIO", "SD_PWR_ON", ""]),
    ]
    /// The SoC's own chips of a Pi 5; their line 17 is a line of their own.
    static func brcmstb(numbers: [Int]) -> [ChipDescription] {
        let chips: [(String, [String])] = [
            ("107d508500", ["", "2712_BOOT_CS_N", "2712_BOOT_MISO", "2712_BOOT_MOSI", "2712_BOOT_SCLK"] + unnamed(15) + ["PWR_GPIO"] + unnamed(11)),
            ("107d508520", ["WIFI_SDIO_D0", "WIFI_SDIO_D1", "WIFI_SDIO_D2", "WIFI_SDIO_D3"]),
            ("107d517c00", ["RP1_SDA", "RP1_SCL", "RP1_RUN", "SD_IOVDD_SEL", "SD_PWR_ON"] + unnamed(12)),
            ("107d517c20", ["HDMI0_SCL", "HDMI0_SDA", "HDMI1_SCL", "HDMI1_SDA", "PMIC_SCL", "PMIC_SDA"]),
        ]
        return zip(numbers, chips).map { ChipDescription(name: "gpiochip\($0)", label: "gpio-brcmstb@\($1.0)", lineNames: $1.1) }
    }
    static let rp1Names = headerNames(extra: ["PCIE_RP1_WAKE", "FAN_TACH", "HOST_SDA", "HOST_SCL", "ETH_RST_N"] + unnamed(21))
    static let pi5Old = brcmstb(numbers: [0, 1, 2, 3]) + [ChipDescription(name: "gpiochip4", label: "pinctrl-rp1", lineNames: rp1Names)]
    static let pi5New = [ChipDescription(name: "gpiochip0", label: "pinctrl-rp1", lineNames: rp1Names)] + brcmstb(numbers: [10, 11, 12, 13])

    @Test func aPi3Or4sHeaderIsGpiochip0ByItsLabel() {
        #expect(HeaderChip.choose(among: Self.pi3) == HeaderChipChoice(chip: "gpiochip0", evidence: .label("pinctrl-bcm2835")))
        #expect(HeaderChip.choose(among: Self.pi4) == HeaderChipChoice(chip: "gpiochip0", evidence: .label("pinctrl-bcm2711")))
    }

    @Test func aPi5BeforeTheRenumberingHasItsHeaderOnGpiochip4() {
        let choice = HeaderChip.choose(among: Self.pi5Old)
        #expect(choice == HeaderChipChoice(chip: "gpiochip4", evidence: .label("pinctrl-rp1")))
        #expect(choice.description == "gpiochip4 (the 40-pin header's chip, label pinctrl-rp1)")
    }

    @Test func aPi5AfterTheRenumberingHasItsHeaderOnGpiochip0() {
        #expect(HeaderChip.choose(among: Self.pi5New) == HeaderChipChoice(chip: "gpiochip0", evidence: .label("pinctrl-rp1")))
    }

    @Test func anUnknownLabelWithTheHeadersNamesIsTheHeader() {
        // A Pi 5 whose RP1 driver labels its chip otherwise (as mainline's may), after the SoC's chips.
        let chips = Self.brcmstb(numbers: [0, 1]) + [ChipDescription(name: "gpiochip2", label: "1f000d0000.gpio", lineNames: Self.rp1Names)]
        let choice = HeaderChip.choose(among: chips)
        #expect(choice == HeaderChipChoice(chip: "gpiochip2", evidence: .lineName))
        #expect(choice.isHeader)
    }

    @Test func anotherBoardFallsBackToGpiochip0() {
        // GPIO17 at another offset is not the header's numbering.
        let chips = [
            ChipDescription(name: "gpiochip0", label: "1c20800.pinctrl", lineNames: Self.unnamed(224)),
            ChipDescription(name: "gpiochip1", label: "gpio-expander", lineNames: ["GPIO17"] + Self.unnamed(20)),
        ]
        let choice = HeaderChip.choose(among: chips)
        #expect(choice == HeaderChipChoice(chip: "gpiochip0", evidence: .fallback))
        #expect(!choice.isHeader)
        #expect(choice.description.contains("no Raspberry Pi header chip"))
    }

    @Test func noChipsFallBackToGpiochip0() {
        #expect(HeaderChip.choose(among: []) == HeaderChipChoice(chip: "gpiochip0", evidence: .fallback))
    }

    @Test func aNameOnSeveralChipsMeansTheHeadersLine() {
        // A SoC chip that also has a line named GPIO17 comes first in order; the header's still wins.
        var soc = Self.brcmstb(numbers: [0, 1, 2, 3])
        soc[0].lines[5].name = "GPIO17"
        let chips = soc + [ChipDescription(name: "gpiochip4", label: "pinctrl-rp1", lineNames: Self.rp1Names)]
        #expect(HeaderChip.holder(of: "GPIO17", among: chips)?.name == "gpiochip4")
        #expect(HeaderChip.holder(of: "GPIO17", among: Self.pi5Old)?.name == "gpiochip4")
        #expect(HeaderChip.holder(of: "PWR_GPIO", among: Self.pi5Old)?.name == "gpiochip0")
        #expect(HeaderChip.holder(of: "HDMI0_SDA", among: Self.pi5New)?.name == "gpiochip13")
        #expect(HeaderChip.holder(of: "GPIO99", among: Self.pi5Old) == nil)
    }

    @Test func errorsNameTheChosenChipAndTheOverride() {
        let choice = HeaderChip.choose(among: Self.pi5Old)
        let message = GPIOError.offsetOutOfRange(chip: choice.inErrors, offset: 60, lineCount: 54).description
        #expect(message.contains("gpiochip4 (the 40-pin header's chip"))
        #expect(message.contains("--chip"))
        #expect(message.contains("lines 0 to 53"))
    }
}
