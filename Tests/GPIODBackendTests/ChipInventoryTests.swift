import Foundation
import GPIODBackend
import Testing

/// Every lookup of a run answered from one reading of the chips, on the layouts of Raspberry Pi kernels
/// (`HeaderChipTests`, the same as vm/gpio-sim.sh's `gpiosim_board`) made from descriptions: no chip
/// is opened. (The reading itself, and that a run reads once, are tested in the VM: r-one-scan.)
@Suite struct ChipInventoryTests {
    static var pi5Old: ChipInventory { ChipInventory(chips: HeaderChipTests.pi5Old) }
    static var pi5New: ChipInventory { ChipInventory(chips: HeaderChipTests.pi5New) }
    static var pi4: ChipInventory { ChipInventory(chips: HeaderChipTests.pi4) }

    /// The chip's name and the offsets `lines` resolve to.
    static func resolved(_ chips: ChipInventory, chip: String? = nil, _ lines: [String]) throws(GPIOError) -> (String, [Int]) {
        let found = try chips.resolve(chip: chip, lines: lines)
        return (found.chip.name, found.offsets)
    }

    @Test func theHeadersChipIsChosenOnceFromTheChips() {
        #expect(Self.pi5Old.header == HeaderChipChoice(chip: "gpiochip4", evidence: .label("pinctrl-rp1")))
        #expect(Self.pi5New.header == HeaderChipChoice(chip: "gpiochip0", evidence: .label("pinctrl-rp1")))
        #expect(ChipInventory(chips: []).header == HeaderChipChoice(chip: "gpiochip0", evidence: .fallback))
    }

    @Test func offsetsAloneMeanTheHeadersChip() throws {
        #expect(try Self.resolved(Self.pi5Old, ["17", "27"]) == ("gpiochip4", [17, 27]))
        #expect(try Self.resolved(Self.pi5New, ["17"]) == ("gpiochip0", [17]))
        #expect(try Self.resolved(Self.pi4, ["4"]) == ("gpiochip0", [4]))
        #expect(try Self.pi5Old.headerChip().label == "pinctrl-rp1")
    }

    @Test func aNameMeansTheChipThatHasItTheHeadersFirst() throws {
        #expect(try Self.resolved(Self.pi5Old, ["GPIO17"]) == ("gpiochip4", [17]))
        #expect(try Self.resolved(Self.pi5Old, ["PWR_GPIO"]) == ("gpiochip0", [20]))
        #expect(try Self.resolved(Self.pi5New, ["HDMI0_SDA"]) == ("gpiochip13", [1]))
        // The first name decides the chip; offsets beside it are on that chip.
        #expect(try Self.resolved(Self.pi5Old, ["22", "GPIO27", "ID_SDA"]) == ("gpiochip4", [22, 27, 0]))
        #expect(try Self.pi5Old.chip(holding: "WIFI_SDIO_D2").name == "gpiochip1")
    }

    @Test func aChipIsNamedByPathNumberNameOrLabel() throws {
        for spec in ["/dev/gpiochip0", "0", "gpiochip0", "gpio-brcmstb@107d508500"] {
            // The SoC's own line 17, not the header's.
            #expect(try Self.resolved(Self.pi5Old, chip: spec, ["17"]) == ("gpiochip0", [17]), "\(spec)")
        }
        #expect(try Self.resolved(Self.pi5Old, chip: "pinctrl-rp1", ["GPIO5"]) == ("gpiochip4", [5]))
        #expect(try Self.pi5Old.chip("4").path == "/dev/gpiochip4")
    }

    @Test func anOffsetBeyondTheChipNamesTheChipAndWhyItIsThatChip() {
        #expect(throws: GPIOError.offsetOutOfRange(chip: Self.pi5Old.header.inErrors, offset: 60, lineCount: 54)) {
            _ = try Self.pi5Old.resolve(chip: nil, lines: ["60"])
        }
        #expect(throws: GPIOError.offsetOutOfRange(chip: "gpiochip1", offset: 4, lineCount: 4)) {
            _ = try Self.pi5Old.resolve(chip: "gpiochip1", lines: ["4"])
        }
        #expect(throws: GPIOError.offsetOutOfRange(chip: "gpiochip4", offset: -1, lineCount: 54)) {
            _ = try Self.pi5Old.resolve(chip: nil, lines: ["GPIO17", "-1"])
        }
    }

    @Test func anUnknownNameSuggestsCloseNames() throws {
        // On no chip: the close names of every chip.
        #expect {
            _ = try Self.pi5Old.resolve(chip: nil, lines: ["gpio 17"])
        } throws: { error in
            guard case .unknownLineName("gpio 17", chip: nil, let suggestions) = error as? GPIOError else { return false }
            return suggestions.first == "GPIO17"
        }
        // On the chip named: that chip's close names.
        #expect {
            _ = try Self.pi5Old.resolve(chip: "gpiochip4", lines: ["GPI017"])
        } throws: { error in
            guard case .unknownLineName("GPI017", chip: "gpiochip4", let suggestions) = error as? GPIOError else { return false }
            return suggestions.first == "GPIO17"
        }
        // Nothing close: no suggestion. An unnamed line is never found by the empty name.
        #expect(throws: GPIOError.unknownLineName("BUTTON", chip: "gpiochip2", suggestions: [])) {
            _ = try Self.pi5Old.resolve(chip: "gpiochip2", lines: ["BUTTON"])
        }
        #expect(throws: GPIOError.unknownLineName("", chip: "gpiochip2", suggestions: [])) {
            _ = try Self.pi5Old.resolve(chip: "gpiochip2", lines: [""])
        }
    }

    @Test func namesOnTwoChipsAreRefusedWithoutAChip() {
        #expect(throws: GPIOError.linesOnDifferentChips(["gpiochip4", "gpiochip0"])) {
            _ = try Self.pi5Old.resolve(chip: nil, lines: ["GPIO17", "PWR_GPIO"])
        }
        // With a chip, the name not on it is unknown there.
        #expect(throws: GPIOError.unknownLineName("PWR_GPIO", chip: "gpiochip4", suggestions: [])) {
            _ = try Self.pi5Old.resolve(chip: "gpiochip4", lines: ["GPIO17", "PWR_GPIO"])
        }
    }

    @Test func anUnknownLabelListsTheChips() {
        #expect(throws: GPIOError.noSuchChip("pinctrl-bcm2711", available: ["gpiochip0 [pinctrl-rp1]"] + (10...13).map { n in
            "gpiochip\(n) [\(HeaderChipTests.pi5New[n - 9].label)]"
        })) {
            _ = try Self.pi5New.chip("pinctrl-bcm2711")
        }
    }

    @Test func withoutChipsANameOrAnOffsetSaysThereAreNone() {
        let none = ChipInventory(chips: [])
        #expect(none.isEmpty)
        #expect(throws: GPIOError.noSuchChip("gpiochip0", available: [])) { _ = try none.resolve(chip: nil, lines: ["GPIO17"]) }
        guard !FileManager.default.fileExists(atPath: "/dev/gpiochip0") else { return }
        #expect(throws: GPIOError.noSuchChip("/dev/gpiochip0", available: [])) { _ = try none.resolve(chip: nil, lines: ["17"]) }
    }

    @Test func aChipThatCouldNotBeOpenedThrowsWhyWhenItIsUsed() throws {
        let denied = GPIOError.permissionDenied(path: "/dev/gpiochip0")
        let chips = ChipInventory(entries: [
            .unopenable(path: "/dev/gpiochip0", denied),
            .chip(ChipDescription(name: "gpiochip1", label: "gpio-expander", lineNames: ["LED", "BELL"])),
        ])
        #expect(chips.availableNames == ["/dev/gpiochip0", "gpiochip1 [gpio-expander]"])
        // Offsets alone fall back to gpiochip0, which could not be opened.
        #expect(chips.header == HeaderChipChoice(chip: "gpiochip0", evidence: .fallback))
        #expect(throws: denied) { _ = try chips.resolve(chip: nil, lines: ["3"]) }
        #expect(throws: denied) { _ = try chips.resolve(chip: "0", lines: ["3"]) }
        // The chips that could be read are found as ever.
        #expect(try Self.resolved(chips, ["BELL"]) == ("gpiochip1", [1]))
        #expect(try Self.resolved(chips, chip: "gpio-expander", ["0"]) == ("gpiochip1", [0]))
    }

    @Test func aDescriptionKnowsItsLines() {
        let chip = ChipDescription(name: "gpiochip1", label: "raspberrypi-exp-gpio", lineNames: ["BT_ON", "", "BT_ON"])
        #expect(chip.path == "/dev/gpiochip1")
        #expect(chip.lineCount == 3)
        #expect(chip.offset(ofLineNamed: "BT_ON") == 0)
        #expect(chip.offset(ofLineNamed: "") == nil)
        #expect(chip.givenLineNames == ["BT_ON", "BT_ON"])
        #expect(chip.lines.map(\.offset) == [0, 1, 2])
        #expect(chip.nameAndLabel == "gpiochip1 [raspberrypi-exp-gpio]")
    }
}
