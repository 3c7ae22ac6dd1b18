#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CAvahi
import Logging
import SystemPackage

/// Advertises one service over mDNS through avahi-daemon (its D-Bus API, by avahi's client library on
/// our loop: `AvahiLoopPoll`). Waits for avahi-daemon when it is not running yet, and advertises again
/// when it restarts; withdraws the service at `finish`. Writes nothing on the machine: the service
/// lives as long as this object's connection to avahi-daemon.
///
/// Never fails a run: without avahi (no library, no D-Bus, no daemon) the log says so once, and how to
/// add the device by hand.
package final class MDNSAdvertiser {
    /// What it advertises.
    package let record: ServiceRecord
    /// Where it stands, for the log and the tests.
    package private(set) var state: State = .starting
    private let library: AvahiLibrary?
    private let poll: AvahiLoopPoll?
    private var client: OpaquePointer?
    private var group: OpaquePointer?
    /// The client failed (avahi-daemon went away): it is made anew in `advance`, not in avahi's callback.
    private var restartsClient = false
    private let logger: Logger
    /// What to do when nobody advertises the device: the words end every warning.
    private let byHand: String

    package enum State: Sendable, Equatable {
        case starting
        /// avahi-daemon is not there (yet): the service is advertised when it comes.
        case waitingForDaemon
        case registering
        /// The service is on the network; `host` is avahi's name for the machine (`kitchen-pi.local`).
        case advertised(host: String)
        /// Another device on the network has the name: not advertised.
        case nameTaken
        /// Not advertised, for `reason`.
        case unavailable(reason: String)
    }

    /// Advertises `record` from now on; `byHand` says how to add the device without it (a sentence).
    package init(record: ServiceRecord, byHand: String, logger: Logger) {
        self.record = record
        self.logger = logger
        self.byHand = byHand
        let opened: Result<(AvahiLibrary, AvahiLoopPoll), AdvertisementError> = Result { () throws(AdvertisementError) in (try AvahiLibrary.loaded(), try AvahiLoopPoll()) }
        library = try? opened.get().0
        poll = try? opened.get().1
        if case .failure(let error) = opened { giveUp(error) } else { connect() }
    }

    deinit { disconnect() }

    /// The descriptor the loop polls (avahi's D-Bus socket, in an epoll set); nil without avahi.
    package var descriptor: FileDescriptor? { poll?.descriptor }

    /// How long until avahi wants to be called without a descriptor ready, in nanoseconds; nil for never.
    package var nanosecondsToDeadline: Int64? { poll?.nanosecondsToNextTimeout }

    /// The loop saw `descriptor` ready.
    package func noteReady() { poll?.noteReady() }

    /// Lets avahi's library do what is ready and due (its callbacks run here).
    package func advance() {
        poll?.dispatch()
        if restartsClient {
            restartsClient = false
            disconnect()
            connect()
        }
    }

    /// Tries again when the service is not advertised for want of avahi (a reload: the user may have
    /// installed or started it since); nothing otherwise.
    package func retry() {
        guard case .unavailable = state, library != nil else { return }
        state = .starting
        disconnect()
        connect()
    }

    /// Withdraws the service (the client's end removes its entries from avahi-daemon).
    package func finish() { disconnect() }

    private func connect() {
        guard let library, let poll else { return }
        var error: Int32 = 0
        let callback: AvahiLibrary.ClientCallback = { client, state, userdata in
            guard let userdata else { return }
            Unmanaged<MDNSAdvertiser>.fromOpaque(userdata).takeUnretainedValue().clientChanged(client, state)
        }
        client = library.clientNew(poll.api, AVAHI_CLIENT_NO_FAIL, callback, Unmanaged.passUnretained(self).toOpaque(), &error)
        if client == nil {
            giveUp(.avahi(call: "avahi_client_new", code: error, message: library.message(error)))
        }
    }

    private func disconnect() {
        guard let library, let client else { return }
        self.client = nil
        group = nil  // freed with its client
        library.clientFree(client)
    }

    private func clientChanged(_ client: OpaquePointer?, _ clientState: AvahiClientState) {
        guard let library else { return }
        switch clientState {
        case AVAHI_CLIENT_S_RUNNING:
            publish(client)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            // The machine's own name is being (re)established: the service waits for S_RUNNING.
            if let group { _ = library.groupReset(group) }
            state = .registering
        case AVAHI_CLIENT_CONNECTING:
            guard state != .waitingForDaemon else { return }
            state = .waitingForDaemon
            logger.warning("mDNS: avahi-daemon is not running, so Home Assistant does not discover \(record.name) by itself: it is advertised as soon as avahi-daemon starts (sudo apt install avahi-daemon); until then \(byHand)")
        case AVAHI_CLIENT_FAILURE:
            let code = library.clientErrno(client)
            if code == AvahiErrorCode.disconnected {
                logger.warning("mDNS: avahi-daemon went away: \(record.fullName) is advertised again when it is back")
                state = .waitingForDaemon
                restartsClient = true
            } else {
                giveUp(.avahi(call: "avahi's client", code: code, message: library.message(code)))
            }
        default:
            break
        }
    }

    /// Adds the service to an entry group (made once per client) and commits it.
    private func publish(_ client: OpaquePointer?) {
        guard let library else { return }
        if group == nil {
            let callback: AvahiLibrary.GroupCallback = { group, state, userdata in
                guard let userdata else { return }
                Unmanaged<MDNSAdvertiser>.fromOpaque(userdata).takeUnretainedValue().groupChanged(group, state)
            }
            group = library.groupNew(client, callback, Unmanaged.passUnretained(self).toOpaque())
            guard group != nil else { return giveUp(clientError("avahi_entry_group_new", client)) }
        }
        state = .registering
        let text = record.text.map { strdup($0) }
        defer { text.forEach { free($0) } }
        var pointers = text.map { UnsafePointer<CChar>($0) }
        let list = pointers.withUnsafeMutableBufferPointer { library.stringListNew($0.baseAddress, Int32($0.count)) }
        defer { library.stringListFree(list) }
        let added = library.groupAddService(group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0), record.name, record.type, nil, nil, record.port, list)
        guard added >= 0 else { return giveUp(.avahi(call: "adding \(record.fullName)", code: added, message: library.message(added))) }
        let committed = library.groupCommit(group)
        guard committed >= 0 else { return giveUp(.avahi(call: "announcing \(record.fullName)", code: committed, message: library.message(committed))) }
    }

    private func groupChanged(_ group: OpaquePointer?, _ groupState: AvahiEntryGroupState) {
        guard let library else { return }
        switch groupState {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            let host = client.flatMap { library.clientHostNameFQDN($0) }.map { String(cString: $0) } ?? "this machine"
            state = .advertised(host: host)
            logger.info("mDNS: advertised as \(record.fullName) on \(host) port \(record.port): Home Assistant lists it under Discovered")
        case AVAHI_ENTRY_GROUP_COLLISION:
            state = .nameTaken
            logger.warning("mDNS: another device on the network is called \(record.name): \(record.fullName) is not advertised; give this one another api: name:, or \(byHand)")
        case AVAHI_ENTRY_GROUP_FAILURE:
            giveUp(clientError("advertising \(record.fullName)", client))
        default:
            break
        }
    }

    private func clientError(_ call: String, _ client: OpaquePointer?) -> AdvertisementError {
        guard let library else { return .system(call) }
        let code = library.clientErrno(client)
        return .avahi(call: call, code: code, message: library.message(code))
    }

    /// Not advertised: says so once, with what to do.
    private func giveUp(_ error: AdvertisementError) {
        let reason = error.isNoDaemon ? "no avahi-daemon answers on D-Bus (\(error))" : error.description
        if case .unavailable = state { return }  // avahi_client_new's callback may have said it first
        state = .unavailable(reason: reason)
        logger.warning("mDNS: \(record.fullName) is not advertised: \(reason); Home Assistant does not discover it by itself: \(byHand)")
    }
}
