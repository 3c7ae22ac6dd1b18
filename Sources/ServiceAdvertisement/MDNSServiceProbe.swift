import CAvahi
import LinuxSys

/// Asks avahi-daemon whether a service is advertised on this network now (a DNS-SD browse for its
/// type, through avahi's D-Bus API), for `doctor`. Blocks for at most its time limit: it is a command's
/// check, never part of a run's loop.
package enum MDNSServiceProbe {
    package enum Outcome: Sendable, Hashable {
        /// `name` is advertised; `byThisMachine`: by this machine (avahi says the service is local).
        case advertised(byThisMachine: Bool, avahi: String)
        /// avahi-daemon answers (its version `avahi`) and knows no service called `name` of the type.
        case notAdvertised(avahi: String)
        /// No avahi: its library, the D-Bus system bus or the daemon is missing (`reason`, avahi's words).
        case noAvahi(reason: String)
        /// The browse failed or took longer than the limit.
        case failed(reason: String)
    }

    /// Whether `name.type` is advertised, waiting at most `limitNs` (avahi answers a local browse in
    /// about a second: it waits for the network's answers before it says it has all of them).
    package static func find(name: String, type: String, limitNs: Int64 = 3_000_000_000) -> Outcome {
        let library: AvahiLibrary
        let avahiPoll: AvahiLoopPoll
        do {
            library = try AvahiLibrary.loaded()
            avahiPoll = try AvahiLoopPoll()
        } catch {
            return .noAvahi(reason: error.description)
        }
        // The table must outlive the client (freed by the defer below, which runs first).
        defer { withExtendedLifetime(avahiPoll) {} }
        let search = Search(name: name)
        let context = Unmanaged.passRetained(search)
        defer { context.release() }
        var error: Int32 = 0
        guard let client = library.clientNew(avahiPoll.api, AvahiClientFlags(0), nil, nil, &error) else {
            return .noAvahi(reason: library.message(error))
        }
        defer { library.clientFree(client) }
        let avahi = library.clientVersion(client).map { String(cString: $0) } ?? "avahi-daemon"
        let callback: AvahiLibrary.BrowserCallback = { _, _, _, event, found, _, _, flags, userdata in
            guard let userdata else { return }
            let search = Unmanaged<Search>.fromOpaque(userdata).takeUnretainedValue()
            switch event {
            case AVAHI_BROWSER_NEW:
                guard let found, String(cString: found) == search.name else { return }
                search.found = true
                if flags.rawValue & AVAHI_LOOKUP_RESULT_LOCAL.rawValue != 0 { search.local = true }
            case AVAHI_BROWSER_ALL_FOR_NOW: search.done = true
            case AVAHI_BROWSER_FAILURE: search.failed = true
            default: break
            }
        }
        guard let browser = library.browserNew(
            client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), type, nil, AvahiLookupFlags(0), callback, context.toOpaque())
        else {
            return .failed(reason: library.message(library.clientErrno(client)))
        }
        defer { _ = library.browserFree(browser) }
        // The loop's own wait (PollSet) on avahi's one descriptor, until avahi has answered or the limit.
        var watched = PollSet<Int>()
        watched.add(avahiPoll.descriptor, token: 0)
        let endNs = MonotonicClock.nowNs + limitNs
        while !search.done, !search.failed {
            let leftNs = endNs - MonotonicClock.nowNs
            guard leftNs > 0 else { break }
            guard let ready = try? watched.wait(timeoutNs: min(leftNs, avahiPoll.nanosecondsToNextTimeout ?? leftNs)) else { break }
            if ready > 0 { avahiPoll.noteReady() }
            avahiPoll.dispatch()
        }
        if search.failed { return .failed(reason: library.message(library.clientErrno(client))) }
        if search.found { return .advertised(byThisMachine: search.local, avahi: avahi) }
        guard search.done else { return .failed(reason: "avahi-daemon did not answer within \(limitNs / 1_000_000_000) s") }
        return .notAdvertised(avahi: avahi)
    }

    /// What the browse found so far (its callback's `userdata`).
    private final class Search {
        let name: String
        var found = false
        var local = false
        var done = false
        var failed = false

        init(name: String) { self.name = name }
    }
}
