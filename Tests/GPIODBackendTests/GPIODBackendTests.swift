import Foundation
import GPIODBackend
import Testing

/// What can be checked without GPIO hardware: how chips and lines are looked up, and that every error
/// a user can hit says what to do. (Real chips are tested on a real kernel: vm/kernel-tests.sh.)
@Suite struct GPIODBackendTests {
    @Test func missingChipSaysWhatExists() {
        let chips = ChipInventory(chips: HeaderChipTests.pi4)
        guard !FileManager.default.fileExists(atPath: "/dev/gpiochip999") else { return }
        // A number, a name and a path all mean the same device; the chips that are there are named.
        for spec in ["/dev/gpiochip999", "999", "gpiochip999"] {
            #expect(throws: GPIOError.noSuchChip("/dev/gpiochip999", available: ["gpiochip0 [pinctrl-bcm2711]", "gpiochip1 [raspberrypi-exp-gpio]"])) {
                _ = try chips.chip(spec)
            }
        }
    }

    @Test func aFileThatIsNoChipIsSaidToBeNoChip() {
        #expect(throws: GPIOError.notAChip(path: "/dev/null")) { _ = try GPIOChip(path: "/dev/null") }
    }

    @Test func everyErrorSaysWhatToDo() {
        let permission = GPIOError.permissionDenied(path: "/dev/gpiochip0").description
        #expect(permission.contains("gpio group") && permission.contains("udev/"))
        #expect(GPIOError.lineBusy(chip: "gpiochip0", offset: 17, consumer: "gpio-keys").description.contains("'gpio-keys' holds it"))
        #expect(GPIOError.offsetOutOfRange(chip: "gpiochip0", offset: 60, lineCount: 54).description.contains("lines 0 to 53"))
        #expect(GPIOError.unknownLineName("gpio17", chip: "gpiochip0", suggestions: ["GPIO17"]).description.contains("did you mean 'GPIO17'"))
        #expect(GPIOError.noSuchChip("gpiochip9", available: ["gpiochip0 [pinctrl-bcm2711]"]).description.contains("gpiochip0 [pinctrl-bcm2711]"))
        #expect(GPIOError.biasUnsupported(chip: "gpiochip0", bias: "pull-up").description.contains("--bias as-is"))
    }

    @Test func reportsTheLibgpiodGenerationItWasBuiltWith() {
        #expect([1, 2].contains(GPIODLines.libgpiodMajor))
        #expect(GPIODLines.libgpiodVersion.hasPrefix("\(GPIODLines.libgpiodMajor)."))
    }
}
