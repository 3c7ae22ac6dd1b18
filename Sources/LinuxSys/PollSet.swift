#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxSys
import SystemPackage

/// The descriptors one wait watches, each registered with a token saying whose it is, and the one
/// `ppoll(2)` call site of the package. Entries are looked up by token, never by position.
///
/// The storage is reused from wait to wait: after the first waits, `removeAll()`, `add` and `wait`
/// allocate nothing. Its methods are inlinable, so that a loop's own token type is specialized into
/// them (no generic metadata looked up on every wakeup).
///
/// Public, not package, for speed: Swift 6.3.1 inlines no `package` declaration into another module
/// (`@inlinable package` included), and the loop's wait is on the path of every edge.
public struct PollSet<Token: Hashable & Sendable> {
    @usableFromInline var entries: [pollfd] = []
    @usableFromInline var tokens: [Token] = []

    @inlinable
    public init() {
        entries.reserveCapacity(16)
        tokens.reserveCapacity(16)
    }

    /// Forgets every registration, keeping the storage.
    @inlinable
    public mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        tokens.removeAll(keepingCapacity: true)
    }

    /// Watches `descriptor` for readability (`POLLIN`; errors and hang-ups are always reported) on behalf of `token`.
    @inlinable
    public mutating func add(_ descriptor: FileDescriptor, token: Token) {
        entries.append(pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0))
        tokens.append(token)
    }

    /// Whether nothing is registered.
    @inlinable
    public var isEmpty: Bool { entries.isEmpty }

    /// Blocks in `ppoll(2)` until a registered descriptor is ready or `timeoutNs` nanoseconds have passed
    /// (`nil`: no limit; 0: do not block). Returns how many entries are ready (`nextReady(_:)` walks
    /// them); 0 also after `EINTR`, which the caller treats like any early wakeup (it recomputes its
    /// deadline), so that no clock is read here.
    @inlinable
    public mutating func wait(timeoutNs: Int64?) throws(SystemError) -> Int {
        // One call: a timeout of `nil` is a null pointer (block without limit).
        let waitNs = max(0, timeoutNs ?? 0)
        var timeout = timespec(tv_sec: Int(waitNs / 1_000_000_000), tv_nsec: Int(waitNs % 1_000_000_000))
        let result = withUnsafePointer(to: &timeout) { pointer in
            ppoll(&entries, nfds_t(entries.count), timeoutNs == nil ? nil : pointer, nil)
        }
        if result >= 0 { return Int(result) }
        let code = Errno(rawValue: errno)
        guard code == .interrupted else { throw SystemError("ppoll", code) }
        for index in entries.indices { entries[index].revents = 0 }
        return 0
    }

    /// Where a walk through the entries the last `wait` found ready has got to (`nextReady(_:)`).
    public struct ReadyCursor {
        @usableFromInline var index = 0

        /// Before the first entry.
        @inlinable
        public init() {}
    }

    /// The token and the returned events (`POLLIN`, `POLLERR`, `POLLHUP`, `POLLNVAL`) of the next
    /// entry after `cursor` that the last `wait` found ready, in registration order; `nil` after the
    /// last. Read in place, with nothing copied (no reference counting on the loop's hot path); the set
    /// may change between calls: a rebuilt set has nothing ready, so the walk ends.
    @inlinable
    public func nextReady(_ cursor: inout ReadyCursor) -> (token: Token, events: PollEvents)? {
        while cursor.index < entries.count {
            let index = cursor.index
            cursor.index += 1
            let returned = entries[index].revents
            if returned != 0 { return (tokens[index], PollEvents(rawValue: returned)) }
        }
        return nil
    }
}

/// What `ppoll` reported for one descriptor.
public struct PollEvents: Sendable, Hashable {
    public var rawValue: Int16

    @inlinable
    public init(rawValue: Int16) { self.rawValue = rawValue }

    /// Data can be read.
    public var isReadable: Bool { Int32(rawValue) & Int32(POLLIN) != 0 }
    /// The descriptor failed, hung up or is not open (`POLLERR`, `POLLHUP`, `POLLNVAL`).
    public var isFailed: Bool { Int32(rawValue) & Int32(POLLERR | POLLHUP | POLLNVAL) != 0 }
}
