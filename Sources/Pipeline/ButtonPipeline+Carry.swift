import DebounceCore

extension ButtonPipeline {
    /// Takes over, for the inputs and lines a reload kept, the state they had in `previous` (the
    /// pipeline of the run before): `previousLine[i]` is line `i`'s index in `previous` (`nil`: a line
    /// of an added or changed input, which keeps the state it was made with), `previousInput[n]` input
    /// `n`'s (`OutputSource.input`; `RosterChange.previousInput`).
    /// A kept line's debouncer and the stage after it go on (a held button stays held, a counter's total
    /// and a contact's state go on), and a kept input's own stage too (an encoder's position); the
    /// group lockouts start afresh.
    ///
    /// `suspecting`: the kept lines that may have lost edges since `previous` took its last (lines
    /// requested again: their edges during the reload are not in the kernel's queue). Each is marked so
    /// (`suspectLoss(line:count:)`, counting no loss): once it has settled its level is read, and a change it
    /// missed is reported then. Each kept line's count of lost events goes on.
    package mutating func carry(from previous: ButtonPipeline, previousLine: [Int?], previousInput: [Int?], suspecting: Set<Int> = []) {
        precondition(previousLine.count == lines.count, "one entry per line")
        for encoder in encoders.indices {
            let input = encoders[encoder].source.inputIndex
            guard previousInput.indices.contains(input), let oldInput = previousInput[input],
                let old = previous.encoders.firstIndex(where: { $0.source.inputIndex == oldInput })
            else { continue }
            let state = previous.encoders[old]
            encoders[encoder].decoder = state.decoder
            encoders[encoder].levelA = state.levelA
            encoders[encoder].levelB = state.levelB
        }
        for (line, old) in previousLine.enumerated() {
            guard let old, carryFollower(line: line, from: previous, line: old) else { continue }
            lostEventCounts[line] = previous.lostEventCounts[old]
            // A suspicion, not a loss: nothing is counted (`lostEvents(line:)`).
            if suspecting.contains(line) || previous.lines[old].lossSuspected { suspectLoss(line: line, count: 0) }
        }
        for line in lines.indices { renewDue(line: line) }
    }

    /// Line `line` takes the state of `previous`'s line `old`, when both are the same kind of
    /// follower; returns whether it did.
    private mutating func carryFollower(line: Int, from previous: ButtonPipeline, line old: Int) -> Bool {
        switch (lines[line].follower, previous.lines[old].follower) {
        case (.raw, .raw(let raw)):
            lines[line].follower = .raw(raw)
        case (.encoder(var mine), .encoder(let theirs)):
            mine.lastEdgeNs = theirs.lastEdgeNs
            lines[line].follower = .encoder(mine)
        case (.selector(var mine), .selector(let theirs)):
            mine.lastEdgeNs = theirs.lastEdgeNs
            lines[line].follower = .selector(mine)
            selectors[mine.selector].decoder = previous.selectors[theirs.selector].decoder
        case (.presses(let mine), .presses(let theirs)):
            presses[mine] = previous.presses[theirs]
        case (.gestures(let mine), .gestures(let theirs)):
            let carried = previous.gestures[theirs]
            gestures[mine].debouncer = carried.debouncer
            gestures[mine].recognizer = carried.recognizer.renumbered(groupMember: line)
            gestures[mine].heldSinceStart = carried.heldSinceStart
        case (.contact(let mine), .contact(let theirs)):
            contacts[mine] = previous.contacts[theirs]
        case (.counter(let mine), .counter(let theirs)):
            counters[mine] = previous.counters[theirs]
        case (.reset(let mine), .reset(let theirs)):
            resets[mine].debouncer = previous.resets[theirs].debouncer
        case (.raw, _), (.encoder, _), (.selector, _), (.presses, _), (.gestures, _), (.contact, _), (.counter, _), (.reset, _):
            return false
        }
        return true
    }

    /// The value input `input` (`OutputSource.input`) holds now: an encoder's position, a counter's
    /// total (pulses); nil for an input that holds none. A reload's kept input starts the next run's
    /// presenters from it.
    package func value(ofInput input: Int) -> Int64? {
        if let encoder = encoders.first(where: { $0.source.inputIndex == input }) { return Int64(encoder.decoder.position) }
        for line in lines.indices where lines[line].input == Int32(truncatingIfNeeded: input) {
            if case .counter(let follower) = lines[line].follower { return counters[follower].counter.total }
        }
        return nil
    }
}
