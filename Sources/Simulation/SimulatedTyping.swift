import DebounceCore

/// A simulated person typing on a key matrix: keys one at a time, each press bouncing as a button's
/// (`BouncyButton`'s typical profile), with pauses between them; with a code to enter, codes of its
/// shortest length ended by its end key. Made once, as each key's contact over time
/// (`keyEdges[key]`, low while closed), for a `SimulatedMatrix`. The same seed gives the same typing.
package struct SimulatedTyping: Sendable {
    /// Each key's contact, row by row: its edges in time order, starting open (high).
    package private(set) var keyEdges: [[Edge]]
    /// The keys typed, in order (indices into the layout, row by row).
    package private(set) var typed: [Int] = []

    /// `presses` keys of `layout` typed from `startNs`: at random, or with `code` as codes (digits the
    /// code allows, `code.minLength` of them, then its first end key), each followed by one of
    /// `ownKeys` at random (keys with a role of their own, a doorbell's, say), if there are any.
    package init(layout: [[Character]], code: CodeConfiguration?, ownKeys: Set<Character> = [], seed: UInt64, presses: Int, startNs: Int64) {
        let keys = layout.flatMap { $0 }
        keyEdges = Array(repeating: [], count: keys.count)
        var sequence: [Int] = []
        var random = SplitMix64(seed: seed)
        if let code, let end = code.endKeys.first.flatMap({ keys.firstIndex(of: $0) }) {
            let digits = keys.indices.filter { code.collects(keys[$0]) }
            let others = keys.indices.filter { ownKeys.contains(keys[$0]) }
            while sequence.count < presses, !digits.isEmpty {
                for _ in 0..<code.minLength { sequence.append(digits[Int.random(in: digits.indices, using: &random)]) }
                sequence.append(end)
                if !others.isEmpty { sequence.append(others[Int.random(in: others.indices, using: &random)]) }
            }
            sequence = Array(sequence.prefix(presses))
        } else {
            sequence = (0..<presses).map { _ in Int.random(in: keys.indices, using: &random) }
        }
        var button = BouncyButton(seed: seed, activeLevel: .activeLow, startNs: startNs)
        for key in sequence {
            guard let cycle = button.nextCycle() else { break }
            keyEdges[key] += cycle.edges
            typed.append(key)
        }
    }
}
