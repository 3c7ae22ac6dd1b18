#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSys
import SystemPackage

/// A client's end of the events socket (`gpio-debounce events`, `status`): connects, sends requests,
/// and reads the daemon's lines one at a time, waiting for each (a command's own blocking `read`).
package final class EventSocketConnection {
    /// Why the socket cannot be read, with what to do.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// No daemon listens there.
        case noDaemon(String)
        /// This user may not open it; the socket's group, when it has a name.
        case permissionDenied(String, group: String?)
        /// The daemon refused a request (its `error` event's message).
        case refused(String)
        /// The daemon is stopping and did not do what was asked (its `stopping` event's message): ask again
        /// once it is back.
        case stopping(String)
        /// The stream ended before the daemon answered: it stopped (or failed).
        case ended(String)
        /// Another failure of a system call.
        case system(SystemError)

        package var description: String {
            switch self {
            case .noDaemon(let path):
                "no gpio-debounce run listens on \(path): start it (sudo systemctl start gpio-debounce), or give --socket PATH (a simulation logs its socket's path)"
            case .permissionDenied(let path, let group?):
                "this user may not read \(path): join its group (sudo usermod -aG \(group) \"$USER\", then log in again), or run as root"
            case .permissionDenied(let path, nil):
                "this user may not read \(path) or its directory: ask its owner, or run as root"
            case .refused(let message): "the daemon refused the request: \(message)"
            case .stopping(let message): "\(message): ask again once it is back"
            case .ended(let path): "the daemon at \(path) stopped before it answered: see its log (journalctl -u gpio-debounce)"
            case .system(let error): error.description
            }
        }
    }

    private let socket: OwnedDescriptor
    private var buffer: [UInt8] = []
    private var start = 0

    /// Connects to the socket at `path`.
    package init(path: String) throws(Failure) {
        do {
            socket = try UnixSocket.connect(to: path)
        } catch {
            switch error.errno {
            case .noSuchFileOrDirectory, .connectionRefused, .notDirectory: throw .noDaemon(path)
            case .permissionDenied, .notPermitted: throw .permissionDenied(path, group: Self.group(of: path))
            default: throw .system(error)
            }
        }
    }

    /// The name of the group of the file at `path` (`stat`, `getgrgid`); nil when it cannot be seen,
    /// or is root's (which no user is told to join).
    private static func group(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_gid != 0, let entry = getgrgid(status.st_gid), let name = entry.pointee.gr_name else { return nil }
        return String(cString: name)
    }

    /// The socket's descriptor number, for an `EventSocketInterrupter`: owned by this connection.
    package var descriptor: Int32 { socket.descriptor.rawValue }

    /// Sends one request line (`EventSocketRequest`), its newline added.
    package func send(_ request: String) throws(Failure) {
        let bytes = Array((request + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemSend(socket.descriptor.rawValue, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .system(SystemError("send", Errno(rawValue: errno)))
            }
            offset += written
        }
    }

    /// The next line the daemon sent (without its newline), waiting for it; nil at the end of the stream
    /// (the daemon stopped).
    package func nextLine() throws(Failure) -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                if start == buffer.count { (buffer, start) = ([], 0) }
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let count = chunk.withUnsafeMutableBytes { systemRead(socket.descriptor.rawValue, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET { return nil }
                throw .system(SystemError("read", Errno(rawValue: errno)))
            }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }
}

/// `send(2)` without `SIGPIPE`, under a name of its own (inside the class, `send` is its method).
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
}

/// `read(2)`, under a name of its own.
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}
