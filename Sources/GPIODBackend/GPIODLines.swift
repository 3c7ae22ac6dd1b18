#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGPIOD
import DebounceCore
import LineBackends
import SystemPackage

/// Bias for a requested input line.
public enum Bias: String, Sendable, CaseIterable {
    /// Enable the internal pull-up: for a button to ground (the default).
    case pullUp = "pull-up"
    /// Enable the internal pull-down: for a button to the supply voltage.
    case pullDown = "pull-down"
    /// Disable both pulls: there is an external resistor.
    case disabled
    /// Leave the bias as it is.
    case asIs = "as-is"

    var shimValue: Int32 {
        switch self {
        case .asIs: Int32(GDB_BIAS_AS_IS.rawValue)
        case .disabled: Int32(GDB_BIAS_DISABLED.rawValue)
        case .pullUp: Int32(GDB_BIAS_PULL_UP.rawValue)
        case .pullDown: Int32(GDB_BIAS_PULL_DOWN.rawValue)
        }
    }
}

/// Real GPIO lines of one chip, requested through libgpiod (`gdb_request_lines`) as inputs with
/// both-edge events, as a `LineBackend`. The lines are released when this object goes away.
///
/// `wait` blocks in `ppoll` on the request's file descriptors (one per line on libgpiod 1, one in
/// all on libgpiod 2), with the deadline as the timeout: no wakeups while nothing happens.
/// Timestamps are the kernel's (`CLOCK_MONOTONIC`).
public final class GPIODLines: LineBackend {
    /// The chip the lines are on.
    public let chip: GPIOChip
    /// The requested offsets, in line order.
    public let offsets: [Int]
    /// 1 or 2: the libgpiod generation this was built against.
    public static var libgpiodMajor: Int { Int(gdb_libgpiod_major()) }
    /// The libgpiod version string, e.g. "1.6.3" or "2.2.1".
    public static var libgpiodVersion: String { String(cString: gdb_libgpiod_version()) }

    /// Events the kernel dropped, per line, known from gaps in libgpiod 2's sequence numbers
    /// (`nil` on libgpiod 1, which has none: there, duplicate edges are the evidence).
    public var lostEvents: [Int]? { Self.libgpiodMajor == 2 ? lost : nil }

    private let request: UnsafeMutablePointer<gdb_request>
    private var pollDescriptors: [pollfd]
    private let interrupts: InterruptSignals?
    private var events = [gdb_edge_event](repeating: gdb_edge_event(), count: Int(GDB_EVENT_BATCH))
    private var lastSequence: [UInt]
    private var lost: [Int]

    public var lineCount: Int { offsets.count }
    public var nowNs: Int64 { MonotonicClock.nowNs }

    /// Requests `offsets` of `chip` with `bias`, as `consumer`; `kernelDebounceNs` > 0 asks the kernel to
    /// debounce too (libgpiod 2 only, whole microseconds). `interrupts`, if given, ends `wait` with `.interrupted`.
    public init(
        chip: GPIOChip, offsets: [Int], bias: Bias = .pullUp, consumer: String = "gpio-debounce",
        kernelDebounceNs: Int64 = 0, interrupts: InterruptSignals? = nil
    ) throws(GPIOError) {
        for offset in offsets where offset < 0 || offset >= chip.lineCount {
            throw .offsetOutOfRange(chip: chip.name, offset: offset, lineCount: chip.lineCount)
        }
        if kernelDebounceNs > 0, Self.libgpiodMajor == 1 {
            throw .kernelDebounceUnsupported(reason: "this gpio-debounce is built with libgpiod \(Self.libgpiodVersion), and only libgpiod 2 can ask the kernel to debounce")
        }
        let rawOffsets = offsets.map { UInt32($0) }
        // A deeper kernel queue than the default 16 per line, so that a long burst of bounce loses less.
        let eventBufferSize = UInt32(min(1024, 64 * offsets.count))
        let debounceUs = UInt(kernelDebounceNs / 1_000)
        guard let request = gdb_request_lines(chip.handle, rawOffsets, UInt32(rawOffsets.count), consumer, bias.shimValue, debounceUs, eventBufferSize) else {
            let code = Errno(rawValue: errno)
            switch code {
            case .resourceBusy:
                let busy = offsets.first { (try? chip.lineInfo(offset: $0).isUsed) == true } ?? offsets[0]
                throw .lineBusy(chip: chip.name, offset: busy, consumer: (try? chip.lineInfo(offset: busy).consumer) ?? "")
            case .invalidArgument where kernelDebounceNs > 0:
                throw .kernelDebounceUnsupported(reason: "the kernel refused it (kernel debouncing needs Linux 5.10)")
            case .invalidArgument where bias != .asIs:
                throw .biasUnsupported(chip: chip.name, bias: bias.rawValue)
            case .permissionDenied, .notPermitted:
                throw .permissionDenied(path: chip.path)
            case .operationNotSupportedByDevice:
                throw .noSuchChip(chip.path, available: GPIOChip.availableNames())
            default:
                throw .system(operation: "requesting lines \(offsets.map(String.init).joined(separator: ",")) of \(chip.name)", errno: code)
            }
        }
        self.chip = chip
        self.offsets = offsets
        self.request = request
        self.interrupts = interrupts
        let fdCount = Int(gdb_request_fd_count(request))
        var descriptors = (0..<fdCount).map { pollfd(fd: gdb_request_fd(request, UInt32($0)), events: Int16(POLLIN), revents: 0) }
        if let interrupts { descriptors.append(pollfd(fd: interrupts.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
        self.pollDescriptors = descriptors
        self.lastSequence = Array(repeating: 0, count: offsets.count)
        self.lost = Array(repeating: 0, count: offsets.count)
    }

    deinit { gdb_request_release(request) }

    /// The raw level of line `line` (`gdb_request_get_value`).
    public func readLevel(line: Int) throws(LineError) -> Level {
        let value = gdb_request_get_value(request, UInt32(line))
        guard value >= 0 else { throw error(reading: "the level of line \(offsets[line])") }
        return value == 0 ? .low : .high
    }

    public func wait(untilNs deadlineNs: Int64?, appendingTo edges: inout [LineEdge]) throws(LineError) -> WaitOutcome {
        let lineDescriptors = pollDescriptors.count - (interrupts == nil ? 0 : 1)
        while true {
            var ready: Int32
            if let deadlineNs {
                let remainingNs = max(0, deadlineNs - MonotonicClock.nowNs)
                var timeout = timespec(tv_sec: Int(remainingNs / 1_000_000_000), tv_nsec: Int(remainingNs % 1_000_000_000))
                ready = ppoll(&pollDescriptors, nfds_t(pollDescriptors.count), &timeout, nil)
            } else {
                ready = ppoll(&pollDescriptors, nfds_t(pollDescriptors.count), nil, nil)
            }
            if ready < 0 {
                if errno == EINTR { continue }
                throw .system(operation: "ppoll", errno: Errno(rawValue: errno))
            }
            if ready == 0 { return .timedOut }
            if let interrupts, pollDescriptors[lineDescriptors].revents != 0, interrupts.take() != nil { return .interrupted }
            for index in 0..<lineDescriptors where pollDescriptors[index].revents != 0 {
                let revents = Int32(pollDescriptors[index].revents)
                if revents & Int32(POLLIN) == 0 { throw .chipVanished(chip: chip.name) }  // POLLERR, POLLHUP, POLLNVAL
                try read(descriptor: index, appendingTo: &edges)
            }
            if !edges.isEmpty { return .edges }
        }
    }

    /// Reads the queued events of one descriptor (`gdb_request_read_events`), counting sequence gaps.
    private func read(descriptor index: Int, appendingTo edges: inout [LineEdge]) throws(LineError) {
        let count = events.withUnsafeMutableBufferPointer {
            gdb_request_read_events(request, UInt32(index), $0.baseAddress, UInt32($0.count))
        }
        guard count >= 0 else {
            if errno == EINTR || errno == EAGAIN { return }
            throw error(reading: "edge events")
        }
        for event in events.prefix(Int(count)) {
            let line = offsets.firstIndex(of: Int(event.offset)) ?? index
            if event.line_seqno != 0 {
                let expected = lastSequence[line] &+ 1
                if event.line_seqno > expected { lost[line] += Int(event.line_seqno - expected) }
                lastSequence[line] = event.line_seqno
            }
            edges.append(LineEdge(line: line, edge: Edge(level: event.rising != 0 ? .high : .low, timeNs: Int64(clamping: event.timestamp_ns))))
        }
    }

    /// The error for a failed read: the chip vanished (`ENODEV`), or a plain system error.
    private func error(reading what: String) -> LineError {
        let code = Errno(rawValue: errno)
        if code == .operationNotSupportedByDevice || code == .noSuchAddressOrDevice { return .chipVanished(chip: chip.name) }
        return .system(operation: "reading \(what) of \(chip.name)", errno: code)
    }
}
