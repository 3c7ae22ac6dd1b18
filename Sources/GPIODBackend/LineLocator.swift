/// Close names for "did you mean": a line name that is on no chip (`ChipInventory`), and a command,
/// key or setting misspelt.
package enum LineLocator {
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
