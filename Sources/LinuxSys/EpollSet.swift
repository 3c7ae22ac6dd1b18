#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxSys
import SystemPackage

/// An epoll descriptor (epoll(7)) watching many descriptors for a sink that gives the event loop one
/// (`descriptor`): readable whenever one of them is ready as watched, writability included, so that
/// the loop's `ppoll`, which asks only for reading, wakes for it too. Each watched descriptor has a
/// token of the caller's.
package final class EpollSet {
    /// What is ready of one watched descriptor.
    package struct Ready: Sendable, Hashable {
        package var token: UInt64
        package var readable: Bool
        package var writable: Bool
        /// An error or a hang-up (`EPOLLERR`, `EPOLLHUP`, `EPOLLRDHUP`).
        package var failed: Bool

        /// The same as `poll(2)` reports it: `POLLIN`, `POLLOUT`, and `POLLERR | POLLHUP` when failed.
        package var pollEvents: Int16 {
            Int16((readable ? Int32(POLLIN) : 0) | (writable ? Int32(POLLOUT) : 0) | (failed ? Int32(POLLERR | POLLHUP) : 0))
        }
    }

    /// The epoll descriptor, owned here.
    private let owned: OwnedDescriptor
    private var tokens = [UInt64](repeating: 0, count: 64)
    private var flags = [UInt8](repeating: 0, count: 64)

    /// A new, empty set (`epoll_create1` with `EPOLL_CLOEXEC`: `clinuxsys_epoll_create`).
    package init() throws(SystemError) {
        owned = try OwnedDescriptor(operation: "epoll_create1") { clinuxsys_epoll_create() }
    }

    /// The descriptor the loop polls.
    package var descriptor: FileDescriptor { owned.descriptor }

    /// Watches `watched` for reading unless `read` is false (a peer that will send nothing more), for
    /// writing when `write`, and for a hang-up or an error always, under `token` (`epoll_ctl`:
    /// `clinuxsys_epoll_set`).
    package func watch(_ watched: FileDescriptor, read: Bool = true, write: Bool, token: UInt64) throws(SystemError) {
        guard clinuxsys_epoll_set(owned.descriptor.rawValue, watched.rawValue, read ? 1 : 0, write ? 1 : 0, token) == 0 else {
            throw SystemError("epoll_ctl", Errno(rawValue: errno))
        }
    }

    /// Stops watching `watched` (`epoll_ctl` DEL); one not watched is not an error.
    package func remove(_ watched: FileDescriptor) {
        _ = clinuxsys_epoll_remove(owned.descriptor.rawValue, watched.rawValue)
    }

    /// What is ready now, without waiting (`epoll_wait` with timeout 0), at most 64 at a time.
    package func take() -> [Ready] {
        let count = tokens.withUnsafeMutableBufferPointer { tokens in
            flags.withUnsafeMutableBufferPointer { flags in
                clinuxsys_epoll_take(owned.descriptor.rawValue, tokens.baseAddress, flags.baseAddress, Int32(tokens.count))
            }
        }
        guard count > 0 else { return [] }
        return (0..<Int(count)).map { Ready(token: tokens[$0], readable: flags[$0] & 1 != 0, writable: flags[$0] & 2 != 0, failed: flags[$0] & 4 != 0) }
    }
}
