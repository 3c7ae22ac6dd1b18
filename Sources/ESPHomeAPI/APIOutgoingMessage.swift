import SwiftProtobuf

/// A message a device sends, with its type on the wire.
package protocol APIOutgoingMessage: SwiftProtobuf.Message {
    static var messageType: APIMessageType { get }
}

extension APIOutgoingMessage {
    /// The message as protocol buffers, the payload of its frame. Empty (which a client reads as the
    /// message with every field at its default) only if swift-protobuf refused it, which it does only
    /// for proto2's missing required fields: this file's messages have none.
    package var payload: [UInt8] {
        (try? serializedBytes()) ?? []
    }
}

extension APIHelloResponse: APIOutgoingMessage { package static var messageType: APIMessageType { .helloResponse } }
extension APIAuthenticationResponse: APIOutgoingMessage { package static var messageType: APIMessageType { .authenticationResponse } }
extension APIDisconnectRequest: APIOutgoingMessage { package static var messageType: APIMessageType { .disconnectRequest } }
extension APIDisconnectResponse: APIOutgoingMessage { package static var messageType: APIMessageType { .disconnectResponse } }
extension APIPingRequest: APIOutgoingMessage { package static var messageType: APIMessageType { .pingRequest } }
extension APIPingResponse: APIOutgoingMessage { package static var messageType: APIMessageType { .pingResponse } }
extension APIDeviceInfoResponse: APIOutgoingMessage { package static var messageType: APIMessageType { .deviceInfoResponse } }
extension APIListEntitiesBinarySensorResponse: APIOutgoingMessage {
    package static var messageType: APIMessageType { .listEntitiesBinarySensorResponse }
}
extension APIListEntitiesSensorResponse: APIOutgoingMessage { package static var messageType: APIMessageType { .listEntitiesSensorResponse } }
extension APIListEntitiesTextSensorResponse: APIOutgoingMessage {
    package static var messageType: APIMessageType { .listEntitiesTextSensorResponse }
}
extension APIListEntitiesEventResponse: APIOutgoingMessage { package static var messageType: APIMessageType { .listEntitiesEventResponse } }
extension APIListEntitiesDoneResponse: APIOutgoingMessage { package static var messageType: APIMessageType { .listEntitiesDoneResponse } }
extension APIBinarySensorStateResponse: APIOutgoingMessage { package static var messageType: APIMessageType { .binarySensorStateResponse } }
extension APISensorStateResponse: APIOutgoingMessage { package static var messageType: APIMessageType { .sensorStateResponse } }
extension APITextSensorStateResponse: APIOutgoingMessage { package static var messageType: APIMessageType { .textSensorStateResponse } }
extension APIEventResponse: APIOutgoingMessage { package static var messageType: APIMessageType { .eventResponse } }

/// One message, either way: its type (`APIMessageType`'s raw value) and its payload, encoded.
public struct APIMessage: Sendable, Hashable {
    public var type: UInt16
    public var payload: [UInt8]

    public init(type: UInt16, payload: [UInt8]) {
        self.type = type
        self.payload = payload
    }

    package init(_ message: some APIOutgoingMessage) {
        self.init(type: Swift.type(of: message).messageType.rawValue, payload: message.payload)
    }
}
