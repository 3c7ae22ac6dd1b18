import DebounceCore

/// The pure stages every mode runs, for all of a run's lines: raw edges → each line's follower
/// (`LineFollower`: a debouncer and its gestures, contact filter or pulse counter; an encoder's
/// decoder; or nothing, for a raw line) → outputs for the sinks. No I/O and no clock reads: time is
/// what the edges say and what the event loop passes to `advance(toNs:into:)`, and `nextDeadlineNs`
/// says when to wake next.
///
/// Lost edges: the loop tells the pipeline when a line may have lost edges (`suspectLoss(line:)`), and
/// only then is that line's level read again: before a decision that is due (so a lost edge cannot
/// make a phantom event), once the line has settled (so a lost final edge cannot leave the reported
/// state wrong), and for a raw line once it has been quiet for `rawSettleNs`. The pipeline asks for
/// those readings as an action (`PipelineAction.readLevels`) that `advance(toNs:into:)` returns before
/// it decides anything, and the loop answers once, with every level asked for
/// (`resume(_:into:)`). With no loss, the hot path reads nothing but the event buffer.
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

    /// One line: what follows its edges, and whether it may have lost edges since its level was last read.
    struct LineState: Sendable {
        var follower: LineFollower
        /// The input it belongs to (`LinePlan.input`, or its own index): what its outputs name.
        let input: Int32
        var lossSuspected = false
    }

    var lines: [LineState]
    /// The debounced lines' followers, one array per kind (`LineFollower` holds the index).
    var presses: [PressFollower] = []
    var gestures: [GestureFollower] = []
    var contacts: [ContactFollower] = []
    var counters: [CounterFollower] = []
    var resets: [ResetFollower] = []
    /// One per `EncoderPlan`, in their order.
    var encoders: [EncoderState]
    /// One per `SelectorPlan`, in their order.
    var selectors: [SelectorState]
    var groups: [GroupLockout]
    /// When each line next has something due (`Int64.max`: nothing), renewed by `renewDue(line:)`.
    var dueNs: [Int64]
    /// The earliest of `dueNs`, kept with it: what `nextDeadlineNs` says, and what lets `advance`
    /// return at once when nothing is due, whatever the number of lines.
    @usableFromInline var earliestDueNs = Int64.max
    /// Events each line lost, as `suspectLoss(line:count:)` was told.
    var lostEventCounts: [Int]
    /// How many lines have `lossSuspected` set.
    @usableFromInline var suspectedLineCount = 0
    /// Whether `receive` reports each raw edge (`PipelineOutput.edge`): off when no sink wants them.
    let reportsEdges: Bool
    /// The storage of the latest `LevelRequest`, kept for the next one, so that asking for levels does
    /// not allocate once its arrays have grown.
    var spareRequest = LevelRequest()
    /// The keypads' code entry (`CodePlan`), and each line's key in it (empty without codes).
    @usableFromInline var codes: [CodeState] = []
    /// The codes entered since the loop last handed them out (`removeEnteredCodes`), each named by a
    /// `PipelineOutput.code`'s `CodeMark.index`.
    public internal(set) var enteredCodes: [EnteredCode] = []
    var codeKeyOfLine: [CodeKey?] = []

    /// A pipeline whose line `i` reads `initialLevels[i]` at `timeNs` and runs through `plans[i]`;
    /// `groups` are the lockouts that `LinePlan.group` indexes; `encoders` decode pairs of (raw) lines;
    /// `codes` collect keypads' codes from their keys' presses; `selectors` decode (raw) lines together.
    package init(
        plans: [LinePlan], groups: [GroupLockout] = [], encoders: [EncoderPlan] = [], codes: [CodePlan] = [], selectors: [SelectorPlan] = [],
        initialLevels: [Level], atNs timeNs: Int64, reportsEdges: Bool = true
    ) {
        precondition(plans.count == initialLevels.count, "one initial level per line")
        self.reportsEdges = reportsEdges
        self.groups = groups
        var encoderOfLine: [EncoderLine?] = Array(repeating: nil, count: plans.count)
        for (index, plan) in encoders.enumerated() {
            precondition(plans.indices.contains(plan.lineA) && plans.indices.contains(plan.lineB) && plan.lineA != plan.lineB, "an encoder's two lines")
            encoderOfLine[plan.lineA] = EncoderLine(encoder: index, side: .a, lastEdgeNs: timeNs)
            encoderOfLine[plan.lineB] = EncoderLine(encoder: index, side: .b, lastEdgeNs: timeNs)
        }
        self.encoders = encoders.enumerated().map { index, plan in
            let (a, b) = (initialLevels[plan.lineA], initialLevels[plan.lineB])
            return EncoderState(
                decoder: QuadratureDecoder(configuration: plan.configuration, a: a, b: b, atNs: timeNs, position: plan.initialPosition),
                source: OutputSource(input: plan.input ?? index, line: plan.lineA), lineA: plan.lineA, lineB: plan.lineB, levelA: a, levelB: b)
        }
        let (selectorStates, selectorOfLine) = Self.selectorStates(selectors, initialLevels: initialLevels, atNs: timeNs)
        self.selectors = selectorStates
        var (presses, gestures, contacts, counters) = ([PressFollower](), [GestureFollower](), [ContactFollower](), [CounterFollower]())
        var resets: [ResetFollower] = []
        var lines: [LineState] = []
        lines.reserveCapacity(plans.count)
        for (index, (plan, level)) in zip(plans, initialLevels).enumerated() {
            let follower: LineFollower
            if let encoderLine = encoderOfLine[index] {
                follower = .encoder(encoderLine)
            } else if let selectorLine = selectorOfLine[index] {
                follower = .selector(selectorLine)
            } else if let configuration = plan.debounce {
                let debouncer = Debouncer(configuration: configuration, initialLevel: level, atNs: timeNs)
                switch plan.role {
                case .button where plan.gestures.isPassthrough && plan.group == nil:
                    follower = .presses(presses.count)
                    presses.append(PressFollower(debouncer: debouncer))
                case .button:
                    follower = .gestures(gestures.count)
                    gestures.append(
                        GestureFollower(
                            debouncer: debouncer, recognizer: GestureRecognizer(configuration: plan.gestures, groupMember: index), group: plan.group,
                            heldSinceStart: debouncer.isPressed))
                case .contact(let configuration):
                    follower = .contact(contacts.count)
                    contacts.append(
                        ContactFollower(debouncer: debouncer, filter: ContactFilter(configuration: configuration, isOn: debouncer.isPressed, atNs: timeNs)))
                case .counter(let initialTotal, let rate):
                    follower = .counter(counters.count)
                    counters.append(CounterFollower(debouncer: debouncer, counter: PulseCounter(total: initialTotal, rate: rate)))
                case .encoderReset(let encoder, let position):
                    precondition(encoders.indices.contains(encoder), "a reset line's encoder")
                    follower = .reset(resets.count)
                    resets.append(ResetFollower(debouncer: debouncer, encoder: encoder, position: position))
                }
            } else {
                follower = .raw(RawLine(level: level, lastEdgeNs: timeNs))
            }
            lines.append(LineState(follower: follower, input: Int32(truncatingIfNeeded: plan.input ?? index)))
        }
        self.lines = lines
        (self.presses, self.gestures, self.contacts, self.counters, self.resets) = (presses, gestures, contacts, counters, resets)
        self.dueNs = Array(repeating: .max, count: plans.count)
        self.lostEventCounts = Array(repeating: 0, count: plans.count)
        (self.codes, self.codeKeyOfLine) = Self.codeStates(codes, lineCount: plans.count)
        for index in lines.indices { renewDue(line: index) }
    }

    /// How many lines.
    public var lineCount: Int { lines.count }

    /// What line `index`'s outputs name: its input and itself.
    @inline(__always)
    func source(of index: Int) -> OutputSource { OutputSource(input: Int(lines[index].input), line: index) }

    /// The earliest time any stage has something due, in nanoseconds; `nil` when nothing is (then the
    /// loop may sleep until the next edge, however long). A debouncer counts with its next decision
    /// that can report (`Debouncer.nextEventDeadlineNs`: a clean eager press wakes the loop once, not
    /// again at its lockout's end), or with any pending decision while its line may have lost edges
    /// (then the level is read before and after it).
    public var nextDeadlineNs: Int64? { earliestDueNs == .max ? nil : earliestDueNs }

    /// `nextDeadlineNs` without the counters' rate falls (`MeterRate`): the earliest decision an
    /// input still owes, `nil` once every line has settled. A falling rate is no pending decision:
    /// it does not keep a finished simulation running, nor put off the idle timeout.
    public var nextDecisionDeadlineNs: Int64? {
        guard !counters.isEmpty, nextDeadlineNs != nil else { return nextDeadlineNs }
        var due = Int64.max
        for index in lines.indices {
            guard case .counter(let follower) = lines[index].follower else {
                due = min(due, dueNs[index])
                continue
            }
            let debouncer = counters[follower].debouncer
            if let decisionNs = debouncer.decisionDeadlineNs(lossSuspected: lines[index].lossSuspected) { due = min(due, decisionNs) }
        }
        return due == .max ? nil : due
    }

    /// Applies one raw edge: it goes to the sinks, then through the line's follower. A debounced
    /// line's due time is renewed from its follower while it is at hand.
    public mutating func receive(_ lineEdge: LineEdge, into outputs: inout [PipelineOutput]) {
        if reportsEdges { outputs.append(.edge(lineEdge)) }
        let start = outputs.count
        let index = lineEdge.line
        let edge = lineEdge.edge
        let state = lines[index]  // one bounds check for all three reads
        let lossSuspected = state.lossSuspected
        let source = OutputSource(input: Int(state.input), line: index)
        let due: Int64
        switch state.follower {
        case .raw(var raw):
            raw.level = edge.level
            raw.lastEdgeNs = max(raw.lastEdgeNs, edge.timeNs)
            lines[index].follower = .raw(raw)
            renewDue(line: index)
            return
        case .encoder(var line):
            line.lastEdgeNs = max(line.lastEdgeNs, edge.timeNs)
            lines[index].follower = .encoder(line)
            decode(edge, line: index, of: line, into: &outputs)
            renewDue(line: index)
            return
        case .selector(var line):
            line.lastEdgeNs = max(line.lastEdgeNs, edge.timeNs)
            lines[index].follower = .selector(line)
            selectors[line.selector].edges += 1
            select(line: index, of: line, level: edge.level, atNs: edge.timeNs, into: &outputs)
            renewDue(line: index)
            return
        case .presses(let follower):
            due = Self.receive(edge, source: source, by: &presses[follower], lossSuspected: lossSuspected, groups: &groups, into: &outputs)
        case .gestures(let follower):
            due = Self.receive(edge, source: source, by: &gestures[follower], lossSuspected: lossSuspected, groups: &groups, into: &outputs)
        case .contact(let follower):
            due = Self.receive(edge, source: source, by: &contacts[follower], lossSuspected: lossSuspected, groups: &groups, into: &outputs)
        case .counter(let follower):
            due = Self.receive(edge, source: source, by: &counters[follower], lossSuspected: lossSuspected, groups: &groups, into: &outputs)
        case .reset(let follower):
            due = Self.receive(edge, source: source, by: &resets[follower], lossSuspected: lossSuspected, groups: &groups, into: &outputs)
            applyReset(follower, into: &outputs)
        }
        setDue(line: index, due)
        if !codes.isEmpty { collectCodes(from: start, into: &outputs) }
    }

    /// Makes every decision due by `timeNs` (all edges up to `timeNs` must have been received), or,
    /// when lines that may have lost edges need their levels read first, decides nothing yet and
    /// returns `PipelineAction.readLevels`: the loop reads them and calls `resume(_:into:)`.
    ///
    /// Inlinable, so that the loop sees `.done` returned whenever no loss is suspected, and neither
    /// builds nor destroys an action on that path (every edge of a replay takes it), nor calls
    /// `decide` when nothing is due.
    @inlinable
    public mutating func advance(toNs timeNs: Int64, into outputs: inout [PipelineOutput]) -> PipelineAction {
        if suspectedLineCount > 0, let request = levelRequest(toNs: timeNs) { return .readLevels(request) }
        if earliestDueNs <= timeNs {
            let start = outputs.count
            decide(toNs: timeNs, into: &outputs)
            if !codes.isEmpty { collectCodes(from: start, into: &outputs) }
        }
        return .done
    }

    /// The end of a recorded input: every line's pending debounce decision is made as if time ran on
    /// (`Debouncer.finish`), and its stage ends as its `finishStage` says (gestures: a click run waiting
    /// for its window is reported; a press still down gets no hold or repeat it has not had).
    package mutating func finish(into outputs: inout [PipelineOutput]) {
        let start = outputs.count
        defer { collectCodes(from: start, into: &outputs) }
        for index in lines.indices {
            switch lines[index].follower {
            case .raw, .encoder, .selector: break
            case .presses(let follower): Self.finish(source: source(of: index), by: &presses[follower], groups: &groups, into: &outputs)
            case .gestures(let follower): Self.finish(source: source(of: index), by: &gestures[follower], groups: &groups, into: &outputs)
            case .contact(let follower): Self.finish(source: source(of: index), by: &contacts[follower], groups: &groups, into: &outputs)
            case .counter(let follower): Self.finish(source: source(of: index), by: &counters[follower], groups: &groups, into: &outputs)
            case .reset(let follower):
                Self.finish(source: source(of: index), by: &resets[follower], groups: &groups, into: &outputs)
                applyReset(follower, into: &outputs)
            }
            renewDue(line: index)
        }
        for index in encoders.indices {
            for detent in encoders[index].decoder.finish() { outputs.append(.rotation(encoders[index].source, detent)) }
            renewDue(line: encoders[index].lineA)
        }
        finishSelectors(into: &outputs)
    }

    /// Makes every decision due by `timeNs`. Only the lines with something due by then are visited:
    /// debouncers first, then those lines' stages (and encoders' decoders), in line order.
    @usableFromInline
    mutating func decide(toNs timeNs: Int64, into outputs: inout [PipelineOutput]) {
        guard earliestDueNs <= timeNs else { return }
        for index in dueNs.indices where dueNs[index] <= timeNs { decideDebouncer(line: index, toNs: timeNs, into: &outputs) }
        for index in dueNs.indices where dueNs[index] <= timeNs {
            if lines[index].follower.hasStage { decideStage(line: index, toNs: timeNs, into: &outputs) }
            renewDue(line: index)
        }
    }

    // `decide`'s steps for one line are functions of their own, not inlined into its loops: there, the
    // optimizer would make every follower array unique before each loop, whatever the kinds of the
    // lines visited, and an empty array (a kind the run does not have) shares the storage of all empty
    // arrays, so it would be copied again at every decision.

    /// The debouncer's decisions of `line` due by `timeNs`, into its stage.
    @inline(never)
    private mutating func decideDebouncer(line index: Int, toNs timeNs: Int64, into outputs: inout [PipelineOutput]) {
        switch lines[index].follower {
        case .raw, .encoder, .selector: break
        case .presses(let follower): Self.advance(source: source(of: index), by: &presses[follower], toNs: timeNs, groups: &groups, into: &outputs)
        case .gestures(let follower): Self.advance(source: source(of: index), by: &gestures[follower], toNs: timeNs, groups: &groups, into: &outputs)
        case .contact(let follower): Self.advance(source: source(of: index), by: &contacts[follower], toNs: timeNs, groups: &groups, into: &outputs)
        case .counter(let follower): Self.advance(source: source(of: index), by: &counters[follower], toNs: timeNs, groups: &groups, into: &outputs)
        case .reset(let follower):
            Self.advance(source: source(of: index), by: &resets[follower], toNs: timeNs, groups: &groups, into: &outputs)
            applyReset(follower, into: &outputs)
        }
    }

    /// The decisions of `line`'s stage due by `timeNs` (an encoder's line A: its decoder's).
    @inline(never)
    private mutating func decideStage(line index: Int, toNs timeNs: Int64, into outputs: inout [PipelineOutput]) {
        switch lines[index].follower {
        case .raw: break
        case .encoder(let line):
            // Line A carries its decoder's deadline (an observation gathered at one instant).
            if line.side == .a {
                for detent in encoders[line.encoder].decoder.advance(toNs: timeNs) { outputs.append(.rotation(encoders[line.encoder].source, detent)) }
            }
        case .selector(let line):
            // The first line carries its decoder's deadline.
            if line.bit == 0 { settleSelector(line.selector, toNs: timeNs, into: &outputs) }
        case .presses(let follower): presses[follower].advanceStage(toNs: timeNs, source: source(of: index), into: &outputs)
        case .gestures(let follower): gestures[follower].advanceStage(toNs: timeNs, source: source(of: index), into: &outputs)
        case .contact(let follower): contacts[follower].advanceStage(toNs: timeNs, source: source(of: index), into: &outputs)
        case .counter(let follower): counters[follower].advanceStage(toNs: timeNs, source: source(of: index), into: &outputs)
        case .reset: break
        }
    }

    /// An encoder line's change into its decoder; the detents it completes go out.
    private mutating func decode(_ edge: Edge, line index: Int, of line: EncoderLine, into outputs: inout [PipelineOutput]) {
        let (detents, lineA) = encoders.withUnsafeMutableBufferPointer { buffer in
            switch line.side {
            case .a: buffer[line.encoder].levelA = edge.level
            case .b: buffer[line.encoder].levelB = edge.level
            }
            return (buffer[line.encoder].decoder.receive(line: line.side, level: edge.level, atNs: edge.timeNs), buffer[line.encoder].lineA)
        }
        let source = encoders[line.encoder].source
        for detent in detents { outputs.append(.rotation(source, detent)) }
        if lineA != index { renewDue(line: lineA) }
    }

    /// Works out when `line` next has something due, after anything about it changed, and the
    /// earliest due time of all lines (looking at every line only when the earliest one moved later).
    /// A line is due at its debouncer's next decision that can report (any pending one while a loss
    /// is suspected; for a raw line, the end of `rawSettleNs` then), at its stage's next deadline, and
    /// for an encoder's line A at its decoder's.
    mutating func renewDue(line index: Int) {
        let line = lines[index]
        let due: Int64
        switch line.follower {
        case .raw(let raw):
            due = line.lossSuspected ? raw.lastEdgeNs.adding(durationNs: Self.rawSettleNs) : .max
        case .encoder(let encoderLine):
            var lineDue = line.lossSuspected ? encoderLine.lastEdgeNs.adding(durationNs: Self.rawSettleNs) : .max
            if encoderLine.side == .a, let decoderNs = encoders.withUnsafeBufferPointer({ $0[encoderLine.encoder].decoder.nextDeadlineNs }) {
                lineDue = min(lineDue, decoderNs)
            }
            due = lineDue
        case .selector(let selectorLine): due = dueNs(of: selectorLine, lossSuspected: line.lossSuspected)
        case .presses(let follower): due = Self.dueNs(of: presses, follower, lossSuspected: line.lossSuspected)
        case .gestures(let follower): due = Self.dueNs(of: gestures, follower, lossSuspected: line.lossSuspected)
        case .contact(let follower): due = Self.dueNs(of: contacts, follower, lossSuspected: line.lossSuspected)
        case .counter(let follower): due = Self.dueNs(of: counters, follower, lossSuspected: line.lossSuspected)
        case .reset(let follower): due = Self.dueNs(of: resets, follower, lossSuspected: line.lossSuspected)
        }
        setDue(line: index, due)
    }

    /// Sets when `line` next has something due, and the earliest due time of all lines (looking at
    /// every line only when the earliest one moved later).
    @inline(__always)
    private mutating func setDue(line index: Int, _ due: Int64) {
        let previous = dueNs[index]
        guard due != previous else { return }
        dueNs[index] = due
        if due < earliestDueNs {
            earliestDueNs = due
        } else if previous == earliestDueNs {
            earliestDueNs = dueNs.min() ?? .max
        }
    }

    // What every debounced follower does, whatever its kind: each takes the follower in place.

    /// The edge through the follower; returns when the line is next due (as `renewDue` works it out).
    @inline(__always)
    private static func receive<Follower: DebouncedFollower>(
        _ edge: Edge, source: OutputSource, by follower: inout Follower, lossSuspected: Bool, groups: inout [GroupLockout],
        into outputs: inout [PipelineOutput]
    ) -> Int64 {
        if let event = follower.debouncer.receive(edge) { follower.follow(event, source: source, groups: &groups, into: &outputs) }
        var due = Int64.max
        if let decisionNs = follower.debouncer.decisionDeadlineNs(lossSuspected: lossSuspected) { due = decisionNs }
        if let stageNs = follower.stageDeadlineNs { due = min(due, stageNs) }
        return due
    }

    @inline(__always)
    private static func advance<Follower: DebouncedFollower>(
        source: OutputSource, by follower: inout Follower, toNs timeNs: Int64, groups: inout [GroupLockout], into outputs: inout [PipelineOutput]
    ) {
        if let event = follower.debouncer.advance(toNs: timeNs) { follower.follow(event, source: source, groups: &groups, into: &outputs) }
    }

    private static func finish<Follower: DebouncedFollower>(
        source: OutputSource, by follower: inout Follower, groups: inout [GroupLockout], into outputs: inout [PipelineOutput]
    ) {
        if let event = follower.debouncer.finish() { follower.follow(event, source: source, groups: &groups, into: &outputs) }
        follower.finishStage(source: source, into: &outputs)
    }

    /// When follower `index` of `followers` next has something due (`Int64.max`: nothing), read in
    /// place (the array's getter would copy the whole follower out first).
    @inline(__always)
    private static func dueNs<Follower: DebouncedFollower>(of followers: [Follower], _ index: Int, lossSuspected: Bool) -> Int64 {
        followers.withUnsafeBufferPointer { buffer in
            var due = Int64.max
            if let decisionNs = buffer[index].debouncer.decisionDeadlineNs(lossSuspected: lossSuspected) { due = decisionNs }
            if let stageNs = buffer[index].stageDeadlineNs { due = min(due, stageNs) }
            return due
        }
    }
}
