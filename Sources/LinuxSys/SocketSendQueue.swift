import SystemPackage

/// Bytes on their way to a non-blocking stream socket (a client of the events socket or of the ESPHome
/// API): appended whole, sent as far as the socket takes them (`send(to:)`), never waited for. Bytes
/// sent stay until `compactionBytes` of them have gone, so that a slow reader costs no copy per send.
package struct SocketSendQueue: Sendable {
    /// How many sent bytes are kept before they are dropped while more waits: 64 KiB.
    package static let compactionBytes = 64 * 1024

    private var bytes: [UInt8] = []
    private var sentBytes = 0

    package init() {}

    /// Whether bytes wait to be sent.
    package var hasPending: Bool { sentBytes < bytes.count }
    /// How many bytes wait.
    package var pendingCount: Int { bytes.count - sentBytes }
    /// The bytes held: those that wait, and those sent but not yet dropped.
    package var storedCount: Int { bytes.count }

    package mutating func append(_ more: some Collection<UInt8>) {
        bytes.append(contentsOf: more)
    }

    /// Appends through `write`, which appends to the bytes held (a session's framing).
    package mutating func append<Failure: Error>(by write: (inout [UInt8]) throws(Failure) -> Void) throws(Failure) {
        try write(&bytes)
    }

    /// Puts `first` before everything that waits (a greeting, while nothing was sent).
    package mutating func prepend(_ first: [UInt8]) {
        bytes.replaceSubrange(sentBytes..<sentBytes, with: first)
    }

    /// Sends what `socket` takes now (`UnixSocket.send`: no wait, no `SIGPIPE`): true when everything
    /// went. Throws when the peer has gone (`EPIPE`, `ECONNRESET`).
    package mutating func send(to socket: FileDescriptor) throws(Errno) -> Bool {
        while hasPending {
            let offset = sentBytes
            let result = bytes.withUnsafeBytes { all in
                Result { () throws(Errno) -> Int in try UnixSocket.send(UnsafeRawBufferPointer(rebasing: all[offset...]), to: socket) }
            }
            let sent = try result.get()
            guard sent > 0 else {
                if sentBytes >= Self.compactionBytes {
                    bytes.removeFirst(sentBytes)
                    sentBytes = 0
                }
                return false
            }
            sentBytes += sent
        }
        bytes.removeAll(keepingCapacity: bytes.capacity <= 16 * 1024)
        sentBytes = 0
        return true
    }
}
