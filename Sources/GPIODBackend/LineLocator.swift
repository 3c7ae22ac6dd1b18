import Settings

/// Finds the chip and offsets for what a user typed: `17`, `GPIO17`, with or without `--chip`.
package enum LineLocator {
    /// Resolves `lines` (offsets or line names) on `chipSpec`, or, without one, on the chip where the
    /// named lines are (the header's chip first), or for offsets alone on the 40-pin header's chip
    /// (`HeaderChip.choose(among:)`: `gpiochip4` on a Pi 5 with a kernel from before the renumbering, else `gpiochip0`).
    package static func locate(chip chipSpec: String?, lines: [String]) throws(GPIOError) -> (chip: GPIOChip, offsets: [Int]) {
        let names = lines.filter { Int($0) == nil }
        let chip: GPIOChip
        var chosen: HeaderChipChoice?
        if let chipSpec {
            chip = try GPIOChip.open(chipSpec)
        } else if let firstName = names.first {
            chip = try chipHolding(name: firstName)
        } else {
            let chips = openChips()
            let choice = HeaderChip.choose(among: chips.map { $0.summary() })
            if let open = chips.first(where: { $0.name == choice.chip }) {
                chip = open
            } else {
                chip = try GPIOChip.open(choice.chip)
            }
            chosen = choice
        }
        var offsets: [Int] = []
        for line in lines {
            if let offset = Int(line) {
                guard offset >= 0, offset < chip.lineCount else {
                    throw .offsetOutOfRange(chip: chosen?.inErrors ?? chip.name, offset: offset, lineCount: chip.lineCount)
                }
                offsets.append(offset)
            } else if let offset = chip.offset(ofLineNamed: line) {
                offsets.append(offset)
            } else if chipSpec == nil, let other = try? chipHolding(name: line) {
                throw .linesOnDifferentChips([chip.name, other.name])
            } else {
                throw .unknownLineName(line, chip: chip.name, suggestions: suggestions(for: line, among: chip.lineNames()))
            }
        }
        return (chip, offsets)
    }

    /// The chip that offsets alone mean on this machine, and why (reads every chip's label and line names).
    package static func headerChip() -> HeaderChipChoice {
        HeaderChip.choose(among: openChips().map { $0.summary() })
    }

    /// Every chip of this machine that can be opened, in number order.
    static func openChips() -> [GPIOChip] {
        GPIOChip.availablePaths().compactMap { try? GPIOChip(path: $0) }
    }

    /// The chip with a line named `name`: the header's chip if it has one, else the first in order.
    static func chipHolding(name: String) throws(GPIOError) -> GPIOChip {
        let chips = openChips()
        let summaries = chips.map { $0.summary() }
        if let holder = HeaderChip.holder(of: name, among: summaries), let chip = chips.first(where: { $0.name == holder.name }) {
            return chip
        }
        if GPIOChip.availablePaths().isEmpty { throw .noSuchChip(HeaderChip.fallback, available: []) }
        throw .unknownLineName(name, chip: nil, suggestions: suggestions(for: name, among: summaries.flatMap(\.lineNames).filter { !$0.isEmpty }))
    }

    /// Up to three names close to `name` (`NearestNames.suggestions`).
    package static func suggestions(for name: String, among candidates: [String]) -> [String] {
        NearestNames.suggestions(for: name, among: candidates)
    }
}
