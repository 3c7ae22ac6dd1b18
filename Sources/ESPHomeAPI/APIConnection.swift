/// One client's conversation with the device, at the level of messages (whatever its framing): what
/// each message the client sends makes the device do, and when the device gives up on a client.
/// Pure: no I/O and no clock; times are the run's, in nanoseconds, given with each call.
///
/// Home Assistant's order (aioesphomeapi): hello (and, before 1.14, a password), device info, the
/// entities' list, the states' subscription, then Home Assistant's own subscriptions; it pings after
/// 20 s without a message and gives up after 90 s. The device answers pings and never sends its own:
/// a connected client costs no wakeup while nothing happens. A client silent for `silenceLimitNs`
/// is gone (its machine went away without closing), and one that has not said hello within
/// `helloLimitNs` is not a client of the API.
package struct APIConnection: Sendable {
    /// Where the conversation is.
    package enum Phase: Sendable, Equatable {
        /// Connected; the first message must be a hello.
        case awaitingHello
        /// The client said hello: every request is answered.
        case open
        /// The connection is to be closed once what was sent has gone.
        case closed
    }

    /// What the device does for a message (`receive`) or a passed deadline (`deadlinePassed`).
    package enum Step: Sendable, Equatable {
        /// Send this message.
        case send(APIMessage)
        /// Send every entity's description, then `ListEntitiesDoneResponse`.
        case listEntities
        /// Send every entity's state now (the subscription began): its changes follow as they happen.
        case sendStates
        /// Close the connection, after what is already queued (`reason`, for the log).
        case close(APICloseReason)
    }

    /// The longest a client may take to say hello, in nanoseconds: 60 s, ESPHome's.
    package static let helloLimitNs: Int64 = 60_000_000_000
    /// The longest a client may be silent once open, in nanoseconds: 150 s, ESPHome's (its clients
    /// ping after 20 s of silence, and give up after 90 s).
    package static let silenceLimitNs: Int64 = 150_000_000_000

    package private(set) var phase: Phase = .awaitingHello
    /// What the client called itself in its hello (`Home Assistant 2026.11.0`), for the log.
    package private(set) var clientInfo: String?
    /// Whether the client subscribed to the states: every change and event goes to it.
    package private(set) var subscribesStates = false
    private let identity: APIDeviceIdentity
    private var lastHeardNs: Int64

    /// A connection of `identity`'s, opened at `openedAtNs`.
    package init(identity: APIDeviceIdentity, openedAtNs: Int64) {
        self.identity = identity
        self.lastHeardNs = openedAtNs
    }

    /// When the device gives up on the client if nothing comes before, in the run's nanoseconds;
    /// nil once closed.
    package var deadlineNs: Int64? {
        switch phase {
        case .awaitingHello: lastHeardNs + Self.helloLimitNs
        case .open: lastHeardNs + Self.silenceLimitNs
        case .closed: nil
        }
    }

    /// What `message`, which came at `nowNs`, makes the device do.
    package mutating func receive(_ message: APIClientMessage, atNs nowNs: Int64) -> [Step] {
        guard phase != .closed else { return [] }
        if phase == .open { lastHeardNs = nowNs }
        switch (phase, message) {
        case (.awaitingHello, .hello(let clientInfo, let major, _)):
            lastHeardNs = nowNs
            self.clientInfo = clientInfo
            // aioesphomeapi refuses a device of a major version above 2; ESPHome, a client of another
            // major version than its own.
            guard major == APIDeviceIdentity.apiVersion.major else { return close(.unsupportedVersion(major: major)) }
            phase = .open
            return [.send(APIMessage(identity.helloResponse))]
        case (.awaitingHello, _):
            return close(.noHello)
        case (_, .hello):
            return []  // a second hello: answered by none, as ESPHome does
        case (_, .authentication):
            var answer = APIAuthenticationResponse()
            answer.invalidPassword = false
            return [.send(APIMessage(answer))]
        case (_, .disconnect):
            phase = .closed
            return [.send(APIMessage(APIDisconnectResponse())), .close(.clientDisconnected)]
        case (_, .disconnectAnswered):
            return close(.deviceDisconnected)
        case (_, .ping):
            return [.send(APIMessage(APIPingResponse()))]
        case (_, .deviceInfo):
            return [.send(APIMessage(identity.deviceInfo))]
        case (_, .listEntities):
            return [.listEntities]
        case (_, .subscribeStates):
            subscribesStates = true
            return [.sendStates]
        case (_, .pong), (_, .subscribeLogs), (_, .subscribeHomeAssistant), (_, .other):
            return []
        }
    }

    /// The device ends the conversation (it stops, or its entities changed and the client is to list
    /// them again): a `DisconnectRequest`, then the client's answer closes the connection.
    package mutating func disconnect() -> [Step] {
        guard phase == .open else { return close(.deviceDisconnected) }
        return [.send(APIMessage(APIDisconnectRequest()))]
    }

    /// What the device does at `nowNs` when `deadlineNs` has passed: closes the connection.
    package mutating func deadlinePassed(atNs nowNs: Int64) -> [Step] {
        guard let deadlineNs, nowNs >= deadlineNs else { return [] }
        return close(phase == .awaitingHello ? .noHello : .silent)
    }

    private mutating func close(_ reason: APICloseReason) -> [Step] {
        phase = .closed
        subscribesStates = false
        return [.close(reason)]
    }
}

/// Why the device closed a connection.
package enum APICloseReason: Sendable, Equatable {
    /// The client asked to disconnect.
    case clientDisconnected
    /// The device asked (`APIConnection.disconnect()`), and the client answered or was not yet open.
    case deviceDisconnected
    /// The client's first message was not a hello, or none came within `APIConnection.helloLimitNs`.
    case noHello
    /// The client said nothing for `APIConnection.silenceLimitNs`.
    case silent
    /// The client speaks API version `major`, which the device does not.
    case unsupportedVersion(major: UInt32)

    /// What the log says.
    package var message: String {
        switch self {
        case .clientDisconnected: "the client disconnected"
        case .deviceDisconnected: "disconnected"
        case .noHello: "the client did not begin with a hello within 60 s: not a client of ESPHome's native API"
        case .silent: "the client was silent for 150 s (its machine or network went away): closed; Home Assistant connects again by itself"
        case .unsupportedVersion(let major): "the client speaks version \(major) of ESPHome's native API, this device 1: update the client or gpio-debounce"
        }
    }
}
