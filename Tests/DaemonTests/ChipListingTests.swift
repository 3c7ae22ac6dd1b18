import Daemon
import GPIODBackend
import Testing

/// What `list` prints for an inventory, as gpioinfo lays it out, with the header's chip marked.
@Suite struct ChipListingTests {
    static let header = ChipDescription(
        path: "/dev/gpiochip0", name: "gpiochip0", label: "pinctrl-bcm2711",
        lines: [
            LineInfo(offset: 0, name: "ID_SDA"), LineInfo(offset: 17, name: "GPIO17", consumer: "gpio-debounce", isUsed: true),
            LineInfo(offset: 18, name: "", isOutput: true),
        ])
    static let expander = ChipDescription(path: "/dev/gpiochip2", name: "gpiochip2", label: "mcp23017\u{1B}[31m", lines: [LineInfo(offset: 0, name: "")])

    @Test func everyChipWithItsLinesAndTheHeaderMarked() throws {
        let lines = try ChipListing.lines(of: ChipInventory(chips: [Self.header, Self.expander]), chip: nil, libgpiod: "1.6.3")
        #expect(lines[0] == "libgpiod 1.6.3")
        #expect(lines[1].hasPrefix("offsets alone (watch 17) mean gpiochip0"))
        #expect(Array(lines.dropFirst(2)) == [
            "gpiochip0 [pinctrl-bcm2711] 3 lines (/dev/gpiochip0) (40-pin header)",
            "    line   0: \"ID_SDA\"       input  unused",
            "    line  17: \"GPIO17\"       input  used by \"gpio-debounce\"",
            "    line  18: unnamed        output unused",
            "gpiochip2 [mcp23017\\u{1B}[31m] 1 line (/dev/gpiochip2)",
            "    line   0: unnamed        input  unused",
        ])
    }

    @Test func oneChipAskedForOrNoneAtAll() throws {
        let one = try ChipListing.lines(of: ChipInventory(chips: [Self.header, Self.expander]), chip: "gpiochip2", libgpiod: "2.2")
        #expect(one.count == 4 && one[2].hasPrefix("gpiochip2 "))
        let none = try ChipListing.lines(of: ChipInventory(chips: []), chip: nil, libgpiod: "2.2")
        #expect(none == ["No GPIO chips on this machine (no /dev/gpiochip*). `gpio-debounce demo` needs none.", "libgpiod 2.2"])
        #expect(throws: GPIOError.self) { try ChipListing.lines(of: ChipInventory(chips: [Self.header]), chip: "gpiochip9", libgpiod: "2.2") }
    }
}
