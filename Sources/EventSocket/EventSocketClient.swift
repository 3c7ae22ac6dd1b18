import LinuxSys
import SystemPackage

/// One program connected to the events socket: its socket (owned), the lines on their way to it (at
/// most `queueLimitBytes`; what does not fit is counted and told as one `lost` event once there is
/// room), the request line it is sending, and what it subscribed to.
final class EventSocketClient {
    /// The most bytes waiting for one client: 256 KiB, some 1,500 events. A client that reads none
    /// for longer misses what comes next, and is told how many it missed.
    static let queueLimitBytes = 256 * 1024
    /// How many sent bytes a queue keeps before it drops them while more waits: 64 KiB.
    static let compactionBytes = SocketSendQueue.compactionBytes

    let socket: OwnedDescriptor
    /// Who connected (`SO_PEERCRED`), for the log.
    let peer: (pid: Int32, uid: UInt32)?
    /// The peer as the log names it: "pid 1234, uid 1000", or "a process" when the kernel did not say.
    var who: String { peer.map { "pid \($0.pid), uid \($0.uid)" } ?? "a process" }
    /// Lines not yet sent.
    private var queue = SocketSendQueue()
    /// Lines that did not fit since the last `lost` event.
    private(set) var lostLines = 0
    /// The request line so far (without its newline).
    var request: [UInt8] = []
    /// Its subscription: the inputs and events it gets; nil: all.
    var inputs: Set<String>?
    var events: Set<String>?
    /// Whether it asked for a status the next inspection answers.
    var wantsStatus = false
    /// Whether it got its `hello` (and, on the events socket, the snapshot): at the end of the wakeup
    /// that accepted it, when the daemon's clock is known; nothing is sent to it before.
    var greeted = false
    /// Whether it came through the control socket: it gets answers, no events.
    var isControl = false
    /// Whether it waits for the answer to a reload it asked for.
    var awaitsReload = false
    /// How many of its resets wait for their answer (`EventSocketSink.askReset`).
    var resetsAwaited = 0
    /// Whether it is to be closed once its queue is sent and nothing it asked for waits (a request
    /// line too long; a control client that will send nothing more).
    var closesWhenSent = false
    /// Whether it said it will send nothing more (its end of stream; it may still read): no longer
    /// watched for reading.
    var requestsEnded = false

    /// Whether an answer it asked for is still to come: a reload's, a status's or a reset's.
    var awaitsAnswer: Bool { awaitsReload || wantsStatus || resetsAwaited > 0 }

    init(socket: OwnedDescriptor) {
        self.socket = socket
        self.peer = UnixSocket.peer(of: socket.descriptor)
    }

    /// Whether bytes wait to be sent.
    var hasPending: Bool { queue.hasPending }
    /// The bytes its queue holds: what waits, and what was sent but not yet dropped.
    var queuedBytes: Int { queue.storedCount }

    /// Whether `event` of input `input` is one it subscribed to (a line of no input: always).
    func wants(input: String?, event: String) -> Bool {
        if let input, let inputs, !inputs.contains(input) { return false }
        if let events, !events.contains(event) { return false }
        return true
    }

    /// Queues `line` (with its newline), or counts it lost when it does not fit; a `lost` event goes
    /// first once there is room again (or alone, once the queue was all sent: `send`).
    func enqueue(_ line: [UInt8]) {
        let waiting = queue.pendingCount
        if lostLines > 0 {
            let lost = EventSocketLine.lost(lostLines)
            guard waiting + lost.count + line.count <= Self.queueLimitBytes else {
                lostLines += 1
                return
            }
            queue.append(lost)
            lostLines = 0
        } else if waiting + line.count > Self.queueLimitBytes {
            lostLines = 1
            return
        }
        queue.append(line)
    }

    /// Puts `lines` before everything queued (its greeting, while nothing was sent).
    func prepend(_ lines: [UInt8]) {
        queue.prepend(lines)
    }

    /// Sends what the socket takes now; once all of it went, a loss not told yet (`lostLines`) is told
    /// at once, not only before the next line. Throws when the client has gone (`EPIPE`, `ECONNRESET`).
    func send() throws(Errno) {
        // A reader slower than the events: what it read goes once 64 KiB went, so that the queue holds
        // no more than what waits (at most `queueLimitBytes`) and what was sent since.
        while try queue.send(to: socket.descriptor) {
            guard lostLines > 0 else { return }
            queue.append(EventSocketLine.lost(lostLines))
            lostLines = 0
        }
    }
}
