#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CMosquitto
import LinuxSys
import SystemPackage

/// The one descriptor the MQTT sink gives the event loop: an epoll descriptor watching the client's
/// current socket for reading and, while libmosquitto has bytes to send, for writing. It stays the
/// same across reconnects (the socket under it changes), and it is readable whenever the socket is
/// ready in a way that is watched, so the loop's `ppoll` (which asks only for reading) wakes for
/// writability too.
final class SocketWatch {
    /// The epoll descriptor, owned here, closed exactly once.
    let owned: OwnedDescriptor
    /// The socket watched now, and whether for writing too.
    private(set) var socket: Int32 = -1
    private var watchingWrite = false

    /// A new, empty watch (`epoll_create1`).
    init() throws(SystemError) {
        owned = try OwnedDescriptor(operation: "epoll_create1") { gdm_watch_create() }
    }

    var descriptor: FileDescriptor { owned.descriptor }

    /// Watches `socket` (-1: none) for reading, and for writing when `write` (`epoll_ctl`). A socket
    /// libmosquitto closed left the set by itself; a new one (even under the same number) is added.
    func watch(_ socket: Int32, write: Bool) throws(SystemError) {
        let epoll = owned.descriptor.rawValue
        if socket != self.socket {
            if self.socket >= 0, gdm_watch_remove(epoll, self.socket) != 0 {
                throw SystemError("epoll_ctl(DEL)", Errno(rawValue: errno))
            }
            self.socket = -1
            guard socket >= 0 else { return }
        } else if socket < 0 || write == watchingWrite {
            return
        }
        guard gdm_watch_set(epoll, socket, write) == 0 else { throw SystemError("epoll_ctl", Errno(rawValue: errno)) }
        self.socket = socket
        watchingWrite = write
    }

    /// Forgets the socket without touching epoll: libmosquitto closed it (which removed it).
    func forget() {
        socket = -1
        watchingWrite = false
    }

    /// What is ready now, without waiting (`epoll_wait` with timeout 0).
    func take() -> (readable: Bool, writable: Bool, failed: Bool) {
        var readable = false, writable = false, failed = false
        _ = gdm_watch_take(owned.descriptor.rawValue, &readable, &writable, &failed)
        return (readable, writable, failed)
    }
}
