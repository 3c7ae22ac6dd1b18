import DebounceCore
import LineInput
import LinuxSys
import Pipeline

extension EventLoop {
    /// What a loop starts from: each line's level, reconciled with the edges already queued when it
    /// was read (`StartLevels`), and those edges, which the run takes before its first wait.
    struct Start {
        var levels: StartLevels
        var queued: EdgeBatch
    }

    /// Reads each line's level, then the clock, then every edge already queued on the source's
    /// descriptors (one `ppoll` that does not wait, and a read of each ready one), and reconciles
    /// them: an edge stamped by the clock reading may be in the level read, so its line starts at the
    /// level before it (`StartLevels`). The clock is the one the kernel stamps line events with
    /// (`LoopClock.monotonic`, `CLOCK_MONOTONIC`) on real pins; sources with no descriptors (simulated
    /// lines, a recorded trace) have nothing queued, and start at the levels read.
    ///
    /// libgpiod 1 infers a lost event from an edge to the level last read (`GPIODLines`); for the
    /// first edge of a line whose level read it explains, that inference is the read's own, and its
    /// evidence is dropped.
    static func readStart(source: any EdgeSource, clock: LoopClock) throws(LineError) -> Start {
        var read: [Level] = []
        read.reserveCapacity(source.lineCount)
        for line in 0..<source.lineCount { read.append(try source.readLevel(line: line)) }
        let readNs = clock.nowNs
        var queued = EdgeBatch()
        let descriptors = source.descriptors
        if !descriptors.isEmpty {
            var pollSet = PollSet<Int>()
            for (index, descriptor) in descriptors.enumerated() { pollSet.add(descriptor, token: index) }
            try readReadyNow(source, polling: &pollSet, into: &queued, operation: "polling the lines at the start (ppoll)")
        }
        let levels = StartLevels(read: read, readNs: readNs, queued: queued.edges)
        for line in levels.explainedLines {
            if let index = queued.losses.firstIndex(where: { $0.line == line && $0.count == nil }) { queued.losses.remove(at: index) }
        }
        return Start(levels: levels, queued: queued)
    }

    /// Takes the edges queued at the start (`readStart`) through the stages, before the first wait,
    /// after telling the sinks of a chip that went away meanwhile. Returns whether the event limit
    /// was reached.
    func takeQueuedAtStart(_ state: inout RunState) throws(LoopError) -> Bool {
        if !queuedAtStart.availability.isEmpty {
            announceAvailability(queuedAtStart.availability)
            queuedAtStart.availability.removeAll()
        }
        guard !queuedAtStart.edges.isEmpty || !queuedAtStart.losses.isEmpty else { return false }
        state.batch = queuedAtStart
        queuedAtStart = EdgeBatch()
        let upToNs = state.batch.edges.lazy.map(\.edge.timeNs).max() ?? stagesStartNs
        defer { state.batch.removeAll() }
        return try process(&state, upToNs: upToNs)
    }
}
