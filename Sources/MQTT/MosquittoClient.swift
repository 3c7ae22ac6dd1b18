#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CMosquitto

/// One libmosquitto client handle (`struct mosquitto`), driven by its owner: no thread, no blocking
/// call. The owner connects with `connectAsync` (`mosquitto_connect_async`), polls `socket` for
/// reading (and for writing while `wantsWrite`), and calls `loopRead`, `loopWrite` and, every few
/// seconds, `loopMisc` (`mosquitto_loop_read/write/misc`). What libmosquitto reports through its
/// callbacks during those calls is collected in `events`, in order, for the owner to take.
///
/// The callbacks are C function pointers without captures: each finds this object through the
/// handle's userdata pointer (`mosquitto_user_data_set`), unretained: the handle never outlives
/// the object (`deinit` destroys it). Not thread-safe: one owner, one thread.
///
/// QoS 1 and 2 messages stay in libmosquitto until the broker acknowledges them, also across
/// `reconnectAsync` on the same handle: it sends them again (with DUP) right after the CONNACK.
final class MosquittoClient {
    /// What a callback reported.
    enum Event: Equatable {
        /// The broker answered the CONNECT: `code` 0 is accepted, 1 to 5 refused (MQTT 3.1.1 CONNACK).
        case connected(code: Int32)
        /// The connection ended: `code` is a `MOSQ_ERR_*` (0: we asked for it), `errno` as it was then.
        case disconnected(code: Int32, errno: Int32)
        /// The message `mid` is done: acknowledged (QoS 1: PUBACK) or, for QoS 0, written.
        case published(mid: Int32)
        /// A message arrived on a subscribed topic; `retained`: the broker kept it (sent because we
        /// subscribed), not one published since.
        case message(topic: String, payload: [UInt8], retained: Bool)
        /// The broker acknowledged the subscription `mid` (SUBACK): the retained messages it matches follow.
        case subscribed(mid: Int32)
    }

    private let handle: OpaquePointer
    /// libmosquitto's functions, opened at the first client (`MosquittoLibrary`).
    private let library: MosquittoLibrary
    /// Events reported since the owner last took them.
    var events: [Event] = []

    /// A client named `clientID` with a clean session (`mosquitto_new`); the first one opens libmosquitto.
    init(clientID: String) throws(MQTTError) {
        let library = try MosquittoLibrary.loaded()
        guard let handle = library.new(clientID, true, nil) else {
            throw MQTTError.library(call: "mosquitto_new", reason: String(cString: strerror(errno)))
        }
        self.handle = handle
        self.library = library
        library.userDataSet(handle, Unmanaged.passUnretained(self).toOpaque())
        library.connectCallbackSet(handle) { _, userdata, code in
            MosquittoClient.owner(userdata)?.events.append(.connected(code: code))
        }
        library.disconnectCallbackSet(handle) { _, userdata, code in
            let saved = errno
            MosquittoClient.owner(userdata)?.events.append(.disconnected(code: code, errno: saved))
        }
        library.publishCallbackSet(handle) { _, userdata, mid in
            MosquittoClient.owner(userdata)?.events.append(.published(mid: mid))
        }
        library.messageCallbackSet(handle) { _, userdata, message in
            guard let client = MosquittoClient.owner(userdata), let message = message?.pointee, let topic = message.topic else { return }
            var payload: [UInt8] = []
            if let bytes = message.payload, message.payloadlen > 0 {
                payload = Array(UnsafeRawBufferPointer(start: bytes, count: Int(message.payloadlen)))
            }
            client.events.append(.message(topic: String(cString: topic), payload: payload, retained: message.retain))
        }
        library.subscribeCallbackSet(handle) { _, userdata, mid, _, _ in
            MosquittoClient.owner(userdata)?.events.append(.subscribed(mid: mid))
        }
    }

    deinit {
        library.destroy(handle)
    }

    private static func owner(_ userdata: UnsafeMutableRawPointer?) -> MosquittoClient? {
        userdata.map { Unmanaged<MosquittoClient>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Takes the events reported so far.
    func takeEvents() -> [Event] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    // MARK: Settings (before connecting)

    /// `mosquitto_username_pw_set`.
    func setCredentials(username: String, password: String?) throws(MQTTError) {
        try check(library.usernamePasswordSet(handle, username, password), "mosquitto_username_pw_set")
    }

    /// The message the broker publishes for us if we vanish (`mosquitto_will_set`).
    func setWill(topic: String, payload: String, qos: Int32, retain: Bool) throws(MQTTError) {
        let bytes = Array(payload.utf8)
        try check(library.willSet(handle, topic, Int32(bytes.count), bytes, qos, retain), "mosquitto_will_set")
    }

    /// TLS, trusting the CAs of `caFile` (a PEM file) or, without one, of the directory `caPath`
    /// (`mosquitto_tls_set`); the broker's certificate must name the host (`mosquitto_tls_insecure_set(false)`).
    func setTLS(caFile: String?, caPath: String?) throws(MQTTError) {
        try check(library.tlsSet(handle, caFile, caFile == nil ? caPath : nil, nil, nil, nil), "mosquitto_tls_set")
        try check(library.tlsInsecureSet(handle, false), "mosquitto_tls_insecure_set")
    }

    private func check(_ code: Int32, _ call: String) throws(MQTTError) {
        guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else { throw MQTTError.library(call: call, reason: MQTTError.text(code, errno: errno, library: library)) }
    }

    // MARK: Connection

    /// Starts connecting without waiting (`mosquitto_connect_async`); keepalive in seconds (5 to 65535).
    /// The host name is resolved here (`getaddrinfo`, which can wait for DNS); the TCP connect and
    /// the TLS handshake go on in `loopRead`/`loopWrite`. Returns a `MOSQ_ERR_*` code.
    func connectAsync(host: String, port: Int, keepaliveSeconds: Int) -> Int32 {
        library.connectAsync(handle, host, Int32(port), Int32(keepaliveSeconds))
    }

    /// Starts connecting again to the same broker (`mosquitto_reconnect_async`), keeping the
    /// unacknowledged messages to send again after the CONNACK.
    func reconnectAsync() -> Int32 { library.reconnectAsync(handle) }

    /// Sends DISCONNECT (queued: the next `loopWrite` writes it) so that the will is not published
    /// (`mosquitto_disconnect`).
    func disconnect() -> Int32 { library.disconnect(handle) }

    /// The socket now, or -1 when there is none (`mosquitto_socket`): it changes at each (re)connect.
    var socket: Int32 { library.socket(handle) }

    /// Whether bytes wait to be written (`mosquitto_want_write`): then poll for writing too.
    var wantsWrite: Bool { library.wantWrite(handle) }

    /// Reads what has arrived and handles it (`mosquitto_loop_read`); also advances a TLS handshake.
    func loopRead() -> Int32 { library.loopRead(handle, 1) }

    /// Writes what waits, as far as the socket takes it (`mosquitto_loop_write`).
    func loopWrite() -> Int32 { library.loopWrite(handle, 1) }

    /// Keepalive: sends PINGREQ when due, drops a connection whose broker stopped answering
    /// (`mosquitto_loop_misc`).
    func loopMisc() -> Int32 { library.loopMisc(handle) }

    // MARK: Messages

    /// Hands libmosquitto one message (`mosquitto_publish`); returns the code and its message id.
    /// With QoS 1 or 2 it keeps the message until acknowledged, even when this returns
    /// `MOSQ_ERR_NO_CONN` (the connection was just lost): it is sent again after reconnecting.
    func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool) -> (code: Int32, mid: Int32) {
        var mid: Int32 = 0
        let code = payload.withUnsafeBytes { bytes in
            library.publish(handle, &mid, topic, Int32(bytes.count), bytes.baseAddress, qos, retain)
        }
        return (code, mid)
    }

    /// Subscribes to `topic`, a filter (`mosquitto_subscribe`); returns the code and the
    /// subscription's message id (its SUBACK reports it: `Event.subscribed`).
    func subscribe(topic: String, qos: Int32) -> (code: Int32, mid: Int32) {
        var mid: Int32 = 0
        let code = library.subscribe(handle, &mid, topic, qos)
        return (code, mid)
    }

    /// Ends the subscription to the filter `topic` (`mosquitto_unsubscribe`).
    func unsubscribe(topic: String) -> Int32 {
        library.unsubscribe(handle, nil, topic)
    }

    /// libmosquitto's version, e.g. "2.0.11" (`mosquitto_lib_version`), or why it cannot be opened.
    static var libraryVersion: String {
        guard let library = try? MosquittoLibrary.loaded() else { return "not installed" }
        var major: Int32 = 0, minor: Int32 = 0, revision: Int32 = 0
        _ = library.libVersion(&major, &minor, &revision)
        return "\(major).\(minor).\(revision)"
    }
}

extension Int32 {
    /// `MOSQ_ERR_SUCCESS`.
    static let mosquittoSuccess = Int32(MOSQ_ERR_SUCCESS.rawValue)
    /// `MOSQ_ERR_NO_CONN`.
    static let mosquittoNoConnection = Int32(MOSQ_ERR_NO_CONN.rawValue)
}
