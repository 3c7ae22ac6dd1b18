import CLinuxSys
import SystemPackage

/// TCP stream sockets (tcp(7)) a server listens on and the connections it takes. Accepting, sending and
/// receiving are those of any stream socket (`UnixSocket.accept`, `send`, `receive`).
package enum TCPSocket {
    /// A non-blocking socket listening on `port` of every address of the machine, IPv6 and IPv4
    /// (`clinuxsys_tcp_listen`: `socket`, `bind`, `listen`), owned by the caller, and the port it listens
    /// on (the kernel's choice for port 0).
    package static func listen(port: UInt16, backlog: Int32 = 8) throws(SystemError) -> (socket: OwnedDescriptor, port: UInt16) {
        var bound: UInt16 = 0
        let socket = try OwnedDescriptor(operation: "bind(port \(port))") { clinuxsys_tcp_listen(port, backlog, &bound) }
        return (socket, bound)
    }

    /// Makes `socket` send each write at once (`TCP_NODELAY`, `clinuxsys_tcp_no_delay`); a socket that
    /// refuses is left as it is (its writes then wait for the previous one's acknowledgement).
    package static func sendAtOnce(_ socket: FileDescriptor) {
        _ = clinuxsys_tcp_no_delay(socket.rawValue)
    }

    /// The address of the peer of connected `socket` (`192.168.1.20`, `fe80::1`), for the log; nil when
    /// the kernel does not say (`getpeername`, `inet_ntop`: `clinuxsys_tcp_peer`).
    package static func peer(of socket: FileDescriptor) -> String? {
        var text = [CChar](repeating: 0, count: 64)
        guard clinuxsys_tcp_peer(socket.rawValue, &text, text.count) == 0 else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
