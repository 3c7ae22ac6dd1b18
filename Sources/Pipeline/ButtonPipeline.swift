import DebounceCore

/// The pure stages every mode runs, for all of a run's lines: raw edges → debouncer → gestures and
/// group lockouts → outputs for the sinks. No I/O and no clock reads: time is what the edges say and
/// what the event loop passes to `advance(toNs:into:)`, and `nextDeadlineNs` says when to wake next.
///
/// Lost edges: the loop tells the pipeline when a line may have lost edges (`suspectLoss(line:)`), and
/// only then is that line's level read again: before a decision that is due (so a lost edge cannot
/// make a phantom event), once the line has settled (so a lost final edge cannot leave the reported
/// state wrong), and for a raw line once it has been quiet for `rawSettleNs`. With no loss, the hot
/// path reads nothing but the event buffer.
///
/// Each line's next due time is kept (`dueNs`) and renewed whenever that line changes, so a wakeup
/// costs in proportion to the lines it concerns: the earliest of them is kept too (`nextDeadlineNs`
/// reads it; it is looked for again only when the earliest line's time moved later), and
/// `advance(toNs:into:)` returns at once when nothing is due and otherwise visits only the lines with
/// something due. (A line's stages keep their own time: one that was not visited applies its next
/// edge at the edge's own timestamp.)
///
/// Outputs are appended to a caller's array, so that a run reuses one buffer: no input allocates.
///
/// Public, not package, for speed: Swift 6.3.1 inlines no `package` declaration into another module
/// (`@inlinable package` included), and the loop's call into the pipeline is on the path of every edge.
public struct ButtonPipeline: Sendable {
    /// How long a raw line must be quiet after a suspected loss before its level is read again, in
    /// nanoseconds (a recording's bursts are over by then).
    package static let rawSettleNs: Int64 = 20_000_000

    private struct LineState: Sendable {
        /// The line's debouncer; a raw line's (`isDebounced` false) is a placeholder that is never used.
        /// Not an optional: a field of an optional debouncer is read, and a method called, only by copying
        /// the whole debouncer out first.
        var debouncer: Debouncer
        /// Whether the line is debounced (`LinePlan.debounce`), or raw.
        let isDebounced: Bool
        var recognizer: GestureRecognizer
        var group: Int?
        /// The level after the latest delivered edge (raw lines; debounced lines ask the debouncer).
        var rawLevel: Level
        var lastEdgeNs: Int64
        /// The line may have lost edges since its level was last read.
        var lossSuspected = false
        /// No gesture is on and the line is in no group (`GestureConfiguration.isPassthrough`): the
        /// recognizer would report each press and release unchanged, so it is not run at all.
        let passesThrough: Bool
        /// For a line that passes through: whether its latest reported event was a press. As in the
        /// recognizer, a press is reported only while released and a release only while pressed (the
        /// release of a button held down at the start is not reported).
        var reportedPressed = false
        /// For a line that passes through: the onset of its latest reported press, for the release's
        /// `heldNs`.
        var pressOnsetNs: Int64 = 0
        /// The index of the line's `ContactFilter` in `contacts` (`LineRole.contact`), or -1.
        let contact: Int
        /// The index of the line's `PulseCounter` in `counters` (`LineRole.counter`), or -1.
        let counter: Int
        /// The index of the encoder this line feeds (`EncoderPlan`), or -1.
        let encoder: Int
        /// Whether this line is its encoder's line A, which carries the decoder's deadline.
        let isEncoderA: Bool

        /// When this line next has something due (`Int64.max`: nothing): the debouncer's next decision
        /// that can report, or any pending one while a loss is suspected (for a raw line, the end of
        /// `rawSettleNs` then), and the gestures' next deadline.
        var dueNs: Int64 {
            var due = Int64.max
            if isDebounced {
                if let decisionNs = lossSuspected ? debouncer.nextDeadlineNs : debouncer.nextEventDeadlineNs { due = decisionNs }
            } else if lossSuspected {
                due = lastEdgeNs.adding(durationNs: ButtonPipeline.rawSettleNs)
            }
            if let gestureNs = recognizer.nextDeadlineNs { due = min(due, gestureNs) }
            return due
        }
    }

    private var lines: [LineState]
    /// One per `EncoderPlan`: its decoder and its lines.
    private struct EncoderState: Sendable {
        var decoder: QuadratureDecoder
        let lineA: Int
        let lineB: Int
    }
    private var encoders: [EncoderState]
    /// The contacts' filters (`LineRole.contact`), in line order.
    private var contacts: [ContactFilter] = []
    /// The counters (`LineRole.counter`), in line order.
    private var counters: [PulseCounter] = []
    private var groups: [GroupLockout]
    /// When each line next has something due (`Int64.max`: nothing), renewed by `renewDue(line:)`.
    private var dueNs: [Int64]
    /// The earliest of `dueNs`, kept with it: what `nextDeadlineNs` says, and what lets `advance`
    /// return at once when nothing is due, whatever the number of lines.
    private var earliestDueNs = Int64.max
    /// How many lines have `lossSuspected` set.
    private var suspectedLineCount = 0
    /// Whether `receive` reports each raw edge (`PipelineOutput.edge`): off when no sink wants them.
    private let reportsEdges: Bool

    /// A pipeline whose line `i` reads `initialLevels[i]` at `timeNs` and runs through `plans[i]`;
    /// `groups` are the lockouts that `LinePlan.group` indexes; `encoders` decode pairs of (raw) lines.
    package init(
        plans: [LinePlan], groups: [GroupLockout] = [], encoders: [EncoderPlan] = [], initialLevels: [Level], atNs timeNs: Int64,
        reportsEdges: Bool = true
    ) {
        self.reportsEdges = reportsEdges
        precondition(plans.count == initialLevels.count, "one initial level per line")
        self.groups = groups
        var encoderOfLine = Array(repeating: -1, count: plans.count)
        for (index, plan) in encoders.enumerated() {
            precondition(plans.indices.contains(plan.lineA) && plans.indices.contains(plan.lineB) && plan.lineA != plan.lineB, "an encoder's two lines")
            encoderOfLine[plan.lineA] = index
            encoderOfLine[plan.lineB] = index
        }
        self.encoders = encoders.map { plan in
            EncoderState(
                decoder: QuadratureDecoder(configuration: plan.configuration, a: initialLevels[plan.lineA], b: initialLevels[plan.lineB], atNs: timeNs),
                lineA: plan.lineA, lineB: plan.lineB)
        }
        var contacts: [ContactFilter] = []
        var counters: [PulseCounter] = []
        self.lines = zip(plans, initialLevels).enumerated().map { index, pair in
            let (plan, level) = pair
            let encoder = encoderOfLine[index]
            let debouncer = Debouncer(configuration: plan.debounce ?? DebounceConfiguration(), initialLevel: level, atNs: timeNs)
            let isDebounced = plan.debounce != nil && encoder < 0
            var contact = -1
            var counter = -1
            switch plan.role {
            case .button:
                break
            case .contact(let configuration) where isDebounced:
                contact = contacts.count
                contacts.append(ContactFilter(configuration: configuration, isOn: debouncer.isPressed, atNs: timeNs))
            case .counter(let initialTotal) where isDebounced:
                counter = counters.count
                counters.append(PulseCounter(total: initialTotal))
            case .contact, .counter:
                break  // A raw line has no debounced events to filter or count.
            }
            let isButton = contact < 0 && counter < 0
            return LineState(
                debouncer: debouncer, isDebounced: isDebounced,
                recognizer: GestureRecognizer(configuration: isButton ? plan.gestures : GestureConfiguration(), groupMember: index),
                group: isButton ? plan.group : nil, rawLevel: level, lastEdgeNs: timeNs,
                passesThrough: isButton && plan.gestures.isPassthrough && plan.group == nil,
                contact: contact, counter: counter, encoder: encoder, isEncoderA: encoder >= 0 && encoders[encoder].lineA == index)
        }
        self.contacts = contacts
        self.counters = counters
        self.dueNs = Array(repeating: .max, count: plans.count)
        for index in lines.indices { renewDue(line: index) }
    }

    /// How many lines.
    public var lineCount: Int { lines.count }

    /// The debouncer of `line` as it stands, or `nil` for a raw line.
    package func debouncer(line: Int) -> Debouncer? { lines[line].isDebounced ? lines[line].debouncer : nil }

    /// The debouncer statistics of `line`, or `nil` for a raw line.
    package func statistics(line: Int) -> DebounceStatistics? { lines[line].isDebounced ? lines[line].debouncer.statistics : nil }

    /// Presses of `line` that its throttle or its group swallowed (with their releases).
    package func swallowedPresses(line: Int) -> Int { lines[line].recognizer.swallowedPresses }

    /// The earliest time any stage has something due, in nanoseconds; `nil` when nothing is (then the
    /// loop may sleep until the next edge, however long). A debouncer counts with its next decision
    /// that can report (`Debouncer.nextEventDeadlineNs`: a clean eager press wakes the loop once, not
    /// again at its lockout's end), or with any pending decision while its line may have lost edges
    /// (then the level is read before and after it).
    public var nextDeadlineNs: Int64? { earliestDueNs == .max ? nil : earliestDueNs }

    /// Whether any line may have lost edges: only then can `needsLevelBeforeAdvance`,
    /// `needsLevelAfterAdvance` or `needsLevelAtStop` be true for some line.
    public var isLossSuspected: Bool { suspectedLineCount > 0 }

    /// Applies one raw edge: it goes to the sinks, then through the line's stages.
    public mutating func receive(_ lineEdge: LineEdge, into outputs: inout [PipelineOutput]) {
        if reportsEdges { outputs.append(.edge(lineEdge)) }
        let index = lineEdge.line
        var encoder = -1
        let event: ButtonEvent? = withLine(index) { line in
            line.rawLevel = lineEdge.edge.level
            line.lastEdgeNs = max(line.lastEdgeNs, lineEdge.edge.timeNs)
            encoder = line.encoder
            return line.isDebounced ? line.debouncer.receive(lineEdge.edge) : nil
        }
        if let event { recognize(event, line: index, into: &outputs) }
        if encoder >= 0 { decode(lineEdge, encoder: encoder, into: &outputs) }
        renewDue(line: index)
    }

    /// An encoder line's change into its decoder; the detents it completes go out.
    private mutating func decode(_ lineEdge: LineEdge, encoder index: Int, into outputs: inout [PipelineOutput]) {
        let (detents, lineA) = encoders.withUnsafeMutableBufferPointer { buffer in
            let line: QuadratureDecoder.Line = lineEdge.line == buffer[index].lineA ? .a : .b
            return (buffer[index].decoder.receive(line: line, level: lineEdge.edge.level, atNs: lineEdge.edge.timeNs), buffer[index].lineA)
        }
        for detent in detents { outputs.append(.rotation(encoder: index, detent)) }
        if lineA != lineEdge.line { renewDue(line: lineA) }
    }

    /// The line may have lost edges (the loop saw a sequence gap, a full queue, or two edges of one
    /// direction in a row): its level will be read again when it matters.
    public mutating func suspectLoss(line: Int) {
        guard !lines[line].lossSuspected else { return }
        lines[line].lossSuspected = true
        suspectedLineCount += 1
        renewDue(line: line)
    }

    /// Whether the loop must read `line`'s level before `advance(toNs:)`: a loss is suspected and a
    /// debouncer decision is due by then.
    public func needsLevelBeforeAdvance(line: Int, toNs timeNs: Int64) -> Bool {
        guard lines[line].lossSuspected, lines[line].isDebounced, let due = lines[line].debouncer.nextDeadlineNs else { return false }
        return due <= timeNs
    }

    /// The level read before a due decision: if it differs from what the edges said, the lost edge
    /// counts as arriving at the decision's time (ties put edges first), so the decision sees the truth.
    public mutating func correctBeforeAdvance(line index: Int, level: Level, into outputs: inout [PipelineOutput]) {
        guard lines[index].isDebounced, let due = lines[index].debouncer.nextDeadlineNs, level != lines[index].debouncer.rawLevel else { return }
        if let event = withLine(index, { $0.debouncer.resync(level: level, atNs: due) }) { recognize(event, line: index, into: &outputs) }
        renewDue(line: index)
    }

    /// Makes every decision due by `timeNs` (all edges up to `timeNs` must have been received).
    /// Only the lines with something due by then are visited: debouncers first, then those lines'
    /// gestures, in line order.
    public mutating func advance(toNs timeNs: Int64, into outputs: inout [PipelineOutput]) {
        guard earliestDueNs <= timeNs else { return }
        for index in dueNs.indices where dueNs[index] <= timeNs {
            let event: ButtonEvent? = withLine(index) { $0.isDebounced ? $0.debouncer.advance(toNs: timeNs) : nil }
            if let event { recognize(event, line: index, into: &outputs) }
        }
        for index in dueNs.indices where dueNs[index] <= timeNs {
            let contact = lines[index].contact
            if contact >= 0 {
                // A change that began before the contact's pending one was due, still undecided: the
                // pending one may not have lasted its delay, so it waits for the debouncer's decision.
                let (undecidedOnsetNs, debouncerDueNs) = withLine(index) { ($0.debouncer.pendingOnsetNs, $0.debouncer.nextDeadlineNs) }
                if let due = contacts[contact].nextDeadlineNs, due <= timeNs, let onset = undecidedOnsetNs, onset <= due, let debouncerDueNs {
                    contacts[contact].postpone(toNs: debouncerDueNs)
                }
                if let change = contacts[contact].advance(toNs: timeNs) { outputs.append(.contact(line: index, change)) }
            } else if !lines[index].passesThrough {
                for gesture in withLine(index, { $0.recognizer.advance(toNs: timeNs) }) { outputs.append(.event(line: index, gesture)) }
            }
            let encoder = withLine(index) { $0.isEncoderA ? $0.encoder : -1 }
            if encoder >= 0 {
                let detents = encoders.withUnsafeMutableBufferPointer { $0[encoder].decoder.advance(toNs: timeNs) }
                for detent in detents { outputs.append(.rotation(encoder: encoder, detent)) }
            }
            renewDue(line: index)
        }
    }

    /// Whether the loop must read `line`'s level after `advance(toNs: timeNs)`: a loss is suspected and the
    /// line has settled (debounced), or has been quiet for `rawSettleNs` (raw).
    public func needsLevelAfterAdvance(line: Int, atNs timeNs: Int64) -> Bool {
        guard lines[line].lossSuspected else { return false }
        if lines[line].isDebounced { return lines[line].debouncer.isSettled }
        return lines[line].lastEdgeNs.adding(durationNs: Self.rawSettleNs) <= timeNs
    }

    /// The level read once the line settled: the reported state follows it if edges were lost, and the
    /// suspicion is cleared.
    public mutating func correctAfterAdvance(line index: Int, level: Level, atNs timeNs: Int64, into outputs: inout [PipelineOutput]) {
        if lines[index].lossSuspected {
            lines[index].lossSuspected = false
            suspectedLineCount -= 1
        }
        defer { renewDue(line: index) }
        let encoder = withLine(index) { $0.encoder }
        if encoder >= 0 {
            // An encoder's line: the decoder takes both lines' levels as read, without counting a detent.
            lines[index].rawLevel = level
            lines[index].lastEdgeNs = max(timeNs, lines[index].lastEdgeNs)
            let (a, b, lineA) = (lines[encoders[encoder].lineA].rawLevel, lines[encoders[encoder].lineB].rawLevel, encoders[encoder].lineA)
            let detents = encoders.withUnsafeMutableBufferPointer { $0[encoder].decoder.resync(a: a, b: b, atNs: timeNs) }
            for detent in detents { outputs.append(.rotation(encoder: encoder, detent)) }
            if lineA != index { renewDue(line: lineA) }
        } else if lines[index].isDebounced {
            if let event = withLine(index, { $0.debouncer.resync(level: level, atNs: timeNs) }) { recognize(event, line: index, into: &outputs) }
        } else if level != lines[index].rawLevel {
            lines[index].rawLevel = level
            let atNs = max(timeNs, lines[index].lastEdgeNs)
            lines[index].lastEdgeNs = atNs
            outputs.append(.levelCorrected(line: index, level: level, atNs: atNs))
        }
    }

    /// The end of a recorded input: every line's pending debounce decision is made as if time ran on
    /// (`Debouncer.finish`), and its gestures end as `GestureRecognizer.finish` says (a click run waiting
    /// for its window is reported; a press still down gets no hold or repeat it has not had).
    package mutating func finish(into outputs: inout [PipelineOutput]) {
        for index in lines.indices {
            if lines[index].isDebounced, let event = withLine(index, { $0.debouncer.finish() }) {
                recognize(event, line: index, into: &outputs)
            }
            let contact = lines[index].contact
            if contact >= 0 {
                if let change = contacts[contact].finish() { outputs.append(.contact(line: index, change)) }
            } else if !lines[index].passesThrough {
                for gesture in withLine(index, { $0.recognizer.finish() }) { outputs.append(.event(line: index, gesture)) }
            }
            renewDue(line: index)
        }
        for index in encoders.indices {
            let detents = encoders.withUnsafeMutableBufferPointer { $0[index].decoder.finish() }
            for detent in detents { outputs.append(.rotation(encoder: index, detent)) }
            renewDue(line: encoders[index].lineA)
        }
    }

    /// The contact filter of `line` as it stands, or `nil` when the line is no contact.
    package func contactFilter(line: Int) -> ContactFilter? { lines[line].contact >= 0 ? contacts[lines[line].contact] : nil }

    /// The pulse counter of `line` as it stands, or `nil` when the line is no counter.
    package func pulseCounter(line: Int) -> PulseCounter? { lines[line].counter >= 0 ? counters[lines[line].counter] : nil }

    /// The decoder of encoder `index` as it stands (its position, statistics).
    package func decoder(encoder index: Int) -> QuadratureDecoder { encoders[index].decoder }

    /// How many encoders.
    package var encoderCount: Int { encoders.count }

    /// Whether a stopping run must read `line`'s level once more: a raw line with a suspected loss, so
    /// that a recording ends at the line's true level.
    package func needsLevelAtStop(line: Int) -> Bool {
        lines[line].lossSuspected && !lines[line].isDebounced
    }

    /// A debounced event goes through the line's gestures (and group), which report what they make of it.
    private mutating func recognize(_ event: ButtonEvent, line index: Int, into outputs: inout [PipelineOutput]) {
        if lines[index].passesThrough {
            // What the recognizer does with gestures off, without copying its state and output: the
            // debouncer's times are already in order, so only the press/release alternation is left.
            let isPress = event.kind == .press
            guard isPress || event.kind == .release else { return }
            let pressOnsetNs: Int64? = withLine(index) { line in
                guard isPress != line.reportedPressed else { return nil }
                line.reportedPressed = isPress
                defer { if isPress { line.pressOnsetNs = event.onsetNs } }
                return line.pressOnsetNs
            }
            guard let pressOnsetNs else { return }
            var reported = event
            if !isPress { reported.heldNs = event.onsetNs.durationNs(since: pressOnsetNs) }
            outputs.append(.event(line: index, reported))
            return
        }
        let (contact, counter) = (lines[index].contact, lines[index].counter)
        if contact >= 0 {
            let changes = contacts[contact].receive(event)
            if let first = changes.first { outputs.append(.contact(line: index, first)) }
            if let second = changes.second { outputs.append(.contact(line: index, second)) }
            return
        }
        if counter >= 0 {
            if let pulse = counters[counter].receive(event) { outputs.append(.count(line: index, pulse)) }
            return
        }
        let gestures: GestureOutput
        if let group = lines[index].group {
            gestures = lines[index].recognizer.receive(event, group: &groups[group])
        } else {
            gestures = lines[index].recognizer.receive(event)
        }
        for gesture in gestures { outputs.append(.event(line: index, gesture)) }
    }

    /// Works out when `line` next has something due, after anything about it changed, and the
    /// earliest due time of all lines (looking at every line only when the earliest one moved later).
    private mutating func renewDue(line index: Int) {
        // Through a buffer pointer: the line's state is read in place, where the array's getter would
        // copy all of it (debouncer and gestures) out first.
        let (ownDue, encoder, contact) = lines.withUnsafeBufferPointer {
            ($0[index].dueNs, $0[index].isEncoderA ? $0[index].encoder : -1, $0[index].contact)
        }
        var due = ownDue
        // A contact's line also carries its filter's deadline (a state waiting out its delay).
        if contact >= 0, let changeNs = contacts.withUnsafeBufferPointer({ $0[contact].nextDeadlineNs }) { due = min(due, changeNs) }
        // An encoder's line A also carries its decoder's deadline (an observation gathered at one instant).
        if encoder >= 0, let decoderNs = encoders.withUnsafeBufferPointer({ $0[encoder].decoder.nextDeadlineNs }) { due = min(due, decoderNs) }
        let previous = dueNs[index]
        guard due != previous else { return }
        dueNs[index] = due
        if due < earliestDueNs {
            earliestDueNs = due
        } else if previous == earliestDueNs {
            earliestDueNs = dueNs.min() ?? .max
        }
    }

    /// Runs `body` on line `index`'s state in place: one uniqueness check of the array and no copy of
    /// the state (a mutation through the array's subscript checks and projects once per access).
    @inline(__always)
    private mutating func withLine<Result>(_ index: Int, _ body: (inout LineState) -> Result) -> Result {
        lines.withUnsafeMutableBufferPointer { body(&$0[index]) }
    }
}
