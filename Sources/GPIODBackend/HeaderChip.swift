/// The chip that offsets alone (`watch 17`, `line: 17` without `chip:`, `Button(line: 17)`) mean, and why.
package struct HeaderChipChoice: Sendable, Hashable, CustomStringConvertible {
    /// Why this chip.
    package enum Evidence: Sendable, Hashable {
        /// The chip's label is one of a Raspberry Pi's header chips (`HeaderChip.labels`).
        case label(String)
        /// The chip's line `HeaderChip.probeOffset` is named `GPIO17`.
        case lineName
        /// No chip looks like a Raspberry Pi's header: the first chip, `gpiochip0`.
        case fallback
    }

    /// The kernel's name of the chosen chip, e.g. `gpiochip4`.
    package var chip: String
    package var evidence: Evidence

    package init(chip: String, evidence: Evidence) {
        self.chip = chip
        self.evidence = evidence
    }

    /// Whether the chip was recognised as the 40-pin header's chip (not the fallback).
    package var isHeader: Bool { evidence != .fallback }

    /// `gpiochip4 (the 40-pin header's chip, label pinctrl-rp1)`, or for the fallback
    /// `gpiochip0 (no Raspberry Pi header chip found: the first chip)`.
    package var description: String {
        switch evidence {
        case .label(let label): "\(chip) (the 40-pin header's chip, label \(label))"
        case .lineName: "\(chip) (the 40-pin header's chip: its line \(HeaderChip.probeOffset) is \(HeaderChip.probeName))"
        case .fallback: "\(chip) (no Raspberry Pi header chip found: the first chip)"
        }
    }

    /// The chip as an error message names it: the choice and how to name another chip.
    package var inErrors: String {
        "\(chip) (\(isHeader ? "the 40-pin header's chip, which" : "the first chip: no Raspberry Pi header chip was found, and") offsets alone mean it; --chip or chip: names another)"
    }
}

/// The rule for the chip that offsets alone mean: the 40-pin header's chip on every Raspberry Pi.
///
/// The header's chip is `gpiochip0` on a Pi 1 to 4, and on a Pi 5 since the renumbering of its chips
/// (raspberrypi/linux pull request 6144, in the 6.6 kernels of 2024), but `gpiochip4` on a Pi 5 with an
/// earlier kernel, where `gpiochip0` to `gpiochip3` are the SoC's `gpio-brcmstb@…` chips (with lines of
/// their own at the same offsets).
package enum HeaderChip {
    /// The header chips' labels in Raspberry Pi kernels and mainline Linux: Pi 1 to 3 and Zero
    /// (`pinctrl-bcm2835`), Pi 4 and 400 (`pinctrl-bcm2711`), Pi 5 (`pinctrl-rp1`, its RP1 chip).
    package static let labels: Set<String> = ["pinctrl-bcm2835", "pinctrl-bcm2711", "pinctrl-rp1"]
    /// The header's line names: a chip whose line 17 is named `GPIO17` has the header's numbering.
    package static let probeOffset = 17
    package static let probeName = "GPIO17"
    /// The chip used when no chip looks like a Raspberry Pi's header.
    package static let fallback = "gpiochip0"

    /// The header's chip among `chips` (in the kernel's number order): the first with a header label,
    /// else the first whose line 17 is named `GPIO17`, else `gpiochip0` (also when there are no chips).
    package static func choose(among chips: [ChipDescription]) -> HeaderChipChoice {
        if let chip = chips.first(where: { labels.contains($0.label) }) {
            return HeaderChipChoice(chip: chip.name, evidence: .label(chip.label))
        }
        if let chip = chips.first(where: { $0.lineNames.count > probeOffset && $0.lineNames[probeOffset] == probeName }) {
            return HeaderChipChoice(chip: chip.name, evidence: .lineName)
        }
        return HeaderChipChoice(chip: fallback, evidence: .fallback)
    }

    /// The chip with a line named `name`, the header's chip (`choose(among:)`) first, then the others in
    /// order: on a Pi 5 a name the header shares with another chip means the header's line. `nil` if none.
    package static func holder(of name: String, among chips: [ChipDescription]) -> ChipDescription? {
        let header = choose(among: chips).chip
        let ordered = chips.filter { $0.name == header } + chips.filter { $0.name != header }
        return ordered.first { $0.lineNames.contains(name) }
    }
}
