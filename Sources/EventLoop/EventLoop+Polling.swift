import LineInput
import LinuxSys
import SystemPackage

/// What the loop polls, and the wait itself: the poll set and when it is rebuilt, the one `ppoll`
/// (`PollSet.wait`) with the earliest deadline as its timeout, the look at edges that came after a
/// wait returned, and the chips that went away or came back.
extension EventLoop {
    /// The earlier of two optional deadlines (`nil` is "never").
    static func earlier(_ a: Int64?, _ b: Int64?) -> Int64? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    /// Whether the poll set still holds exactly what is to be polled now (the source's descriptors
    /// unless stopping, every sink's).
    func pollSetIsCurrent(_ state: inout RunState) -> Bool {
        guard state.polledWhileStopping == (state.stop != nil), state.polledSourceDescriptors == source.descriptors else { return false }
        for (index, sink) in sinks.enumerated() where sink.descriptors != state.polledSinkDescriptors[index] { return false }
        return true
    }

    /// How many descriptors one `ppoll` waits on with the kernel's wait entries on its stack
    /// (fs/select.c: `N_INLINE_POLL_ENTRIES`, 576 bytes of 64-byte entries on a 64-bit kernel). With
    /// one more, every wait allocates a page for them and frees it on its way back: some 18 µs of an
    /// emulated CPU between an edge and its event, with 8 lines (docs/performance.md).
    static let inlinePollEntries = 9

    /// Registers what is to be polled now: the signal descriptor or the stop switch, the source's
    /// descriptors (not once stopping), every sink's. When they are more than `inlinePollEntries`, the
    /// rarely ready ones (signals, the stop switch, the source's chip watch: `EdgeSource.isRarelyReady`;
    /// the descriptors of a sink that keeps them open: `Sink.keepsDescriptorsOpen`, such as MQTT's)
    /// are waited on through one epoll descriptor (`RunState.rarelyReady`); should that fail (no
    /// descriptor left), they are polled directly, as the run is right either way.
    func rebuildPollSet(_ state: inout RunState) {
        state.pollSet.removeAll()
        state.polledWhileStopping = state.stop != nil
        state.polledSourceDescriptors = source.descriptors
        state.polledSinkDescriptors = sinks.map(\.descriptors)
        // In the order they are handled: signals first, a source's lines before its chip watch.
        var polled: [(descriptor: FileDescriptor, token: Token, isRare: Bool)] = []
        if let signals { polled.append((signals.descriptor, .signals, true)) }
        if let stopSwitch { polled.append((stopSwitch.descriptor, .stopSwitch, true)) }
        state.sourcePollSet.removeAll()
        if state.stop == nil {
            for (index, descriptor) in state.polledSourceDescriptors.enumerated() {
                state.sourcePollSet.add(descriptor, token: index)
                polled.append((descriptor, .source(index), descriptor.rawValue >= 0 && source.isRarelyReady(descriptor: index)))
            }
        }
        for (sinkIndex, descriptors) in state.polledSinkDescriptors.enumerated() {
            let keepsOpen = sinks[sinkIndex].keepsDescriptorsOpen
            for (index, descriptor) in descriptors.enumerated() { polled.append((descriptor, .sink(sinkIndex, index), keepsOpen && descriptor.rawValue >= 0)) }
        }
        let rare = polled.filter(\.isRare)
        if rare.count > 1, polled.count > Self.inlinePollEntries,
           (try? state.rarelyReady.watch(rare.map(\.descriptor), tokens: rare.map(\.token))) != nil,
           let descriptor = state.rarelyReady.descriptor {
            // The rare ones last, as a chip watch was: a line's queued edges are read before its chip's
            // going away lets go of the line.
            polled = polled.filter { !$0.isRare } + [(descriptor, .rarelyReady, true)]
        }
        for entry in polled { state.pollSet.add(entry.descriptor, token: entry.token) }
    }

    /// Handles every ready descriptor once: signals and the stop switch (a stop), the sinks' (their
    /// own work), the source's (its edges into `state.batch`, unless stopping); those behind the epoll
    /// descriptor of the rarely ready ones where it is ready (`readRarelyReady`).
    @inline(__always)
    func readReady(_ state: inout RunState, source: any EdgeSource) throws(LoopError) {
        var cursor = PollSet<Token>.ReadyCursor()
        while let (token, events) = state.pollSet.nextReady(&cursor) { try handleReady(token, events: events, &state, source: source) }
    }

    /// Handles each descriptor the epoll descriptor of the rarely ready ones has ready now.
    @inline(never)
    func readRarelyReady(_ state: inout RunState, source: any EdgeSource) throws(LoopError) {
        for (token, events) in state.rarelyReady.takeReady() { try handleReady(token, events: events, &state, source: source) }
    }

    /// Handles one ready descriptor, by whose it is.
    @inline(__always)
    func handleReady(_ token: Token, events: PollEvents, _ state: inout RunState, source: any EdgeSource) throws(LoopError) {
        switch token {
        case .signals:
            var received = SignalDescriptor.Received()
            if let signals {
                do throws(SystemError) { received = try signals.take() } catch { throw LoopError.system(error) }
            }
            if received.report {
                let reportNs = clock.nowNs
                reportRequested?(state.pipeline, reportNs)
                inspectSinks(state.pipeline, atNs: reportNs)
            }
            if let signal = received.stopSignal { try stopRequested(.interrupted(signal: signal), &state) }
            if received.reload, state.stop == nil { state.reloadRequested = true }
        case .stopSwitch:
            if stopSwitch?.take() == true { try stopRequested(.interrupted(signal: nil), &state) }
        case .sink(let sinkIndex, let index):
            sinks[sinkIndex].descriptorReady(index, events: events)
            state.sinkWasReady = true
        case .source(let index):
            guard state.stop == nil else { return }
            do throws(LineError) { try source.readReady(descriptor: index, events: events, into: &state.batch) } catch { throw LoopError.line(error) }
        case .rarelyReady:
            try readRarelyReady(&state, source: source)
        }
    }

    /// Blocks until a polled descriptor is ready or the clock reaches `deadlineNs`, the time being
    /// `nowNs` (virtual time: jumps there unless a descriptor is ready at once).
    func wait(_ pollSet: inout PollSet<Token>, until deadlineNs: Int64?, nowNs: Int64) throws(LoopError) {
        do {
            if clock.isVirtual {
                if deadlineNs == nil {
                    _ = try pollSet.wait(timeoutNs: nil)  // only signals can come: wait for them
                    return
                }
                let ready = pollSet.isEmpty ? 0 : try pollSet.wait(timeoutNs: 0)
                if ready == 0, let deadlineNs { clock.jump(toNs: deadlineNs) }
            } else {
                _ = try pollSet.wait(timeoutNs: deadlineNs.map { max(0, $0 - nowNs) })
            }
        } catch {
            throw LoopError.system(error)
        }
    }

    /// Tells every sink of the chips that went away or came back in this wakeup.
    func announceAvailability(_ changes: [ChipAvailability]) {
        let nowNs = clock.nowNs
        for change in changes {
            for sink in sinks { sink.availabilityChanged(change, atNs: nowNs) }
        }
    }

    /// Reads the edges that reached the source's descriptors after the wait returned (one `ppoll`
    /// that does not block, then each ready descriptor once): the stages are about to decide by the
    /// clock's `wokeNs`, read before this, and deciding by a time means every edge stamped before it
    /// is in. Without it, a loop held up between its wait and its clock read (a loaded machine) would
    /// take an edge stamped before `wokeNs` as stamped at `wokeNs` (`DebounceStatistics.clampedTimestamps`),
    /// and a whole press that came meanwhile, both its edges taken as one instant, would be lost.
    /// Only on a wakeup where a deadline came: an edge's own wakeup has read its descriptor.
    @inline(__always)
    func catchUp(_ state: inout RunState, source: any EdgeSource) throws(LoopError) {
        do throws(LineError) {
            try Self.readReadyNow(source, polling: &state.sourcePollSet, into: &state.batch, operation: "ppoll")
        } catch {
            throw LoopError.line(error)
        }
    }

    /// Reads each of `source`'s descriptors that is ready now into `batch`: one `ppoll` of `pollSet`
    /// (the source's descriptors, each by its index) that does not wait, then each ready descriptor
    /// once. At the start (`readStart`) and after a wait (`catchUp`); a failed `ppoll` is a
    /// `LineError.system` named `operation`.
    @inline(__always)
    static func readReadyNow(
        _ source: any EdgeSource, polling pollSet: inout PollSet<Int>, into batch: inout EdgeBatch, operation: String
    ) throws(LineError) {
        let ready: Int
        do throws(SystemError) { ready = try pollSet.wait(timeoutNs: 0) } catch { throw .system(operation: operation, errno: error.errno) }
        guard ready > 0 else { return }
        var cursor = PollSet<Int>.ReadyCursor()
        while let (index, events) = pollSet.nextReady(&cursor) { try source.readReady(descriptor: index, events: events, into: &batch) }
    }
}
