import SwiftProtobuf

/// What a client's message asks of the device, decoded from its frame (`decode(type:payload:)`).
public enum APIClientMessage: Sendable, Equatable {
    /// The first message: the client's name (`client_info`, e.g. `Home Assistant 2026.11.0`) and API version.
    case hello(clientInfo: String, major: UInt32, minor: UInt32)
    /// A password (API versions before 1.14): the device takes any, as it has none.
    case authentication
    /// The client will close the connection: answer, then close.
    case disconnect
    /// The client's answer to the device's own `DisconnectRequest`.
    case disconnectAnswered
    case ping
    /// The client's answer to a ping of the device's.
    case pong
    case deviceInfo
    case listEntities
    case subscribeStates
    /// The device's log (it has none to send: its log is the journal's).
    case subscribeLogs
    /// Home Assistant's states and service calls (a device of ours asks for none).
    case subscribeHomeAssistant
    /// A message of a type the device does not act on (`type`, its id), skipped as ESPHome skips it.
    case other(type: UInt16)

    /// The message `payload` of `type` is. Throws `APIMessageError.malformed` for a payload that is not
    /// that message's protocol buffers.
    public static func decode(type: UInt16, payload: [UInt8]) throws(APIMessageError) -> APIClientMessage {
        guard let known = APIMessageType(rawValue: type) else { return .other(type: type) }
        do {
            switch known {
            case .helloRequest:
                let hello = try APIHelloRequest(serializedBytes: payload)
                return .hello(clientInfo: hello.clientInfo, major: hello.apiVersionMajor, minor: hello.apiVersionMinor)
            case .authenticationRequest:
                _ = try APIAuthenticationRequest(serializedBytes: payload)
                return .authentication
            case .disconnectRequest:
                _ = try APIDisconnectRequest(serializedBytes: payload)
                return .disconnect
            case .disconnectResponse: return .disconnectAnswered
            case .pingRequest: return .ping
            case .pingResponse: return .pong
            case .deviceInfoRequest: return .deviceInfo
            case .listEntitiesRequest: return .listEntities
            case .subscribeStatesRequest: return .subscribeStates
            case .subscribeLogsRequest:
                _ = try APISubscribeLogsRequest(serializedBytes: payload)
                return .subscribeLogs
            case .subscribeHomeAssistantServicesRequest, .subscribeHomeAssistantStatesRequest: return .subscribeHomeAssistant
            default: return .other(type: type)
            }
        } catch {
            throw .malformed(type: type)
        }
    }
}

/// A client's message that cannot be read.
public enum APIMessageError: Error, Equatable, Sendable {
    /// The payload of a message of type `type` is not that message's protocol buffers.
    case malformed(type: UInt16)

    /// What the log says, with what to do.
    public var message: String {
        switch self {
        case .malformed(let type):
            "a message of type \(type) that is not what ESPHome's api.proto defines for it: the client was closed; "
                + "if it is Home Assistant or aioesphomeapi, report it with the client's version"
        }
    }
}
