/// The names a misspelt one was probably meant to be: for a line name (`GPIO71` for `GPIO17`), a key
/// (`KEY_ENTRE`), a configuration's key or a device class. Pure.
package enum NearestNames {
    /// Up to three of `candidates` close to `name`, nearest first: the same ignoring case and
    /// punctuation, within two edits (more for a long name: a quarter of its letters and digits), or,
    /// for a name of 6 or more letters and digits, an abbreviation of the candidate (its letters in
    /// order, with at most half as many left out: `KEY_VOLDOWN` for `KEY_VOLUMEDOWN`).
    package static func suggestions(for name: String, among candidates: [String]) -> [String] {
        func folded(_ text: String) -> [Character] { text.lowercased().filter { $0.isLetter || $0.isNumber } }
        let target = folded(name)
        let scored = Set(candidates).compactMap { candidate -> (Int, String)? in
            let full = folded(candidate)
            let distance = editDistance(full, target)
            let abbreviates = target.count >= 6 && full.count - target.count <= target.count / 2 && isAbbreviation(target, of: full)
            return distance <= max(2, target.count / 4) || abbreviates ? (distance, candidate) : nil
        }
        return scored.sorted { $0 < $1 }.prefix(3).map(\.1)
    }

    /// " (did you mean door?)": the nearest of `candidates` to `name`, or "" if none is near.
    package static func didYouMean(_ name: String, among candidates: [String]) -> String {
        guard let nearest = suggestions(for: name, among: candidates).first else { return "" }
        return " (did you mean \(nearest)?)"
    }

    /// Whether `short` is `full` with some letters left out (its letters in `full`'s order), the first kept.
    static func isAbbreviation(_ short: [Character], of full: [Character]) -> Bool {
        guard let first = short.first, first == full.first else { return false }
        var rest = full[...]
        for character in short {
            guard let found = rest.firstIndex(of: character) else { return false }
            rest = rest[rest.index(after: found)...]
        }
        return true
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
