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

    /// Up to three names close to `name`: the same ignoring case and punctuation, or within two edits.
    package static func suggestions(for name: String, among candidates: [String]) -> [String] {
        func folded(_ text: String) -> [Character] { text.lowercased().filter { $0.isLetter || $0.isNumber } }
        let target = folded(name)
        let scored = Set(candidates).compactMap { candidate -> (Int, String)? in
            let distance = editDistance(folded(candidate), target)
            return distance <= max(2, target.count / 4) ? (distance, candidate) : nil
        }
        return scored.sorted { $0 < $1 }.prefix(3).map(\.1)
    }

    /// Levenshtein distance.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
