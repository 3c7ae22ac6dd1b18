import DebounceCore

/// Lost edges: which lines' levels are read again, when, and what a reading changes.
extension ButtonPipeline {
    /// The line may have lost edges (the loop saw a sequence gap, a full queue, or two edges of one
    /// direction in a row): its level will be read again when it matters. `count` is how many the
    /// kernel says it lost, `nil` when it does not say (counted as one, `lostEvents(line:)`).
    /// An encoder's decoder then counts no reversal by settling until its lines are read again
    /// (`QuadratureDecoder.suspectLoss()`).
    public mutating func suspectLoss(line: Int, count: Int? = nil) {
        lostEventCounts[line] += max(count ?? 1, 0)
        guard !lines[line].lossSuspected else { return }
        lines[line].lossSuspected = true
        if case .encoder(let encoderLine) = lines[line].follower { encoders[encoderLine.encoder].decoder.suspectLoss() }
        suspectedLineCount += 1
        renewDue(line: line)
    }

    /// A stopping run's last look at its lines: a raw line (or an encoder's) that may have lost edges
    /// is read once more, so that a recording ends at the line's true level. Returns
    /// `PipelineAction.readLevels` when there is such a line (answer with `resume(_:into:)`).
    package mutating func stop(atNs timeNs: Int64) -> PipelineAction {
        guard suspectedLineCount > 0 else { return .done }
        var request = takeRequest(for: .stop(atNs: timeNs))
        for index in lines.indices where lines[index].lossSuspected {
            switch lines[index].follower {
            case .raw, .encoder, .selector: request.append(index)
            case .presses, .gestures, .contact, .counter, .reset: break
            }
        }
        guard request.lines.isEmpty else { return .readLevels(request) }
        spareRequest = request
        return .done
    }

    /// The loop's answer to `PipelineAction.readLevels`: `request` with a level for each of its lines,
    /// read after the action was returned. Makes the rest of the step that asked: for
    /// `advance(toNs:into:)`, each level corrects its line before the decisions due (a lost edge counts
    /// as arriving at the decision's time, ties putting edges first), then the decisions are made, then
    /// each line that has settled (debounced) or been quiet for `rawSettleNs` (raw) follows its level,
    /// and its suspicion is cleared; for `stop(atNs:)`, each raw line follows its level.
    package mutating func resume(_ request: consuming LevelRequest, into outputs: inout [PipelineOutput]) {
        precondition(request.levels.count == request.lines.count, "a level for each line asked for")
        let start = outputs.count
        defer { collectCodes(from: start, into: &outputs) }
        switch request.step {
        case .advance(let timeNs):
            for (line, level) in zip(request.lines, request.levels) { correctBeforeDecision(line: line, level: level, toNs: timeNs, into: &outputs) }
            decide(toNs: timeNs, into: &outputs)
            // Only lines in the request can need their level now: a debounced line is settled after
            // the decisions only if it was settled or due before them, and a raw line's quiet time
            // does not change with them.
            for (line, level) in zip(request.lines, request.levels) where needsLevel(line: line, toNs: timeNs, settledOnly: true) {
                follow(line: line, level: level, atNs: timeNs, into: &outputs)
            }
        case .stop(let timeNs):
            for (line, level) in zip(request.lines, request.levels) { follow(line: line, level: level, atNs: timeNs, into: &outputs) }
        }
        spareRequest = request
    }

    /// The lines whose levels `advance(toNs: timeNs)` needs, or `nil` when it needs none: every line
    /// that may have lost edges and has a debouncer decision due by `timeNs` or has settled (raw: has
    /// been quiet for `rawSettleNs`).
    @usableFromInline
    mutating func levelRequest(toNs timeNs: Int64) -> LevelRequest? {
        var request = takeRequest(for: .advance(toNs: timeNs))
        for index in lines.indices where needsLevel(line: index, toNs: timeNs, settledOnly: false) { request.append(index) }
        guard request.lines.isEmpty else { return request }
        spareRequest = request
        return nil
    }

    /// Whether `line` may have lost edges and its level matters at `timeNs`: it has settled (debounced)
    /// or been quiet for `rawSettleNs` (raw), or, unless `settledOnly`, has a decision due by then.
    private func needsLevel(line index: Int, toNs timeNs: Int64, settledOnly: Bool) -> Bool {
        guard lines[index].lossSuspected else { return false }
        let decisionNs: Int64?
        switch lines[index].follower {
        case .raw(let raw): return raw.lastEdgeNs.adding(durationNs: Self.rawSettleNs) <= timeNs
        case .encoder(let line): return line.lastEdgeNs.adding(durationNs: Self.rawSettleNs) <= timeNs
        case .selector(let line): return line.lastEdgeNs.adding(durationNs: Self.rawSettleNs) <= timeNs
        case .presses(let follower): decisionNs = presses[follower].debouncer.nextDeadlineNs
        case .gestures(let follower): decisionNs = gestures[follower].debouncer.nextDeadlineNs
        case .contact(let follower): decisionNs = contacts[follower].debouncer.nextDeadlineNs
        case .counter(let follower): decisionNs = counters[follower].debouncer.nextDeadlineNs
        case .reset(let follower): decisionNs = resets[follower].debouncer.nextDeadlineNs
        }
        guard let decisionNs else { return true }
        return !settledOnly && decisionNs <= timeNs
    }

    /// The spare request's storage, emptied for `step` (the spare is left empty until `resume` puts
    /// it back).
    private mutating func takeRequest(for step: LevelRequest.Step) -> LevelRequest {
        var request = LevelRequest()
        swap(&request, &spareRequest)
        request.reset(for: step)
        return request
    }

    /// A level read before a due decision of a debounced line: if it differs from what the edges said,
    /// the lost edge counts as arriving at the decision's time, so the decision sees the truth.
    private mutating func correctBeforeDecision(line index: Int, level: Level, toNs timeNs: Int64, into outputs: inout [PipelineOutput]) {
        switch lines[index].follower {
        case .raw, .encoder, .selector: return
        case .presses(let follower): Self.correct(source: source(of: index), by: &presses[follower], to: level, dueBy: timeNs, groups: &groups, into: &outputs)
        case .gestures(let follower): Self.correct(source: source(of: index), by: &gestures[follower], to: level, dueBy: timeNs, groups: &groups, into: &outputs)
        case .contact(let follower): Self.correct(source: source(of: index), by: &contacts[follower], to: level, dueBy: timeNs, groups: &groups, into: &outputs)
        case .counter(let follower): Self.correct(source: source(of: index), by: &counters[follower], to: level, dueBy: timeNs, groups: &groups, into: &outputs)
        case .reset(let follower):
            Self.correct(source: source(of: index), by: &resets[follower], to: level, dueBy: timeNs, groups: &groups, into: &outputs)
            applyReset(follower, into: &outputs)
        }
        renewDue(line: index)
    }

    /// A level read once the line settled (or at a stop): the reported state follows it if edges were
    /// lost, and the suspicion is cleared. A raw line reports a level its edges had not shown
    /// (`PipelineOutput.levelCorrected`); an encoder's decoder takes both lines' levels as read,
    /// without counting a detent.
    private mutating func follow(line index: Int, level: Level, atNs timeNs: Int64, into outputs: inout [PipelineOutput]) {
        if lines[index].lossSuspected {
            lines[index].lossSuspected = false
            suspectedLineCount -= 1
        }
        defer { renewDue(line: index) }
        switch lines[index].follower {
        case .raw(var raw):
            guard level != raw.level else { return }
            raw.level = level
            raw.lastEdgeNs = max(timeNs, raw.lastEdgeNs)
            lines[index].follower = .raw(raw)
            outputs.append(.levelCorrected(line: index, level: level, atNs: raw.lastEdgeNs))
        case .encoder(var line):
            line.lastEdgeNs = max(timeNs, line.lastEdgeNs)
            lines[index].follower = .encoder(line)
            switch line.side {
            case .a: encoders[line.encoder].levelA = level
            case .b: encoders[line.encoder].levelB = level
            }
            let (a, b) = (encoders[line.encoder].levelA, encoders[line.encoder].levelB)
            for detent in encoders[line.encoder].decoder.resync(a: a, b: b, atNs: timeNs) { outputs.append(.rotation(encoders[line.encoder].source, detent)) }
            let lineA = encoders[line.encoder].lineA
            let other = lineA == index ? encoders[line.encoder].lineB : lineA
            if lines[other].lossSuspected { encoders[line.encoder].decoder.suspectLoss() }
            if lineA != index { renewDue(line: lineA) }
        case .selector(var line):
            line.lastEdgeNs = max(timeNs, line.lastEdgeNs)
            lines[index].follower = .selector(line)
            select(line: index, of: line, level: level, atNs: timeNs, into: &outputs)
        case .presses(let follower): Self.resync(source: source(of: index), by: &presses[follower], to: level, atNs: timeNs, groups: &groups, into: &outputs)
        case .gestures(let follower): Self.resync(source: source(of: index), by: &gestures[follower], to: level, atNs: timeNs, groups: &groups, into: &outputs)
        case .contact(let follower): Self.resync(source: source(of: index), by: &contacts[follower], to: level, atNs: timeNs, groups: &groups, into: &outputs)
        case .counter(let follower): Self.resync(source: source(of: index), by: &counters[follower], to: level, atNs: timeNs, groups: &groups, into: &outputs)
        case .reset(let follower):
            Self.resync(source: source(of: index), by: &resets[follower], to: level, atNs: timeNs, groups: &groups, into: &outputs)
            applyReset(follower, into: &outputs)
        }
    }

    private static func correct<Follower: DebouncedFollower>(
        source: OutputSource, by follower: inout Follower, to level: Level, dueBy timeNs: Int64, groups: inout [GroupLockout],
        into outputs: inout [PipelineOutput]
    ) {
        guard let dueNs = follower.debouncer.nextDeadlineNs, dueNs <= timeNs, level != follower.debouncer.rawLevel else { return }
        resync(source: source, by: &follower, to: level, atNs: dueNs, groups: &groups, into: &outputs)
    }

    private static func resync<Follower: DebouncedFollower>(
        source: OutputSource, by follower: inout Follower, to level: Level, atNs timeNs: Int64, groups: inout [GroupLockout],
        into outputs: inout [PipelineOutput]
    ) {
        if let event = follower.debouncer.resync(level: level, atNs: timeNs) { follower.follow(event, source: source, groups: &groups, into: &outputs) }
    }
}
