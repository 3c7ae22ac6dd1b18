/// Finds the chip and offsets for what a user typed: `17`, `GPIO17`, with or without `--chip`.
public enum LineLocator {
    /// The chip used when only offsets are given: on a Raspberry Pi, the header pins' chip.
    public static let defaultChip = "gpiochip0"

    /// Resolves `lines` (offsets or line names) on `chipSpec`, or, without one, on the chip where the
    /// named lines are (offsets alone mean `gpiochip0`).
    public static func locate(chip chipSpec: String?, lines: [String]) throws(GPIOError) -> (chip: GPIOChip, offsets: [Int]) {
        let names = lines.filter { Int($0) == nil }
        let chip: GPIOChip
        if let chipSpec {
            chip = try GPIOChip.open(chipSpec)
        } else if let firstName = names.first {
            chip = try chipHolding(name: firstName)
        } else {
            chip = try GPIOChip.open(defaultChip)
        }
        var offsets: [Int] = []
        for line in lines {
            if let offset = Int(line) {
                guard offset >= 0, offset < chip.lineCount else {
                    throw .offsetOutOfRange(chip: chip.name, offset: offset, lineCount: chip.lineCount)
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

    /// The first chip with a line named `name`.
    static func chipHolding(name: String) throws(GPIOError) -> GPIOChip {
        var allNames: [String] = []
        for path in GPIOChip.availablePaths() {
            guard let chip = try? GPIOChip(path: path) else { continue }
            if chip.offset(ofLineNamed: name) != nil { return chip }
            allNames += chip.lineNames()
        }
        if GPIOChip.availablePaths().isEmpty { throw .noSuchChip(defaultChip, available: []) }
        throw .unknownLineName(name, chip: nil, suggestions: suggestions(for: name, among: allNames))
    }

    /// Up to three names close to `name`: the same ignoring case and punctuation, or within two edits.
    public static func suggestions(for name: String, among candidates: [String]) -> [String] {
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
