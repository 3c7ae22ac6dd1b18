#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxSys
import SystemPackage

/// Unix stream sockets (unix(7)) by path: listening, connecting, accepting, and who is at the other end.
package enum UnixSocket {
    /// The longest path a socket address holds, in bytes (107 on Linux).
    package static var maximumPathBytes: Int { Int(clinuxsys_unix_path_max) }

    /// A non-blocking socket listening at `path` for up to `backlog` waiting connections (`socket`,
    /// `bind`, `listen`: `clinuxsys_unix_listen`), owned by the caller. `path` must not exist.
    package static func listen(at path: String, backlog: Int32 = 32) throws(SystemError) -> OwnedDescriptor {
        try OwnedDescriptor(operation: "bind(\(path))") { clinuxsys_unix_listen(path, backlog) }
    }

    /// A blocking socket connected to the one at `path` (`socket`, `connect`: `clinuxsys_unix_connect`),
    /// owned by the caller.
    package static func connect(to path: String) throws(SystemError) -> OwnedDescriptor {
        try OwnedDescriptor(operation: "connect(\(path))") { clinuxsys_unix_connect(path) }
    }

    /// The next waiting connection on `listening`, non-blocking (`accept4`), owned by the caller; nil
    /// when none waits.
    package static func accept(_ listening: FileDescriptor) throws(SystemError) -> OwnedDescriptor? {
        while true {
            let descriptor = clinuxsys_unix_accept(listening.rawValue)
            if descriptor >= 0 { return OwnedDescriptor(FileDescriptor(rawValue: descriptor)) }
            let code = Errno(rawValue: errno)
            switch code {
            case .interrupted: continue
            // A connection that went away before it was taken (ECONNABORTED) is none.
            case .resourceTemporarilyUnavailable, .connectionAbort: return nil
            default: throw SystemError("accept4", code)
            }
        }
    }

    /// The process at the other end of `socket` when it connected (`SO_PEERCRED`): its pid and uid.
    package static func peer(of socket: FileDescriptor) -> (pid: Int32, uid: UInt32)? {
        var pid: Int32 = 0, uid: UInt32 = 0
        return clinuxsys_peer_credentials(socket.rawValue, &pid, &uid) == 0 ? (pid, uid) : nil
    }

    /// Sends what it can of `bytes` to `socket` without waiting and without `SIGPIPE` (`send` with
    /// `MSG_DONTWAIT | MSG_NOSIGNAL`): the count sent, 0 when the socket's buffer is full.
    package static func send(_ bytes: UnsafeRawBufferPointer, to socket: FileDescriptor) throws(Errno) -> Int {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        while true {
            let sent = clinuxsys_send(socket.rawValue, start, UInt(bytes.count))
            if sent >= 0 { return sent }
            let code = Errno(rawValue: errno)
            if code == .interrupted { continue }
            if code == .resourceTemporarilyUnavailable { return 0 }
            throw code
        }
    }

    /// Reads what is there of `socket` into `buffer` without waiting (`read`): the count read, 0 at the
    /// end of its stream, nil when nothing is there now.
    package static func receive(_ buffer: UnsafeMutableRawBufferPointer, from socket: FileDescriptor) throws(Errno) -> Int? {
        guard let start = buffer.baseAddress else { return nil }
        while true {
            let count = systemRead(socket.rawValue, start, buffer.count)
            if count >= 0 { return count }
            let code = Errno(rawValue: errno)
            if code == .interrupted { continue }
            if code == .resourceTemporarilyUnavailable { return nil }
            throw code
        }
    }
}

/// `read(2)`, under a name of its own (inside `UnixSocket`, `read` would not be the C function's).
@inline(__always)
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}
