import DebounceCore
import ESPHomeAPI
import EventLoop
import InputModel
import LineInput
import LinuxSys
import Logging
import Pipeline
import ServiceAdvertisement
import SystemPackage

/// The device Home Assistant's ESPHome integration sees: ESPHome's native API, on a TCP port, with the
/// inputs as its entities (`APIEntityTable`, from their descriptions: it names no kind). Plaintext, or
/// encrypted with Noise under the configuration's key. Each client says hello, reads the device's
/// information and entities, subscribes to their states, and gets every change and event as it happens.
///
/// One descriptor for the loop (an `EpollSet` of the listening socket and the clients): nothing per
/// edge, and per output only what the entities keep. A client costs no wakeup while nothing happens (the
/// pings are the client's). A client that stops reading is closed, never waited for.
package final class ESPHomeAPISink: Sink {
    /// The port it listens on (the kernel's choice when it was asked for port 0).
    package let port: UInt16
    package let identity: APIDeviceIdentity
    package let security: APISession.Security
    private let listener: OwnedDescriptor
    private let watch: EpollSet
    private var clients: [UInt64: APIClient] = [:]
    /// The epoll tokens: 0 the listening socket, from 1 the clients.
    private var nextToken: UInt64 = 1
    /// What the epoll set reported ready, handled in `advance` (at the wakeup's time).
    private var ready: [EpollSet.Ready] = []
    private var presenters: [Int: any InputPresenter] = [:]
    private var order: [Int] = []
    private var table: APIEntityTable
    /// The inputs' lines, for their chips' availability.
    private var linesOfInput: [Int: Set<Int>] = [:]
    private var nowNs: Int64 = 0
    private let maximumClients: Int
    /// The device's mDNS advertisement through avahi-daemon, when it is advertised.
    private let advertiser: MDNSAdvertiser?
    private var listeningPaused = false
    private var resumeListeningNs: Int64?
    let logger: Logger

    /// The most clients at once: Home Assistant, the ESPHome dashboard and a few log readers.
    package static let defaultMaximumClients = 8

    /// Listens on `port` (0: one the kernel chooses, `port` then says which) as the device `identity`,
    /// secured by `security`, for clients of `inputs`; advertised over mDNS when `advertising` says how.
    package init(
        port: UInt16, identity: APIDeviceIdentity, security: APISession.Security, inputs: [any InputPresenter], maximumClients: Int = defaultMaximumClients,
        advertising: APIAdvertising? = nil, logger: Logger
    ) throws(ESPHomeAPIError) {
        self.identity = identity
        self.security = security
        self.maximumClients = maximumClients
        self.logger = logger
        do {
            (listener, self.port) = try TCPSocket.listen(port: port)
            watch = try EpollSet()
            try watch.watch(listener.descriptor, write: false, token: 0)
        } catch {
            throw .cannotListen(port: port, error)
        }
        let listeningPort = self.port
        advertiser = advertising.map { advertising in
            MDNSAdvertiser(record: advertising.record(identity: identity, port: listeningPort, security: security), byHand: advertising.byHand(port: listeningPort), logger: logger)
        }
        descriptorList = [watch.descriptor] + (advertiser?.descriptor.map { [$0] } ?? [])
        table = APIEntityTable([])
        take(inputs)
    }

    /// Takes the inputs of the next configuration (a reload): the entities kept (same object id and
    /// kind) keep their states; an advertisement that found no avahi-daemon is tried again. When the
    /// entities changed, each client is asked to disconnect: Home Assistant connects again at once and
    /// lists them anew, as after an ESPHome device's update.
    package func adopt(_ inputs: [any InputPresenter]) {
        advertiser?.retry()
        take(inputs)
    }

    /// Makes the entities of `inputs`, keeping the states of those it had.
    private func take(_ inputs: [any InputPresenter]) {
        presenters = Dictionary(inputs.map { ($0.description.input, $0) }, uniquingKeysWith: { first, _ in first })
        order = inputs.map(\.description.input)
        linesOfInput = Dictionary(inputs.map { ($0.description.input, Set($0.description.lines)) }, uniquingKeysWith: { first, _ in first })
        var next = APIEntityTable(inputs.map(\.description))
        next.keepStates(of: table)
        let changed = !next.listsTheSame(as: table)
        table = next
        guard changed else { return }
        for client in clients.values where client.connection.phase == .open {
            logger.info("ESPHome API: the inputs changed: \(client.connection.clientInfo ?? client.peer) is asked to connect again and list them")
            perform(client.connection.disconnect(), for: client)
        }
    }

    package var consumesEdges: Bool { false }

    package var descriptors: [FileDescriptor] { descriptorList }
    /// The epoll descriptors (the sockets', the advertiser's), made with the sink.
    package var keepsDescriptorsOpen: Bool { true }
    /// `descriptors`, made once: the loop asks for it at every wakeup.
    private let descriptorList: [FileDescriptor]

    package func start(linesPressed: [Bool?], levels: [Level], atNs nowNs: Int64) {
        self.nowNs = nowNs
        for index in order {
            for update in presenters[index]?.start(linesPressed: linesPressed) ?? [] { broadcast(table.apply(update, of: index, sending: subscribed)) }
        }
    }

    package func consume(_ output: PipelineOutput, nowNs: Int64) throws(SinkError) {
        guard let index = output.source.map({ Int($0.input) }), let presenter = presenters[index] else { return }
        self.nowNs = nowNs
        for update in presenter.updates(for: output) { broadcast(table.apply(update, of: index, sending: subscribed)) }
    }

    package func consume(code: EnteredCode, of source: OutputSource, nowNs: Int64) throws(SinkError) {
        let index = Int(source.input)
        guard let presenter = presenters[index] else { return }
        self.nowNs = nowNs
        for update in presenter.updates(for: code) { broadcast(table.apply(update, of: index, sending: subscribed)) }
    }

    package func availabilityChanged(_ change: ChipAvailability, atNs nowNs: Int64) {
        self.nowNs = nowNs
        for index in order where !(linesOfInput[index] ?? []).isDisjoint(with: change.lines) {
            broadcast(table.setAvailable(change.isAvailable, input: index))
        }
    }

    /// How often at most each input's health is read: a minute, in nanoseconds, as MQTT publishes it.
    package static let healthIntervalNs: Int64 = 60_000_000_000

    /// When the inputs' health is next read. The loop never wakes for it: it is read at the first
    /// wakeup past it (a client's ping, an edge), so a connected client costs no wakeup of its own.
    package private(set) var inspectionDueNs: Int64? = .min

    /// Each input's health now, as its diagnostic sensor's state (edges since the start).
    package func inspect(_ pipeline: ButtonPipeline, atNs nowNs: Int64) {
        self.nowNs = nowNs
        inspectionDueNs = nowNs.adding(durationNs: Self.healthIntervalNs)
        for index in order {
            let health = pipeline.health(input: index, atNs: nowNs)
            let update = InputUpdate(channel: APIEntity.healthChannel, payload: [], delivery: .latestState, numbers: ["edges": Double(health.edges)])
            broadcast(table.apply(update, of: index, sending: subscribed))
        }
    }

    /// Whether a client is subscribed to the states: without one, an update is only noted.
    private var subscribed: Bool {
        !clients.isEmpty && clients.values.contains { $0.connection.subscribesStates }
    }

    /// Queues `messages` for every client subscribed to the states; sent at the end of the wakeup.
    private func broadcast(_ messages: [APIMessage]) {
        guard !messages.isEmpty else { return }
        for client in clients.values where client.connection.subscribesStates && !client.closesWhenSent {
            for message in messages { client.enqueue(message) }
        }
    }

    package func descriptorReady(_ index: Int, events: PollEvents) {
        if index == 0 { ready += watch.take() } else { advertiser?.noteReady() }
    }

    package var nextDeadlineNs: Int64? {
        var earliest = resumeListeningNs
        if let waitNs = advertiser?.nanosecondsToDeadline {
            let dueNs = nowNs.adding(durationNs: waitNs)
            earliest = min(earliest ?? dueNs, dueNs)
        }
        guard !clients.isEmpty else { return earliest }
        for client in clients.values {
            guard let deadline = client.connection.deadlineNs else { continue }
            earliest = min(earliest ?? deadline, deadline)
        }
        return earliest
    }

    /// The wakeup's work, at its time: new clients taken, what clients sent read and answered, silent
    /// clients given up, and every client with bytes waiting sent what its socket takes.
    package func advance(toNs nowNs: Int64) throws(SinkError) {
        self.nowNs = nowNs
        if let resumeNs = resumeListeningNs, nowNs >= resumeNs { resumeListening() }
        advertiser?.advance()
        guard !ready.isEmpty || !clients.isEmpty else { return }  // every wakeup: nothing to do while nobody is connected
        let readyNow = ready
        ready = []
        for event in readyNow {
            if event.token == 0 {
                acceptClients()
                continue
            }
            guard let client = clients[event.token] else { continue }
            if event.readable || event.failed { read(client) }
        }
        guard !clients.isEmpty else { return }
        for client in clients.values {
            if let deadline = client.connection.deadlineNs, nowNs >= deadline { perform(client.connection.deadlinePassed(atNs: nowNs), for: client) }
        }
        for (token, client) in clients { flush(client, token: token) }
    }

    private func acceptClients() {
        while true {
            let socket: OwnedDescriptor?
            do { socket = try UnixSocket.accept(listener.descriptor) } catch {
                logger.warning("ESPHome API: \(error); taking no client until one leaves")
                pauseListening()
                return
            }
            guard let socket else { return }
            guard clients.count < maximumClients else {
                logger.warning("ESPHome API: \(TCPSocket.peer(of: socket.descriptor) ?? "a client") refused: \(maximumClients) clients are connected, the most the device takes")
                socket.close()
                continue
            }
            TCPSocket.sendAtOnce(socket.descriptor)
            let session = APISession(security: security, name: identity.name, compactMACAddress: identity.compactMACAddress)
            let client = APIClient(socket: socket, session: session, connection: APIConnection(identity: identity, openedAtNs: nowNs))
            let token = nextToken
            nextToken += 1
            do { try watch.watch(socket.descriptor, write: false, token: token) } catch {
                logger.warning("ESPHome API: \(error)")
                continue
            }
            clients[token] = client
            logger.debug("ESPHome API: \(client.peer) connected (\(clients.count) connected)")
        }
    }

    /// Reads what `client` sent and answers each of its messages; its end of stream closes it.
    private func read(_ client: APIClient) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !client.closesWhenSent {
            let count: Int?
            do { count = try buffer.withUnsafeMutableBytes { bytes throws(Errno) in try UnixSocket.receive(bytes, from: client.socket.descriptor) } } catch {
                drop(client, saying: "\(client.connection.clientInfo ?? client.peer) went away (\(error))")
                return
            }
            guard let count else { return }
            guard count > 0 else {
                drop(client, saying: "\(client.connection.clientInfo ?? client.peer) disconnected")
                return
            }
            var output: [UInt8] = []
            let messages: [APIMessage]
            do {
                messages = try client.session.receive(buffer[..<count], output: &output)
            } catch {
                client.enqueue(bytes: output + error.farewell)
                refuse(client, error)
                return
            }
            client.enqueue(bytes: output)
            for message in messages where !client.closesWhenSent {
                let wasOpen = client.connection.phase == .open
                do {
                    perform(client.connection.receive(try APIClientMessage.decode(type: message.type, payload: message.payload), atNs: nowNs), for: client)
                } catch {
                    logger.warning("ESPHome API: \(client.connection.clientInfo ?? client.peer) sent \(error.message)")
                    client.closesWhenSent = true
                }
                if !wasOpen, client.connection.phase == .open {
                    logger.info("ESPHome API: \(client.connection.clientInfo ?? "a client") connected from \(client.peer)")
                }
            }
        }
    }

    /// Logs why `client`'s bytes were refused (a wrong key once per client, as a warning that says what
    /// to do), and closes it once the refusal is sent.
    private func refuse(_ client: APIClient, _ error: APISessionError) {
        client.closesWhenSent = true
        guard !client.refused else { return }
        client.refused = true
        switch error.reason {
        case .wrongKey, .frame(.badIndicator):
            logger.warning("ESPHome API: \(client.peer): \(error.message)")
        default:
            logger.info("ESPHome API: \(client.peer): \(error.message)")
        }
    }

    /// Does what `client`'s conversation says.
    private func perform(_ steps: [APIConnection.Step], for client: APIClient) {
        for step in steps {
            switch step {
            case .send(let message): client.enqueue(message)
            case .listEntities: for message in table.listing { client.enqueue(message) }
            case .sendStates: for message in table.currentStates() { client.enqueue(message) }
            case .close(let reason):
                logger.debug("ESPHome API: \(client.connection.clientInfo ?? client.peer): \(reason.message)")
                if reason == .silent || reason == .noHello { logger.info("ESPHome API: \(client.peer): \(reason.message)") }
                client.closesWhenSent = true
            }
        }
    }

    /// Sends what `client` takes now; watches it for writing while more waits; closes it when it has
    /// gone, when it stopped reading, or when it is to be closed and all was sent.
    private func flush(_ client: APIClient, token: UInt64) {
        guard !client.isOverflowing else {
            drop(client, saying: "\(client.connection.clientInfo ?? client.peer) stopped reading: closed (it gets every state again when it connects)")
            return
        }
        do {
            try client.send()
            if client.closesWhenSent, !client.hasPending {
                close(token)
                return
            }
            try watch.watch(client.socket.descriptor, read: !client.closesWhenSent, write: client.hasPending, token: token)
        } catch {
            close(token)
        }
    }

    private func drop(_ client: APIClient, saying message: String) {
        guard let token = clients.first(where: { $0.value === client })?.key else { return }
        logger.info("ESPHome API: \(message)")
        close(token)
    }

    private func close(_ token: UInt64) {
        guard let client = clients.removeValue(forKey: token) else { return }
        watch.remove(client.socket.descriptor)
        client.socket.close()
        logger.debug("ESPHome API: a client left (\(clients.count) connected)")
        resumeListening()
    }

    private func pauseListening() {
        guard !listeningPaused else { return }
        listeningPaused = true
        resumeListeningNs = nowNs.adding(durationNs: 1_000_000_000)
        watch.remove(listener.descriptor)
    }

    private func resumeListening() {
        guard listeningPaused, isListening, !stopping else { return }
        listeningPaused = false
        resumeListeningNs = nil
        try? watch.watch(listener.descriptor, write: false, token: 0)
    }

    /// The run is stopping: no client is taken any more, and each open one is told (a
    /// `DisconnectRequest`: Home Assistant marks the device's entities unavailable at once, and
    /// connects again when it comes back). The stop waits, within its grace period, for their answers,
    /// so that no answer meets a closed socket (which the client would see as a reset).
    package func beginShutdown(atNs nowNs: Int64, graceEndNs: Int64) {
        self.nowNs = nowNs
        stopping = true
        watch.remove(listener.descriptor)
        for client in clients.values where client.connection.phase == .open && !client.closesWhenSent {
            perform(client.connection.disconnect(), for: client)
        }
        for (token, client) in clients { flush(client, token: token) }
    }

    /// Whether a client the stop asked to disconnect has not answered yet.
    package var isBusy: Bool { stopping && !clients.isEmpty }

    /// The run ends: what is still queued is sent as far as it goes, every client is closed (one that
    /// was never told is told now), and the port is closed.
    package func finish(atNs nowNs: Int64) throws(SinkError) {
        self.nowNs = nowNs
        for (token, client) in clients {
            if client.connection.phase == .open, !stopping { perform(client.connection.disconnect(), for: client) }
            try? client.send()
            close(token)
        }
        advertiser?.finish()
        closeListener()
    }

    /// Whether the run is stopping (`beginShutdown`): no client is taken.
    private var stopping = false

    private var isListening = true

    private func closeListener() {
        guard isListening else { return }
        isListening = false
        listener.close()
    }

    deinit { closeListener() }
}
