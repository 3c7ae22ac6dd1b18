/// The type of a message of ESPHome's native API, as its frames carry it: the message's
/// `option (id)` in ESPHome's `api.proto`. Only the messages a device of ours sends or acts on
/// (Messages/*.proto); a client's message of another type is skipped.
package enum APIMessageType: UInt16, Sendable, CaseIterable {
    case helloRequest = 1
    case helloResponse = 2
    case authenticationRequest = 3
    case authenticationResponse = 4
    case disconnectRequest = 5
    case disconnectResponse = 6
    case pingRequest = 7
    case pingResponse = 8
    case deviceInfoRequest = 9
    case deviceInfoResponse = 10
    case listEntitiesRequest = 11
    case listEntitiesBinarySensorResponse = 12
    case listEntitiesSensorResponse = 16
    case listEntitiesTextSensorResponse = 18
    case listEntitiesDoneResponse = 19
    case subscribeStatesRequest = 20
    case binarySensorStateResponse = 21
    case sensorStateResponse = 25
    case textSensorStateResponse = 27
    case subscribeLogsRequest = 28
    case subscribeHomeAssistantServicesRequest = 34
    case subscribeHomeAssistantStatesRequest = 38
    case listEntitiesEventResponse = 107
    case eventResponse = 108
}
