/// Every GPIO chip of this machine, read once for a run: each chip in /dev opened once, its name,
/// label and every line's info read once (`ChipDescription`), and the chip that offsets alone mean
/// (`HeaderChip.choose`) chosen once. Every lookup of the run (a chip by path, number, name or label; a
/// line by offset or name; the chip holding a name; the "did you mean" suggestions) is answered from it
/// (`ChipInventory+Lookup.swift`), so that eight buttons cost one scan of the chips, not one each.
///
/// ```swift
/// let chips = ChipInventory.read()                              // run, check, watch, record, list, ButtonSet
/// let (chip, offsets) = try chips.locate(chip: nil, lines: ["17", "GPIO27"])   // an open GPIOChip
/// ```
///
/// Made by `read()` (which opens the chips: never on a simulated run), or from descriptions
/// (`init(chips:)`, `init(entries:)`: tests, no chip opened). The chips `read()` opened stay open as long
/// as the inventory (or a line request made from it) holds them, and are handed to the line requests by
/// `open(_:)`, so that every line of one chip shares one open chip.
package struct ChipInventory {
    /// A chip device of /dev as found: read, or not openable and why (`permissionDenied`, `notAChip`…).
    package enum Entry: Sendable, Hashable {
        case chip(ChipDescription)
        case unopenable(path: String, GPIOError)

        /// The device path, e.g. `/dev/gpiochip0`.
        package var path: String {
            switch self {
            case .chip(let chip): chip.path
            case .unopenable(let path, _): path
            }
        }
    }

    /// Every `/dev/gpiochipN` that is not a symbolic link (`GPIOChip.availablePaths`), in number order.
    package let entries: [Entry]
    /// The chips that could be read, in number order.
    package let chips: [ChipDescription]
    /// The chip that offsets alone mean (`HeaderChip.choose` among `chips`).
    package let header: HeaderChipChoice
    /// The chips `read()` opened, by kernel name; owned here and by the line requests that use them.
    private let openChips: [String: GPIOChip]

    /// An inventory of `entries`, none of them open (`open(_:)` then opens a chip by its path).
    package init(entries: [Entry]) {
        self.init(entries: entries, openChips: [:])
    }

    /// An inventory of chips that could all be read, none of them open.
    package init(chips: [ChipDescription]) {
        self.init(entries: chips.map(Entry.chip))
    }

    private init(entries: [Entry], openChips: [String: GPIOChip]) {
        self.entries = entries
        self.chips = entries.compactMap { if case .chip(let chip) = $0 { chip } else { nil } }
        self.header = HeaderChip.choose(among: chips)
        self.openChips = openChips
    }

    /// Opens every chip of /dev (`GPIOChip(path:)`, `gpiod_chip_open`) and reads its lines
    /// (`ChipDescription(reading:)`): one scan. A chip that cannot be opened is kept with its error,
    /// which a lookup of that chip throws. No chips (none in /dev) is an empty inventory, not an error.
    package static func read() -> ChipInventory {
        var entries: [Entry] = []
        var open: [String: GPIOChip] = [:]
        for path in GPIOChip.availablePaths() {
            do {
                let chip = try GPIOChip(path: path)
                entries.append(.chip(ChipDescription(reading: chip)))
                open[chip.name] = chip
            } catch {
                entries.append(.unopenable(path: path, error))
            }
        }
        return ChipInventory(entries: entries, openChips: open)
    }

    /// Whether this machine has no GPIO chip device at all.
    package var isEmpty: Bool { entries.isEmpty }

    /// The chips as messages list them: `gpiochip0 [pinctrl-bcm2711]`, or the path of one that could
    /// not be opened.
    package var availableNames: [String] {
        entries.map { entry in
            switch entry {
            case .chip(let chip): chip.nameAndLabel
            case .unopenable(let path, _): path
            }
        }
    }

    /// The open chip for `chip`: the one `read()` opened under its kernel name, else opened now from
    /// its path (`GPIOChip(path:)`: an inventory made from descriptions, or a chip found after it).
    package func open(_ chip: ChipDescription) throws(GPIOError) -> GPIOChip {
        if let open = openChips[chip.name] { return open }
        return try GPIOChip(path: chip.path)
    }
}
