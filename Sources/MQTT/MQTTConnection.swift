#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CMosquitto
import LinuxSys
import Logging
import Settings
import SystemPackage

/// The connection to the broker, kept up on the event loop's clock: look the host name up off the
/// loop (`HostLookup`), connect without waiting, notice the loss, try again with backoff
/// (`ReconnectBackoff`), keepalive. It owns the libmosquitto client, and the `SocketWatch` and the
/// lookup's descriptor the loop polls; it decides nothing about messages (`MQTTSink` does).
///
/// A name is looked up before every attempt, and libmosquitto is given a numeric address, so its own
/// `getaddrinfo` never waits for DNS; the addresses take turns across failed attempts. With TLS
/// (`mqtts`) libmosquitto must have the name, to check the certificate against it: it is given the
/// name right after a lookup answered, so its own lookup is answered too (short of DNS failing in
/// between, or a resolver that does not cache: then one attempt can wait for it once).
///
/// Times are nanoseconds of the loop's clock. libmosquitto keeps its own keepalive time (seconds of
/// `CLOCK_MONOTONIC`); `loopMisc` runs every quarter of the keepalive, so an idle connection costs
/// one wakeup every few seconds and a silent broker is noticed within about 1.5 keepalives.
final class MQTTConnection {
    enum State: Equatable {
        /// Not connected; the next attempt is at `retryAtNs`.
        case waiting(retryAtNs: Int64)
        /// The host name is being looked up on another thread; its answer wakes `lookup.descriptor`.
        case resolving
        /// TCP, TLS and CONNECT under way.
        case connecting
        /// CONNACK accepted.
        case connected
        /// We sent DISCONNECT (or gave up): no more attempts.
        case closed
    }

    /// What the connection reports to its owner after `advance`.
    enum Report: Equatable {
        case connected
        case lost
        case published(mid: Int32)
        case message(topic: String, payload: [UInt8], retained: Bool)
        case subscribed(mid: Int32)
    }

    let settings: MQTTSettings
    let client: MosquittoClient
    let watch: SocketWatch
    /// Looks the broker's name up off the loop (not used for a numeric address).
    let lookup: HostLookup
    private let logger: Logger
    private var backoff: ReconnectBackoff
    private(set) var state: State = .waiting(retryAtNs: 0)
    /// The host last handed to libmosquitto (then `mosquitto_reconnect_async` keeps its session).
    private var connectedHost: String?
    /// The last lookup's addresses, and whose turn it is.
    private var addresses: [String] = []
    private var addressTurn = 0
    private var lookupReady = false
    private var socketReady = false
    private var nextMiscNs: Int64?
    /// The last reason the broker could not be used, until a connect succeeds.
    private(set) var lastError: MQTTError?
    /// Successful connects so far.
    private(set) var connects = 0

    /// A client for `settings`, with `will` as the last will; reads the password and checks the CA
    /// file now (what will not heal by retrying is refused here). Does not connect yet. `resolve`
    /// looks host names up (the system's resolver; tests give a slow one).
    init(settings: MQTTSettings, will: OutboundMessage, logger: Logger, resolve: @escaping HostLookup.Resolve = HostLookup.systemResolve) throws(MQTTError) {
        self.settings = settings
        self.logger = logger
        self.backoff = ReconnectBackoff(seed: UInt64(truncatingIfNeeded: MonotonicClock.nowNs))
        client = try MosquittoClient(clientID: settings.clientID)
        do {
            watch = try SocketWatch()
            lookup = try HostLookup(resolve: resolve)
        } catch {
            throw MQTTError.library(call: error.operation, reason: error.errno.description)
        }
        let password = try settings.readFiles()
        if let username = settings.username {
            try client.setCredentials(username: username, password: password)
        }
        try client.setWill(topic: will.topic, payload: String(decoding: will.payload, as: UTF8.self), qos: Int32(settings.qos), retain: will.retain)
        if settings.transport == .mqtts {
            do { try client.setTLS(caFile: settings.caFile, caPath: "/etc/ssl/certs") } catch {
                throw MQTTError.caFile(path: settings.caFile ?? "/etc/ssl/certs", reason: error.description)
            }
        }
    }

    /// When `advance` must run next: the next attempt, or the next keepalive check.
    var nextDeadlineNs: Int64? {
        switch state {
        case .waiting(let retryAtNs): retryAtNs
        case .connecting, .connected: nextMiscNs
        case .resolving, .closed: nil
        }
    }

    /// The watched socket was ready: handled at the next `advance`.
    func noteReady() { socketReady = true }

    /// The lookup's descriptor was ready: its answer is taken at the next `advance`.
    func noteLookupReady() { lookupReady = true }

    /// Does what is due at `nowNs`: reads and writes, connects, keeps alive; returns what happened.
    func advance(toNs nowNs: Int64) -> [Report] {
        var reports: [Report] = []
        if socketReady {
            socketReady = false
            _ = watch.take()
            // Never without a socket: libmosquitto would report that as a lost connection.
            if client.socket >= 0 { handle(client.loopRead(), nowNs: nowNs, into: &reports) }
        }
        if lookupReady {
            lookupReady = false
            if let answer = lookup.take(), state == .resolving { resolved(answer, nowNs: nowNs, into: &reports) }
        }
        if case .waiting(let retryAtNs) = state, nowNs >= retryAtNs { attempt(nowNs: nowNs, into: &reports) }
        if state == .connecting || state == .connected, client.socket >= 0, let misc = nextMiscNs, nowNs >= misc {
            nextMiscNs = nowNs.adding(durationNs: Int64(settings.keepaliveSeconds) * 250_000_000)
            handle(client.loopMisc(), nowNs: nowNs, into: &reports)
        }
        return reports
    }

    /// Writes what libmosquitto holds, as far as the socket takes it, and watches the socket for what
    /// comes next. Call after publishing.
    func flush(nowNs: Int64, into reports: inout [Report]) {
        if client.socket >= 0, client.wantsWrite { handle(client.loopWrite(), nowNs: nowNs, into: &reports) }
        do { try watch.watch(client.socket, write: client.socket >= 0 && client.wantsWrite) } catch {
            logger.error("mqtt: cannot watch the broker's socket: \(error)")
        }
    }

    /// Sends DISCONNECT and stops trying (the will is not published).
    func close() {
        if state == .connected || state == .connecting {
            _ = client.disconnect()
            if client.socket >= 0, client.wantsWrite { _ = client.loopWrite() }
        }
        state = .closed
        watch.forget()
    }

    private func attempt(nowNs: Int64, into reports: inout [Report]) {
        if settings.username != nil, let password = settings.password {
            do {
                try client.setCredentials(username: settings.username ?? "", password: try password.read())
            } catch {
                fail(error, nowNs: nowNs)
                return
            }
        }
        guard !HostLookup.isNumeric(settings.host) else {
            connect(to: settings.host, nowNs: nowNs, into: &reports)
            return
        }
        guard !lookup.inFlight else {
            state = .resolving  // the last lookup still runs (DNS hangs): its answer will do
            return
        }
        guard lookup.start(host: settings.host, port: settings.port) else {
            fail(.library(call: "pthread_create", reason: "no thread for looking up \(settings.host)"), nowNs: nowNs)
            return
        }
        logger.debug("mqtt: looking up \(settings.host)")
        state = .resolving
    }

    /// The lookup's answer: connect to the next address (to the name for TLS), or try again later.
    private func resolved(_ answer: Result<[String], HostLookup.LookupFailure>, nowNs: Int64, into reports: inout [Report]) {
        switch answer {
        case .failure(let failure):
            fail(.lookup(host: settings.host, reason: failure.reason), nowNs: nowNs)
        case .success(let found) where found.isEmpty:
            fail(.lookup(host: settings.host, reason: "no address"), nowNs: nowNs)
        case .success(let found):
            if found != addresses { addresses = found; addressTurn = 0 }
            let host = settings.transport == .mqtts ? settings.host : addresses[addressTurn % addresses.count]
            connect(to: host, nowNs: nowNs, into: &reports)
        }
    }

    /// Starts connecting to `host` (a numeric address, or the name for TLS) without waiting.
    private func connect(to host: String, nowNs: Int64, into reports: inout [Report]) {
        let code = host == connectedHost
            ? client.reconnectAsync() : client.connectAsync(host: host, port: settings.port, keepaliveSeconds: settings.keepaliveSeconds)
        let saved = errno
        connectedHost = host
        guard code == .mosquittoSuccess else {
            fail(error(for: code, errno: saved), nowNs: nowNs)
            return
        }
        logger.debug("mqtt: connecting to \(settings.url) at \(host)")
        state = .connecting
        nextMiscNs = nowNs.adding(durationNs: Int64(settings.keepaliveSeconds) * 250_000_000)
        watch.forget()
        flush(nowNs: nowNs, into: &reports)
    }

    /// Handles a loop call's result and the callbacks it caused.
    private func handle(_ code: Int32, nowNs: Int64, into reports: inout [Report]) {
        let saved = errno
        var lost: MQTTError?
        for event in client.takeEvents() {
            switch event {
            case .connected(let code) where code == 0:
                state = .connected
                connects += 1
                lastError = nil
                backoff.reset()
                logger.info("mqtt: connected to \(settings.url) as \(settings.clientID)")
                reports.append(.connected)
            case .connected(let code):
                lost = .refused(code: code, username: settings.username)
            case .disconnected(let code, let errnoThen):
                if state == .closed { continue }
                if lost == nil { lost = error(for: code, errno: errnoThen) }
            case .published(let mid):
                reports.append(.published(mid: mid))
            case .message(let topic, let payload, let retained):
                reports.append(.message(topic: topic, payload: payload, retained: retained))
            case .subscribed(let mid):
                reports.append(.subscribed(mid: mid))
            }
        }
        if lost == nil, code != .mosquittoSuccess, code != Int32(MOSQ_ERR_NO_CONN.rawValue), state != .closed {
            lost = error(for: code, errno: saved)
        }
        if lost == nil, client.socket < 0, state == .connecting || state == .connected { lost = .connection(url: settings.url, reason: "the connection closed") }
        guard let lost else { return }
        watch.forget()
        fail(lost, nowNs: nowNs)
        reports.append(.lost)
    }

    private func fail(_ error: MQTTError, nowNs: Int64) {
        addressTurn += 1  // the next attempt tries the next address
        let delayNs = backoff.nextDelayNs()
        state = .waiting(retryAtNs: nowNs.adding(durationNs: delayNs))
        nextMiscNs = nil
        let again = "trying again in \(delayNs / 1_000_000) ms"
        if error != lastError || backoff.failures == 1 {
            logger.error("mqtt: \(error) (\(again))")
        } else {
            logger.debug("mqtt: \(error) (\(again))")
        }
        lastError = error
    }

    /// The error a `MOSQ_ERR_*` code means for this broker.
    private func error(for code: Int32, errno: Int32) -> MQTTError {
        switch code {
        case Int32(MOSQ_ERR_TLS.rawValue), Int32(MOSQ_ERR_TLS_HANDSHAKE.rawValue): .tls(host: settings.host)
        case Int32(MOSQ_ERR_EAI.rawValue), Int32(MOSQ_ERR_LOOKUP.rawValue): .lookup(host: settings.host, reason: nil)
        case Int32(MOSQ_ERR_KEEPALIVE.rawValue): .connection(url: settings.url, reason: "the broker stopped answering (keepalive)")
        case Int32(MOSQ_ERR_CONN_LOST.rawValue): .connection(url: settings.url, reason: "the broker closed the connection")
        case Int32(MOSQ_ERR_ERRNO.rawValue) where errno == ECONNRESET || errno == EPIPE:
            .connection(url: settings.url, reason: "the broker closed the connection")
        default: .connection(url: settings.url, reason: MQTTError.text(code, errno: errno))
        }
    }
}
