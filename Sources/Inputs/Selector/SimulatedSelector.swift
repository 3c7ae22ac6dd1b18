import DebounceCore
import Simulation

/// A seeded, reproducible selector switch that a simulated person turns: a move every 0.3 to 2
/// seconds, mostly to a neighbouring position, as a real switch makes it. A rotary one-hot switch
/// breaks before it makes: its old line lets go with bounce, no line is active for a quarter to three
/// quarters of the settle time (5 to 15 ms at the default 20 ms), then the new line closes with
/// bounce; about one move in 30 stops between two positions for three settle times (an invalid
/// reading, as a switch left half-turned gives) before it lands. A coded switch's lines change one
/// after another, up to 3 ms apart, each with bounce. The same seed always gives the same
/// edges; each move's edges are made when the previous move's were played (constant memory).
struct SimulatedSelector: IteratorProtocol, Sendable {
    let configuration: SelectorConfiguration
    let activeLevel: ActiveLevel
    /// The values it moves between.
    let values: ClosedRange<Int>
    /// Its position now (where the last move landed).
    private(set) var position: Int
    /// With `recordsMoves`, each move made so far (the ground truth a decoder should recover): where it
    /// landed, and whether it stopped between two positions for longer than a settle time on the way.
    private(set) var moves: [(position: Int, stoppedBetween: Bool)] = []
    let recordsMoves: Bool
    /// How many more moves to make; nil for endless.
    private var remainingMoves: Int?
    private var random: SplitMix64
    private var cursorNs: Int64 = 0
    private var pending: [LineEdge] = []
    private var pendingIndex = 0

    /// A switch of `configuration` at its lowest position, making `moves` moves (nil: endless), each
    /// kept in `moves` with `recordsMoves`.
    init(configuration: SelectorConfiguration, activeLevel: ActiveLevel, lowestValue: Int, seed: UInt64, moves: Int?, recordsMoves: Bool = false) {
        self.recordsMoves = recordsMoves
        self.configuration = configuration
        self.activeLevel = activeLevel
        // The valid values from the lowest up (at most 4,097 of them: a move is mostly to a neighbour).
        values = lowestValue...(lowestValue + max(1, configuration.valueCount(from: lowestValue, atMost: 4_097)) - 1)
        position = lowestValue
        remainingMoves = moves
        random = SplitMix64(seed: seed)
    }

    /// Its lines' levels at the start, line 0 first.
    var initialLevels: [Level] {
        let bits = Self.bits(position, configuration) ?? 0
        return (0..<configuration.lineCount).map { level(active: bits & (1 << UInt32($0)) != 0) }
    }

    mutating func next() -> LineEdge? {
        while pendingIndex == pending.count {
            guard remainingMoves.map({ $0 > 0 }) ?? true, values.count > 1 else { return nil }
            remainingMoves = remainingMoves.map { $0 - 1 }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            move()
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    /// One move's edges, in time order.
    private mutating func move() {
        cursorNs += nanoseconds(300_000_000...2_000_000_000)
        // Mostly a neighbour; one move in 8 anywhere else.
        let neighbour = position + (Bool.random(using: &random) ? 1 : -1)
        var target = values.contains(neighbour) ? neighbour : 2 * position - neighbour
        if random.next() % 8 == 0, case let anywhere = Int.random(in: values, using: &random), anywhere != position { target = anywhere }
        guard let from = Self.bits(position, configuration), let to = Self.bits(target, configuration), target != position else { return }
        var stoppedBetween = false
        if configuration.code == .oneHot {
            let breaks = cursorNs
            stoppedBetween = random.next() % 30 == 0
            // A quarter to three quarters of the settle time between positions; a stop three times it.
            let settleNs = max(configuration.settleNs, 4)
            let gapNs = stoppedBetween ? 3 * settleNs : nanoseconds(settleNs / 4...settleNs * 3 / 4)
            for bit in 0..<configuration.lineCount where from & (1 << UInt32(bit)) != 0 { change(line: bit, toActive: false, atNs: breaks) }
            for bit in 0..<configuration.lineCount where to & (1 << UInt32(bit)) != 0 { change(line: bit, toActive: true, atNs: breaks + gapNs) }
        } else {
            for bit in 0..<configuration.lineCount where (from ^ to) & (1 << UInt32(bit)) != 0 {
                change(line: bit, toActive: to & (1 << UInt32(bit)) != 0, atNs: cursorNs + nanoseconds(0...3_000_000))
            }
        }
        pending.sort { $0.edge.timeNs < $1.edge.timeNs }
        cursorNs = pending.last.map { max(cursorNs, $0.edge.timeNs) } ?? cursorNs
        position = target
        if recordsMoves { moves.append((target, stoppedBetween)) }
    }

    /// Line `line` going active (or not) at `timeNs`, bouncing 0 to 3 times, 50 to 400 µs apart.
    private mutating func change(line: Int, toActive: Bool, atNs timeNs: Int64) {
        var atNs = timeNs
        for _ in 0..<Int(random.next() % 4) {
            pending.append(LineEdge(line: line, edge: Edge(level: level(active: toActive), timeNs: atNs)))
            atNs += nanoseconds(50_000...400_000)
            pending.append(LineEdge(line: line, edge: Edge(level: level(active: !toActive), timeNs: atNs)))
            atNs += nanoseconds(50_000...400_000)
        }
        pending.append(LineEdge(line: line, edge: Edge(level: level(active: toActive), timeNs: atNs)))
    }

    private func level(active: Bool) -> Level {
        (activeLevel == .activeLow) == active ? .low : .high
    }

    private mutating func nanoseconds(_ range: ClosedRange<Int64>) -> Int64 { Int64.random(in: range, using: &random) }

    /// The lines' bits that show `value`, or nil when none do.
    private static func bits(_ value: Int, _ configuration: SelectorConfiguration) -> UInt32? {
        guard let bits = configuration.code.activeLines(forValue: value, lineCount: configuration.lineCount),
            configuration.value(ofActiveLines: bits) == value
        else { return nil }
        return bits
    }
}
