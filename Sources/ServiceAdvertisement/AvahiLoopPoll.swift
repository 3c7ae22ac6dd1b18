#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CAvahi
import LinuxSys
import SystemPackage

/// avahi's event-loop abstraction (`AvahiPoll`) on ours: the descriptors avahi's client library wants
/// watched (its D-Bus socket) go into one epoll set, whose descriptor the loop polls; its timeouts are
/// kept here, the earliest given as the loop's deadline. `dispatch` calls avahi's callbacks for what
/// is ready and due. No thread, no loop of its own; nothing happens between wakeups.
///
/// avahi may create, change and free watches and timeouts from inside its callbacks: a freed one is
/// dropped from the tables at once and never called again. `api` stays at one address for the
/// library's lifetime (it keeps the pointer): this object owns it and must outlive every client made
/// with it.
final class AvahiLoopPoll {
    /// The table of functions avahi calls, allocated once; `userdata` points back here (unretained).
    let api: UnsafeMutablePointer<AvahiPoll>
    private let watchSet: EpollSet
    private var watches: [UInt64: Watch] = [:]
    private var nextToken: UInt64 = 1
    private var timeouts: [ObjectIdentifier: Timeout] = [:]
    private var ready: [EpollSet.Ready] = []

    /// The one descriptor the loop polls: every watch's (`epoll_create1`), owned here.
    var descriptor: FileDescriptor { watchSet.descriptor }

    init() throws(AdvertisementError) {
        do { watchSet = try EpollSet() } catch { throw .system("epoll_create1 for avahi's watches: \(error)") }
        api = .allocate(capacity: 1)
        api.initialize(to: AvahiPoll())
        api.pointee.userdata = Unmanaged.passUnretained(self).toOpaque()
        api.pointee.watch_new = { api, fd, event, callback, userdata in
            guard let poll = AvahiLoopPoll.owner(of: api) else { return nil }
            return poll.newWatch(fd: fd, events: event, callback: callback, userdata: userdata)
        }
        api.pointee.watch_update = { watch, event in
            guard let watch else { return }
            Unmanaged<Watch>.fromOpaque(UnsafeRawPointer(watch)).takeUnretainedValue().update(events: event)
        }
        api.pointee.watch_get_events = { watch in
            guard let watch else { return AvahiWatchEvent(0) }
            return Unmanaged<Watch>.fromOpaque(UnsafeRawPointer(watch)).takeUnretainedValue().happened
        }
        api.pointee.watch_free = { watch in
            guard let watch else { return }
            Unmanaged<Watch>.fromOpaque(UnsafeRawPointer(watch)).takeRetainedValue().free()
        }
        api.pointee.timeout_new = { api, time, callback, userdata in
            guard let poll = AvahiLoopPoll.owner(of: api) else { return nil }
            return poll.newTimeout(at: time, callback: callback, userdata: userdata)
        }
        api.pointee.timeout_update = { timeout, time in
            guard let timeout else { return }
            Unmanaged<Timeout>.fromOpaque(UnsafeRawPointer(timeout)).takeUnretainedValue().dueRealNs = time.map(AvahiLoopPoll.nanoseconds)
        }
        api.pointee.timeout_free = { timeout in
            guard let timeout else { return }
            let freed = Unmanaged<Timeout>.fromOpaque(UnsafeRawPointer(timeout)).takeRetainedValue()
            freed.poll?.timeouts[ObjectIdentifier(freed)] = nil
            freed.poll = nil
        }
    }

    deinit {
        for watch in watches.values { watch.poll = nil }
        for timeout in timeouts.values { timeout.poll = nil }
        api.deinitialize(count: 1)
        api.deallocate()
    }

    private static func owner(of api: UnsafePointer<AvahiPoll>?) -> AvahiLoopPoll? {
        guard let userdata = api?.pointee.userdata else { return nil }
        return Unmanaged<AvahiLoopPoll>.fromOpaque(userdata).takeUnretainedValue()
    }

    /// How long until the earliest timeout is due, in nanoseconds (0 when it is due); nil for none.
    /// Asked at every wakeup of the loop: no allocation, and no clock read without a timeout.
    var nanosecondsToNextTimeout: Int64? {
        var earliest: Int64?
        for timeout in timeouts.values {
            guard let dueNs = timeout.dueRealNs else { continue }
            earliest = min(earliest ?? dueNs, dueNs)
        }
        guard let earliest else { return nil }
        return max(0, earliest - Self.realNowNs())
    }

    /// The loop saw the epoll descriptor ready: what is ready is taken now, and handled in `dispatch`.
    func noteReady() { ready += watchSet.take() }

    /// Calls avahi for every watch that was ready and every timeout that is due. Called at every wakeup
    /// of the loop.
    func dispatch() {
        let readyNow = ready
        ready = []
        for event in readyNow {
            guard let watch = watches[event.token] else { continue }
            let happened = UInt32(UInt16(bitPattern: event.pollEvents))
            guard happened & watch.wanted.rawValue != 0 || event.failed else { continue }
            watch.happened = AvahiWatchEvent(happened)
            watch.callback?(OpaquePointer(Unmanaged.passUnretained(watch).toOpaque()), watch.fd, watch.happened, watch.userdata)
            watch.happened = AvahiWatchEvent(0)
        }
        guard timeouts.values.contains(where: { $0.dueRealNs != nil }) else { return }  // most wakeups: no clock read
        let nowNs = Self.realNowNs()
        for timeout in timeouts.values {
            guard let dueNs = timeout.dueRealNs, dueNs <= nowNs, timeout.poll != nil else { continue }
            timeout.dueRealNs = nil  // a timeout fires once; avahi sets it again (timeout_update) if it wants
            timeout.callback?(OpaquePointer(Unmanaged.passUnretained(timeout).toOpaque()), timeout.userdata)
        }
    }

    private func newWatch(fd: Int32, events: AvahiWatchEvent, callback: AvahiWatchCallback?, userdata: UnsafeMutableRawPointer?) -> OpaquePointer? {
        let token = nextToken
        nextToken += 1
        let watch = Watch(poll: self, token: token, fd: fd, wanted: events, callback: callback, userdata: userdata)
        do { try watchSet.watch(FileDescriptor(rawValue: fd), read: watch.readsIn, write: watch.writesOut, token: token) } catch { return nil }
        watches[token] = watch
        return OpaquePointer(Unmanaged.passRetained(watch).toOpaque())
    }

    private func newTimeout(at time: UnsafePointer<timeval>?, callback: AvahiTimeoutCallback?, userdata: UnsafeMutableRawPointer?) -> OpaquePointer? {
        let timeout = Timeout(poll: self, dueRealNs: time.map(AvahiLoopPoll.nanoseconds), callback: callback, userdata: userdata)
        timeouts[ObjectIdentifier(timeout)] = timeout
        return OpaquePointer(Unmanaged.passRetained(timeout).toOpaque())
    }

    /// A `timeval` of `CLOCK_REALTIME` (avahi's timeouts are `gettimeofday`'s) in nanoseconds.
    fileprivate static func nanoseconds(_ time: UnsafePointer<timeval>) -> Int64 {
        Int64(time.pointee.tv_sec) * 1_000_000_000 + Int64(time.pointee.tv_usec) * 1_000
    }

    /// `CLOCK_REALTIME` now, in nanoseconds (`clock_gettime`).
    private static func realNowNs() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// A descriptor avahi watches (`AvahiWatch`): retained once for avahi (released by `watch_free`).
    final class Watch {
        weak var poll: AvahiLoopPoll?
        let token: UInt64
        let fd: Int32
        var wanted: AvahiWatchEvent
        /// What happened, for `watch_get_events` from inside the callback.
        var happened = AvahiWatchEvent(0)
        let callback: AvahiWatchCallback?
        let userdata: UnsafeMutableRawPointer?

        init(poll: AvahiLoopPoll, token: UInt64, fd: Int32, wanted: AvahiWatchEvent, callback: AvahiWatchCallback?, userdata: UnsafeMutableRawPointer?) {
            self.poll = poll
            self.token = token
            self.fd = fd
            self.wanted = wanted
            self.callback = callback
            self.userdata = userdata
        }

        var readsIn: Bool { wanted.rawValue & UInt32(POLLIN) != 0 }
        var writesOut: Bool { wanted.rawValue & UInt32(POLLOUT) != 0 }

        func update(events: AvahiWatchEvent) {
            wanted = events
            try? poll?.watchSet.watch(FileDescriptor(rawValue: fd), read: readsIn, write: writesOut, token: token)
        }

        func free() {
            guard let poll else { return }
            poll.watchSet.remove(FileDescriptor(rawValue: fd))
            poll.watches[token] = nil
            self.poll = nil
        }
    }

    /// A time avahi wants to be called at (`AvahiTimeout`), on `CLOCK_REALTIME`; nil while disabled.
    final class Timeout {
        weak var poll: AvahiLoopPoll?
        var dueRealNs: Int64?
        let callback: AvahiTimeoutCallback?
        let userdata: UnsafeMutableRawPointer?

        init(poll: AvahiLoopPoll, dueRealNs: Int64?, callback: AvahiTimeoutCallback?, userdata: UnsafeMutableRawPointer?) {
            self.poll = poll
            self.dueRealNs = dueRealNs
            self.callback = callback
            self.userdata = userdata
        }
    }
}
