#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGPIOD
import DebounceCore
import LineInput
import LinuxSys
import Settings
import SystemPackage

/// libgpiod's value for a bias, as the shim names it (`GDB_BIAS_*`).
extension Bias {
    var shimValue: Int32 {
        switch self {
        case .asIs: Int32(GDB_BIAS_AS_IS.rawValue)
        case .disabled: Int32(GDB_BIAS_DISABLED.rawValue)
        case .pullUp: Int32(GDB_BIAS_PULL_UP.rawValue)
        case .pullDown: Int32(GDB_BIAS_PULL_DOWN.rawValue)
        }
    }
}

/// One line to request: where it is and how.
package struct LineSelection {
    package var chip: GPIOChip
    package var offset: Int
    package var bias: Bias
    /// Kernel debouncing in nanoseconds (whole microseconds; libgpiod 2 only), 0 for none.
    package var kernelDebounceNs: Int64

    package init(chip: GPIOChip, offset: Int, bias: Bias = .pullUp, kernelDebounceNs: Int64 = 0) {
        self.chip = chip
        self.offset = offset
        self.bias = bias
        self.kernelDebounceNs = kernelDebounceNs
    }
}

/// Real GPIO lines, on one chip or several, requested through libgpiod (`gdb_request_lines`: one
/// request per chip) as inputs with both-edge events, each with its own bias, as the `EdgeSource` of an
/// `EventLoop`. The lines are released (`gdb_request_release`) when this object goes away.
///
/// Its descriptors are every request's (one per line on libgpiod 1, one per chip on libgpiod 2) and an
/// inotify descriptor on the chips' device files (Linux 6.1 does not wake a reader when its chip goes
/// away). Timestamps are the kernel's (`CLOCK_MONOTONIC`). Evidence of lost events, handed to the loop
/// with each read: a gap in the kernel's per-line sequence numbers (libgpiod 2, which drops the oldest
/// events when its queue overflows); on libgpiod 1 (no sequence numbers; the kernel's 16-event queue
/// drops the newest), a read that returned a full queue, or two edges of one direction in a row.
///
/// With `waitsForVanishedChips` (the daemon), a chip that vanishes does not end the run: its request is
/// released, its descriptors are polled no more (-1, which `ppoll` skips: every other descriptor keeps
/// its index), and the loop is told (`EdgeBatch.availability`); an inotify watch on `/dev` notices the
/// chip coming back (the same label and line count, under its path or another), its lines are requested
/// again and read as lines that may have lost edges, so that what changed meanwhile is reported
/// (`GPIODLines+Vanishing.swift`). Without it, a vanished chip throws `chipVanished`.
package final class GPIODLines: EdgeSource {
    /// The requested lines, in line order (a chip that came back replaces its lines' `chip`).
    package internal(set) var selections: [LineSelection]
    /// Whether a vanished chip is waited for (see the type's documentation) rather than thrown.
    let waitsForVanishedChips: Bool
    /// The consumer name and kernel queue the requests were made with, for a chip that comes back.
    let consumer: String
    let eventBufferSize: Int
    /// 1 or 2: the libgpiod generation this was built against.
    package static var libgpiodMajor: Int { Int(gdb_libgpiod_major()) }
    /// The libgpiod version string, e.g. "1.6.3" or "2.2.1".
    package static var libgpiodVersion: String { String(cString: gdb_libgpiod_version()) }
    /// The kernel's fixed event queue per line on the uAPI v1 that libgpiod 1 uses (`GPIOEVENT` kfifo):
    /// a read returning this many events may have lost the newest ones.
    static let v1KernelQueueSize = 16
    /// The kernel queue asked for per request when none is given: 1024 events, the most the kernel's
    /// uAPI v2 keeps per request (64 lines × 16); the kernel's own default is only 16 per line.
    package static let defaultEventBufferSize = 1024
    /// The sizes `eventBufferSize` may take (the kernel caps a request's queue at 1024 events).
    package static let eventBufferSizes = 1...1024
    /// Built with libgpiod 1 (`libgpiodMajor`), asked once.
    private let isV1 = GPIODLines.libgpiodMajor == 1

    // The stored properties read or written at every wakeup are marked `@exclusivity(unchecked)`: this
    // object is used from the loop's thread only and never hands out overlapping accesses, and the
    // runtime's dynamic check costs about 300 instructions per access (a third of an edge's path).

    /// One libgpiod request per chip (its handle is in `requestHandles`, at the same index), with its
    /// lines (indices into `selections`) and their offsets, in the same order, and its chip's name.
    @exclusivity(unchecked) var requests: [(lines: [Int], offsets: [Int], chipName: String)] = []
    /// For each line: which request, and its index in that request.
    @exclusivity(unchecked) private var place: [(request: Int, index: Int)]
    /// The descriptors the loop polls: the requests' (borrowed from libgpiod, which closes them on
    /// release), then the chip watch's.
    @exclusivity(unchecked) package internal(set) var descriptors: [FileDescriptor] = []
    /// The chip watch, after the requests' descriptors.
    package func isRarelyReady(descriptor: Int) -> Bool { descriptor >= descriptorOwners.count }
    /// What reading one request descriptor needs, with no array in it (so reading it copies nothing
    /// that is reference-counted): its request, which of the request's descriptors it is, and the line
    /// it reads (libgpiod 1: one descriptor per line; libgpiod 2: the request's first line, the events
    /// naming their own offsets).
    struct DescriptorOwner {
        /// The request, or -1 while its chip is away (its handle is released: nothing may read it).
        var request: Int
        var descriptor: Int
        var line: Int
    }
    /// For each request descriptor, in `descriptors` order.
    @exclusivity(unchecked) var descriptorOwners: [DescriptorOwner] = []
    /// For each request descriptor, its request, also while its chip is away (where a chip that comes
    /// back puts its descriptors).
    var descriptorRequests: [Int] = []
    /// Per request: whether its chip is away (`waitsForVanishedChips`): its handle is released.
    var vanished: [Bool] = []
    /// The requests' handles, owned by this object (released when it goes away, unless handed over to
    /// the lines of a reload, or released as their chip went away), in request order.
    @exclusivity(unchecked) var requestHandles: [UnsafeMutablePointer<gdb_request>] = []
    /// The requests handed over to the lines of a reload (indices into `requests`): not released here.
    private var handedOver: Set<Int> = []
    /// The lines (indices into `selections`) whose request was taken over from the lines before a
    /// reload: their queued events come on, nothing was lost.
    package private(set) var linesKept: Set<Int> = []
    /// The chips of requests taken over, kept open with them.
    private var keptChips: [GPIOChip] = []
    /// The line of each (request, offset): at `offsetBase[request] + offset`, -1 where the offset is not
    /// requested. Every chip's lines get a slot, so an event's offset finds its line in one step.
    @exclusivity(unchecked) private var lineOfOffset: [Int] = []
    /// Where each request's slots start in `lineOfOffset`, then where the last request's slots end.
    @exclusivity(unchecked) private var offsetBase: [Int] = []
    /// inotify on the chips' device files, or on `/dev` (`waitsForVanishedChips`).
    var chipWatch: FileWatch?
    // What a read writes: memory of this object's own (allocated in `init`, freed in `deinit`), not
    // arrays, so that writing it costs no uniqueness check (a call into the runtime per write).
    /// Where one read puts its events (`GDB_EVENT_BATCH` of them).
    private let events: UnsafeMutableBufferPointer<gdb_edge_event>
    /// Per line: the sequence number of its latest event (libgpiod 2; 0 before the first).
    let lastSequence: UnsafeMutableBufferPointer<UInt>
    /// Per line: the latest level known (from an edge or a read), for libgpiod 1's loss evidence.
    let lastLevel: UnsafeMutableBufferPointer<Level?>
    /// Per line: the events lost so far, from the gaps in the sequence numbers (libgpiod 2).
    private let lost: UnsafeMutableBufferPointer<Int>

    package var lineCount: Int { selections.count }

    /// Events the kernel dropped on `line`, from gaps in libgpiod 2's sequence numbers (`nil` on
    /// libgpiod 1, which has none).
    package func lostEvents(line: Int) -> Int? { Self.libgpiodMajor == 2 ? lost[line] : nil }

    /// Lines `offsets` of one chip, all with `bias`, as `consumer`; `kernelDebounceNs` > 0 asks the kernel
    /// to debounce too (libgpiod 2 only); `eventBufferSize` as for `init(lines:consumer:eventBufferSize:)`.
    package convenience init(
        chip: GPIOChip, offsets: [Int], bias: Bias = .pullUp, consumer: String = "gpio-debounce", kernelDebounceNs: Int64 = 0,
        eventBufferSize: Int? = nil
    ) throws(GPIOError) {
        try self.init(
            lines: offsets.map { LineSelection(chip: chip, offset: $0, bias: bias, kernelDebounceNs: kernelDebounceNs) },
            consumer: consumer, eventBufferSize: eventBufferSize)
    }

    /// Requests `lines` (one request per chip) as `consumer`, each request with a kernel queue of
    /// `eventBufferSize` events (libgpiod 2; `nil`: `defaultEventBufferSize`). When a burst outruns even
    /// that queue, the kernel drops the oldest events and the gap in the sequence numbers is reported as
    /// lost events. libgpiod 1's kernel queue is fixed at 16 events per line, so a size given there is
    /// refused (`eventBufferUnsupported`).
    /// `waitsForVanishedChips`: a chip that vanishes is waited for (see the type's documentation).
    ///
    /// `keeping` (a reload): the lines before, and `previousLine[i]`, line `i`'s index there when its
    /// input was kept. On libgpiod 2 a chip whose lines are all kept, in the same order and with the same
    /// settings, keeps its request, handed over with its queued events and sequence numbers
    /// (`linesKept`); `previous`'s other requests are released before this one requests its own.
    package init(
        lines: [LineSelection], consumer: String = "gpio-debounce", eventBufferSize: Int? = nil, waitsForVanishedChips: Bool = false,
        keeping previous: GPIODLines? = nil, previousLine: [Int?] = []
    ) throws(GPIOError) {
        self.selections = lines
        self.waitsForVanishedChips = waitsForVanishedChips
        self.consumer = consumer
        self.eventBufferSize = eventBufferSize ?? Self.defaultEventBufferSize
        self.place = []
        events = .allocate(capacity: Int(GDB_EVENT_BATCH))
        events.initialize(repeating: gdb_edge_event())
        lastSequence = .allocate(capacity: lines.count)
        lastSequence.initialize(repeating: 0)
        lastLevel = .allocate(capacity: lines.count)
        lastLevel.initialize(repeating: nil)
        lost = .allocate(capacity: lines.count)
        lost.initialize(repeating: 0)
        for line in lines where line.offset < 0 || line.offset >= line.chip.lineCount {
            throw .offsetOutOfRange(chip: line.chip.name, offset: line.offset, lineCount: line.chip.lineCount)
        }
        if lines.contains(where: { $0.kernelDebounceNs > 0 }), Self.libgpiodMajor == 1 {
            throw .kernelDebounceUnsupported(reason: "this gpio-debounce is built with libgpiod \(Self.libgpiodVersion), and only libgpiod 2 can ask the kernel to debounce")
        }
        if let eventBufferSize {
            guard Self.libgpiodMajor == 2 else { throw .eventBufferUnsupported(libgpiodVersion: Self.libgpiodVersion) }
            guard Self.eventBufferSizes.contains(eventBufferSize) else { throw .eventBufferOutOfRange(eventBufferSize) }
        }
        // Group by chip, keeping the first appearance order.
        var chipOrder: [ObjectIdentifier] = []
        var byChip: [ObjectIdentifier: [Int]] = [:]
        for (index, line) in lines.enumerated() {
            let key = ObjectIdentifier(line.chip)
            if byChip[key] == nil { chipOrder.append(key) }
            byChip[key, default: []].append(index)
        }
        var place = Array(repeating: (request: 0, index: 0), count: lines.count)
        // The previous lines' requests this one takes over (by chip), then the rest of them released.
        var takenOver: [ObjectIdentifier: (request: Int, previousLines: [Int])] = [:]
        if let previous {
            // libgpiod 1.6 ties a request to its chip's handle: its lines are always requested again.
            for key in chipOrder where !isV1 {
                let members = byChip[key] ?? []
                guard let request = previous.requestToHandOver(matching: members.map { lines[$0] }),
                    zip(members, request.previousLines).allSatisfy({ previousLine.indices.contains($0) && previousLine[$0] == $1 })
                else { continue }
                takenOver[key] = request
            }
            previous.releaseRequests(except: Set(takenOver.values.map(\.request)))
        }
        for key in chipOrder {
            let members = byChip[key] ?? []
            let request: UnsafeMutablePointer<gdb_request>
            if let previous, let (previousRequest, previousLines) = takenOver[key] {
                request = previous.requestHandles[previousRequest]
                previous.handedOver.insert(previousRequest)
                keptChips.append(previous.selections[previousLines[0]].chip)
                for (member, old) in zip(members, previousLines) {
                    lastSequence[member] = previous.lastSequence[old]
                    lastLevel[member] = previous.lastLevel[old]
                    lost[member] = previous.lost[old]
                    linesKept.insert(member)
                }
            } else {
                request = try Self.request(members.map { lines[$0] }, consumer: consumer, eventBufferSize: eventBufferSize ?? Self.defaultEventBufferSize)
            }
            for (index, member) in members.enumerated() { place[member] = (requests.count, index) }
            requestHandles.append(request)
            vanished.append(false)
            requests.append((members, members.map { lines[$0].offset }, lines[members[0]].chip.name))
        }
        self.place = place
        for (requestIndex, entry) in requests.enumerated() {
            let handle = requestHandles[requestIndex]
            offsetBase.append(lineOfOffset.count)
            var lineAt = Array(repeating: -1, count: lines[entry.lines[0]].chip.lineCount)
            for (line, offset) in zip(entry.lines, entry.offsets) { lineAt[offset] = line }
            lineOfOffset += lineAt
            for descriptor in 0..<Int(gdb_request_fd_count(handle)) {
                descriptors.append(Self.nonBlocking(gdb_request_fd(handle, UInt32(descriptor))))
                let line = entry.lines[min(descriptor, entry.lines.count - 1)]
                descriptorOwners.append(DescriptorOwner(request: requestIndex, descriptor: descriptor, line: line))
                descriptorRequests.append(requestIndex)
            }
        }
        offsetBase.append(lineOfOffset.count)
        // Without inotify (no kernel support, limits reached) a vanished chip is still noticed at its next event.
        if waitsForVanishedChips, let watch = try? FileWatch(directory: Self.deviceDirectory) {
            chipWatch = watch
            descriptors.append(watch.descriptor)
        } else if !waitsForVanishedChips, let watch = try? FileWatch(paths: requests.map { lines[$0.lines[0]].chip.path }) {
            chipWatch = watch
            descriptors.append(watch.descriptor)
        }
    }

    /// Where chips' device files are.
    static let deviceDirectory = "/dev"

    /// A request's descriptor `raw` made non-blocking (fcntl(2)), so that a wakeup reads the kernel's
    /// whole queue (`read`) and the read after the last event returns EAGAIN instead of waiting.
    static func nonBlocking(_ raw: Int32) -> FileDescriptor {
        let flags = fcntl(raw, F_GETFL)
        if flags >= 0 { _ = fcntl(raw, F_SETFL, flags | O_NONBLOCK) }
        return FileDescriptor(rawValue: raw)
    }

    /// One `gdb_request_lines` call for lines of one chip, with a kernel queue of `eventBufferSize` events
    /// (ignored by libgpiod 1), with the error a user can act on.
    static func request(
        _ lines: [LineSelection], consumer: String, eventBufferSize: Int
    ) throws(GPIOError) -> UnsafeMutablePointer<gdb_request> {
        let chip = lines[0].chip
        let offsets = lines.map { UInt32($0.offset) }
        let biases = lines.map { $0.bias.shimValue }
        let debounces = lines.map { UInt($0.kernelDebounceNs / 1_000) }
        if let request = gdb_request_lines(chip.handle, offsets, UInt32(offsets.count), consumer, biases, debounces, UInt32(eventBufferSize)) {
            return request
        }
        let code = Errno(rawValue: errno)
        let wantsKernelDebounce = lines.contains { $0.kernelDebounceNs > 0 }
        switch code {
        case .resourceBusy:
            let busy = lines.first { (try? chip.lineInfo(offset: $0.offset).isUsed) == true }?.offset ?? lines[0].offset
            throw .lineBusy(chip: chip.name, offset: busy, consumer: (try? chip.lineInfo(offset: busy).consumer) ?? "")
        case .invalidArgument where wantsKernelDebounce:
            throw .kernelDebounceUnsupported(reason: "the kernel refused it (kernel debouncing needs Linux 5.10)")
        case .invalidArgument where lines.contains { $0.bias != .asIs }:
            throw .biasUnsupported(chip: chip.name, bias: lines.first { $0.bias != .asIs }?.bias.rawValue ?? "")
        case .permissionDenied, .notPermitted:
            throw .permissionDenied(path: chip.path)
        case .operationNotSupportedByDevice:
            throw .noSuchChip(chip.path, available: GPIOChip.availableNames())
        default:
            throw .system(operation: "requesting lines \(lines.map { String($0.offset) }.joined(separator: ",")) of \(chip.name)", errno: code)
        }
    }

    /// The request (index) of exactly `wanted`'s lines (one chip's: its path, the offsets in the same
    /// order, each with the same bias and kernel debouncing), not yet handed over, with its lines.
    private func requestToHandOver(matching wanted: [LineSelection]) -> (request: Int, previousLines: [Int])? {
        for (index, entry) in requests.enumerated() where !handedOver.contains(index) && !vanished[index] && entry.lines.count == wanted.count {
            let same = zip(entry.lines, wanted).allSatisfy { old, new in
                let have = selections[old]
                return have.chip.path == new.chip.path && have.offset == new.offset && have.bias == new.bias && have.kernelDebounceNs == new.kernelDebounceNs
            }
            if same { return (index, entry.lines) }
        }
        return nil
    }

    /// Releases every request but `kept` (and those handed over already): a reload's lines take the
    /// kept ones over, then request their own. These lines are not read from afterwards.
    private func releaseRequests(except kept: Set<Int>) {
        for (index, handle) in requestHandles.enumerated() where !kept.contains(index) && !handedOver.contains(index) && !vanished[index] {
            gdb_request_release(handle)
            handedOver.insert(index)
        }
    }

    deinit {
        for (index, handle) in requestHandles.enumerated() where !vanished[index] && !handedOver.contains(index) { gdb_request_release(handle) }
        events.deallocate()
        lastSequence.deallocate()
        lastLevel.deallocate()
        lost.deallocate()
    }

    /// The raw level of line `line` (`gdb_request_get_value`).
    package func readLevel(line: Int) throws(LineError) -> Level {
        let (request, index) = place[line]
        if vanished[request] {
            // Its chip is away: the level known last stands until it is back (and read again then).
            guard let level = lastLevel[line] else { throw .chipVanished(chip: requests[request].chipName) }
            return level
        }
        let value = gdb_request_get_value(requestHandles[request], UInt32(index))
        guard value >= 0 else { throw error(reading: "the level of line \(selections[line].offset)", chip: requests[request].chipName) }
        let level: Level = value == 0 ? .low : .high
        lastLevel[line] = level
        return level
    }

    /// Reads the events of `descriptors[descriptor]` (one `gdb_request_read_events` call), or checks
    /// the chips when it is the chip watch.
    @inline(__always)  // into the `EdgeSource` witness the loop calls: one call fewer on every wakeup's path
    package func readReady(descriptor: Int, events pollEvents: PollEvents, into batch: inout EdgeBatch) throws(LineError) {
        guard descriptor < descriptorOwners.count else {
            if waitsForVanishedChips { checkChips(into: &batch) } else { try checkChipsStillThere() }
            return
        }
        let owner = descriptorOwners[descriptor]
        // A descriptor of a chip that went away earlier in this wakeup's walk.
        guard owner.request >= 0 else { return }
        if !pollEvents.isReadable, pollEvents.isFailed {
            guard waitsForVanishedChips else { throw .chipVanished(chip: requests[owner.request].chipName) }
            vanish(owner.request, into: &batch)
            return
        }
        do throws(LineError) {
            try read(owner, into: &batch)
        } catch {
            guard waitsForVanishedChips, case .chipVanished = error else { throw error }
            vanish(owner.request, into: &batch)
        }
    }

    /// Drains the inotify events and throws `chipVanished` if a chip's device file is gone.
    private func checkChipsStillThere() throws(LineError) {
        guard let chipWatch else { return }
        chipWatch.drain()
        for entry in requests where access(selections[entry.lines[0]].chip.path, F_OK) != 0 {
            throw .chipVanished(chip: entry.chipName)
        }
    }

    /// Reads every queued event of one descriptor (`GDB_EVENT_BATCH` at a time, until a read returns
    /// fewer), with the evidence of lost events. All of the queue, not one batch: the loop then
    /// decides by its clock, and a deadline decided on part of a queue that a held-up reader left to
    /// grow (up to 1024 events on libgpiod 2) would report a change whose reversal is still queued.
    @inline(__always)
    private func read(_ owner: DescriptorOwner, into batch: inout EdgeBatch) throws(LineError) {
        while try readBatch(owner, into: &batch) == events.count {}
    }

    /// One read of up to `GDB_EVENT_BATCH` events; returns how many it read (0 when none was queued).
    @inline(__always)
    private func readBatch(_ owner: DescriptorOwner, into batch: inout EdgeBatch) throws(LineError) -> Int {
        let count = gdb_request_read_events(requestHandles[owner.request], UInt32(owner.descriptor), events.baseAddress, UInt32(events.count))
        guard count >= 0 else {
            if errno == EINTR || errno == EAGAIN { return 0 }
            throw error(reading: "edge events", chip: requests[owner.request].chipName)
        }
        let base = offsetBase[owner.request], end = offsetBase[owner.request + 1]
        for index in 0..<Int(count) {
            let event = events[index]
            // On libgpiod 1 each descriptor is one line's; on libgpiod 2 the event names its offset.
            var line = owner.line
            let slot = base + Int(event.offset)
            if slot < end, lineOfOffset[slot] >= 0 { line = lineOfOffset[slot] }
            let level: Level = event.rising != 0 ? .high : .low
            if event.line_seqno != 0 {
                let expected = lastSequence[line] &+ 1
                if event.line_seqno > expected {
                    let gap = Int(event.line_seqno - expected)
                    lost[line] += gap
                    batch.losses.append((line: line, count: gap))
                }
                lastSequence[line] = event.line_seqno
            } else if isV1, lastLevel[line] == level {
                batch.losses.append((line: line, count: nil))
            }
            lastLevel[line] = level
            batch.edges.append(LineEdge(line: line, edge: Edge(level: level, timeNs: Int64(clamping: event.timestamp_ns))))
        }
        if isV1, count >= Self.v1KernelQueueSize {
            // The kernel's queue (one per line on libgpiod 1) was full when read: its newest events may
            // have been dropped.
            batch.losses.append((line: owner.line, count: nil))
        }
        return Int(count)
    }

    /// The error for a failed read: the chip vanished (`ENODEV`), or a plain system error.
    private func error(reading what: String, chip: String) -> LineError {
        let code = Errno(rawValue: errno)
        if code == .operationNotSupportedByDevice || code == .noSuchAddressOrDevice { return .chipVanished(chip: chip) }
        return .system(operation: "reading \(what) of \(chip)", errno: code)
    }
}
