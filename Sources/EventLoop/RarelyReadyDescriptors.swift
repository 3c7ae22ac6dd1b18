import LinuxSys
import SystemPackage

/// The loop's rarely ready descriptors (the signal descriptor, the stop switch, a source's chip
/// watch, the descriptors of a sink that keeps them open) behind one epoll descriptor (`EpollSet`),
/// which the loop's `ppoll` waits on in their place when it would otherwise wait on more descriptors
/// than the kernel keeps wait entries for on its stack (`EventLoop.inlinePollEntries`).
///
/// Only descriptors that stay the same open file for as long as their number is registered belong
/// here: an epoll registration follows the file, not the number, so a descriptor closed and its number
/// reused would be watched no more. An action's pidfd, closed when its child is reaped, is therefore
/// polled directly (`Sink.keepsDescriptorsOpen`).
struct RarelyReadyDescriptors<Token> {
    /// The epoll set, owned here; made at the first registration.
    private var epoll: EpollSet?
    /// What is watched now, each under its index in `tokens` as the epoll token.
    private var descriptors: [FileDescriptor] = []
    private var tokens: [Token] = []

    init() {}

    /// The descriptor to poll in their place; `nil` before the first `watch`.
    var descriptor: FileDescriptor? { epoll?.descriptor }

    /// Watches exactly `watched` for reading (a hang-up or an error always), each on behalf of the
    /// token at its index in `tokens`. Registers again only when the descriptors changed (`epoll_ctl`
    /// for each, through `EpollSet.watch` and `remove`). A failed registration throws and lets go of
    /// the epoll descriptor, so nothing stays registered: the caller polls the descriptors directly,
    /// and the next `watch` starts afresh.
    mutating func watch(_ watched: [FileDescriptor], tokens: [Token]) throws(SystemError) {
        if watched == descriptors, epoll != nil {
            self.tokens = tokens
            return
        }
        do throws(SystemError) {
            let set: EpollSet
            if let epoll { set = epoll } else { set = try EpollSet() }
            epoll = set
            for old in descriptors where !watched.contains(old) { set.remove(old) }
            for (index, descriptor) in watched.enumerated() { try set.watch(descriptor, write: false, token: UInt64(index)) }
        } catch {
            (epoll, descriptors, self.tokens) = (nil, [], [])
            throw error
        }
        descriptors = watched
        self.tokens = tokens
    }

    /// The watched descriptors that are ready now, each with its token and what `ppoll` would have
    /// returned for it (`EpollSet.Ready.pollEvents`: only reading is watched). Does not wait
    /// (`EpollSet.take`).
    func takeReady() -> [(token: Token, events: PollEvents)] {
        guard let epoll else { return [] }
        return epoll.take().compactMap { ready in
            guard Int(ready.token) < tokens.count else { return nil }
            return (tokens[Int(ready.token)], PollEvents(rawValue: ready.pollEvents))
        }
    }
}
