import ESPHomeAPI
import LinuxSys
import SystemPackage

/// One client of the device's API (Home Assistant, the ESPHome dashboard, `aioesphomeapi-logs`): its
/// socket (owned), its session (framing and encryption), its conversation, and the bytes on their way
/// to it. A client whose bytes pile up past `queueLimitBytes` stopped reading: it is closed, never
/// waited for (Home Assistant connects again and gets every state anew).
final class APIClient {
    /// The most bytes waiting for one client: 256 KiB, thousands of states.
    static let queueLimitBytes = 256 * 1024

    let socket: OwnedDescriptor
    /// Its address, for the log.
    let peer: String
    var session: APISession
    var connection: APIConnection
    /// Bytes not yet sent.
    private var queue = SocketSendQueue()
    /// Whether it is to be closed once what is queued is sent (it asked, or the device gave up on it).
    var closesWhenSent = false
    /// Whether its key was found wrong (logged once).
    var refused = false

    init(socket: OwnedDescriptor, session: APISession, connection: APIConnection) {
        self.socket = socket
        self.peer = TCPSocket.peer(of: socket.descriptor) ?? "a client"
        self.session = session
        self.connection = connection
    }

    /// Whether bytes wait to be sent.
    var hasPending: Bool { queue.hasPending }
    /// Whether more waits than a client that reads may leave waiting.
    var isOverflowing: Bool { queue.pendingCount > Self.queueLimitBytes }

    /// Appends bytes framed by the session (`APISession.receive`'s handshake answers).
    func enqueue(bytes: [UInt8]) {
        queue.append(bytes)
    }

    /// Frames `message` for the client and queues it; false if the session refused it (the handshake
    /// is not over).
    @discardableResult
    func enqueue(_ message: APIMessage) -> Bool {
        do {
            try queue.append { (bytes: inout [UInt8]) throws(APISessionError) in try session.send(message, output: &bytes) }
            return true
        } catch {
            return false
        }
    }

    /// Sends what the socket takes now. Throws when the client has gone (`EPIPE`, `ECONNRESET`).
    func send() throws(Errno) {
        _ = try queue.send(to: socket.descriptor)
    }
}
