import DebounceCore

/// A selector line's state: which selector (index in `ButtonPipeline.selectors`), which bit of its
/// reading this line is, and the time of the line's latest edge in nanoseconds. Its level is in the
/// selector's decoder (`SelectorDecoder.activeLines`). Narrow fields, 16 bytes as a raw line's: with
/// three 8-byte fields, `receive` took 5 instructions more per edge on every line, whatever its
/// kind (callgrind, `replay` of 200,000 edges: 663 against 657).
struct SelectorLine: Sendable {
    private let selectorIndex: Int32
    private let bitIndex: UInt8
    var lastEdgeNs: Int64

    init(selector: Int, bit: Int, lastEdgeNs: Int64) {
        self.selectorIndex = Int32(truncatingIfNeeded: selector)
        self.bitIndex = UInt8(truncatingIfNeeded: bit)
        self.lastEdgeNs = lastEdgeNs
    }

    var selector: Int { Int(selectorIndex) }
    var bit: Int { Int(bitIndex) }
}

/// A `SelectorPlan` as it runs: its decoder, its lines, the level that reads active, and the edges
/// its lines delivered (its health).
struct SelectorState: Sendable {
    var decoder: SelectorDecoder
    /// What its outputs name: its input and first line.
    let source: OutputSource
    let lines: [Int]
    let activeLevel: ActiveLevel
    var edges = 0
}

/// Selector switches: each decodes its raw lines together; its first line carries the decoder's deadline.
extension ButtonPipeline {
    /// The running state of `plans` on lines that read `initialLevels` at `timeNs`, and each line's
    /// place in them (nil: no selector's).
    static func selectorStates(_ plans: [SelectorPlan], initialLevels: [Level], atNs timeNs: Int64) -> ([SelectorState], [SelectorLine?]) {
        var lineOf: [SelectorLine?] = Array(repeating: nil, count: initialLevels.count)
        let states = plans.enumerated().map { index, plan in
            var activeLines: UInt32 = 0
            for (bit, line) in plan.lines.enumerated() {
                precondition(initialLevels.indices.contains(line) && lineOf[line] == nil && bit < 32, "a selector's lines")
                lineOf[line] = SelectorLine(selector: index, bit: bit, lastEdgeNs: timeNs)
                if plan.activeLevel.isPressed(initialLevels[line]) { activeLines |= 1 << UInt32(bit) }
            }
            return SelectorState(
                decoder: SelectorDecoder(configuration: plan.configuration, activeLines: activeLines, atNs: timeNs),
                source: OutputSource(input: plan.input ?? index, line: plan.lines.first ?? 0), lines: plan.lines, activeLevel: plan.activeLevel)
        }
        return (states, lineOf)
    }

    /// The decoder of selector `index` as it stands (its position, statistics).
    package func decoder(selector index: Int) -> SelectorDecoder { selectors[index].decoder }

    /// A selector line's change (or a level read after lost edges) into its decoder at `timeNs`; the
    /// reading it settles goes out. An edge is counted by the caller (`receive`), a level read is not.
    mutating func select(line index: Int, of line: SelectorLine, level: Level, atNs timeNs: Int64, into outputs: inout [PipelineOutput]) {
        let isActive = selectors[line.selector].activeLevel.isPressed(level)
        if let event = selectors[line.selector].decoder.receive(line: line.bit, isActive: isActive, atNs: timeNs) {
            outputs.append(.selection(selectors[line.selector].source, event))
        }
        let first = selectors[line.selector].source.lineIndex
        if first != index { renewDue(line: first) }
    }

    /// Selector `index`'s reading settled by `timeNs`, if it has.
    mutating func settleSelector(_ index: Int, toNs timeNs: Int64, into outputs: inout [PipelineOutput]) {
        if let event = selectors[index].decoder.advance(toNs: timeNs) { outputs.append(.selection(selectors[index].source, event)) }
    }

    /// The end of a recorded input: each selector's pending reading is decided as if time ran on.
    mutating func finishSelectors(into outputs: inout [PipelineOutput]) {
        for index in selectors.indices {
            guard let dueNs = selectors[index].decoder.nextDeadlineNs else { continue }
            settleSelector(index, toNs: dueNs, into: &outputs)
            renewDue(line: selectors[index].source.lineIndex)
        }
    }

    /// When selector line `line` is next due: after `rawSettleNs` of quiet when it may have lost
    /// edges, and for a selector's first line, at its decoder's deadline.
    func dueNs(of line: SelectorLine, lossSuspected: Bool) -> Int64 {
        var due = lossSuspected ? line.lastEdgeNs.adding(durationNs: Self.rawSettleNs) : .max
        if line.bit == 0, let decoderNs = selectors[line.selector].decoder.nextDeadlineNs { due = min(due, decoderNs) }
        return due
    }

    /// The health of selector `index`: its lines' edges, the readings that changed before they held
    /// (bounce, a moving switch) as bounces absorbed, the invalid readings that held, and the events
    /// its lines lost.
    func health(selector index: Int) -> InputHealth {
        let selector = selectors[index]
        var health = InputHealth(
            edges: selector.edges, bouncesAbsorbed: selector.decoder.unsettledReadings, lostEvents: selector.lines.reduce(0) { $0 + lostEventCounts[$1] },
            countsGlitches: false)
        health.invalidReadings = selector.decoder.invalidReadings
        return health
    }
}
