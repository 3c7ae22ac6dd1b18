import ESPHomeAPI
import InputModel

/// One entity of the device as ESPHome's API lists it, made from one of an input's entities
/// (`EntityDescription`): its kind, its object id and key, the message that lists it, and how an
/// update of the input's channel becomes its state or event.
struct APIEntity: Sendable {
    /// What ESPHome calls its kind, and what the entity reads of an update.
    enum Kind: Sendable, Equatable {
        /// A binary sensor: on when the payload is `on`, off when it is `off` (`pressed`, `released`).
        case binarySensor(on: [UInt8], off: [UInt8])
        /// A sensor: the payload's number, or the update's number of `field`.
        case sensor(field: String?)
        /// A text sensor: the payload (one of a choice's words).
        case textSensor
        /// An event: the update's event type, if it is one of `types`.
        case event(types: Set<String>)

        /// ESPHome's name of the kind, in Home Assistant's unique ids (`binary_sensor`).
        var platform: String {
            switch self {
            case .binarySensor: "binary_sensor"
            case .sensor: "sensor"
            case .textSensor: "text_sensor"
            case .event: "event"
            }
        }
    }

    var kind: Kind
    /// The input (`InputDescription.input`) and channel its values come on.
    var input: Int
    var channel: String
    /// `<input>_<entity key>` in ESPHome's spelling (`front_door_state`): stable while the input's
    /// name is; unique among the device's entities of its kind.
    var objectID: String
    /// The FNV-1 hash of the object id (`APIEntityKey`), unique among the device's entities of its kind.
    var key: UInt32
    /// The message that lists it (`ListEntities…Response`).
    var listing: APIMessage
    /// Whether its state is missing while its input's chip is away (not an input's health, which
    /// tells what was counted, chip or not).
    var followsChip = true

    /// The channel an input's health comes on (`ESPHomeAPISink.inspect`), as `edges` numbers.
    static let healthChannel = "health"

    /// Input `input`'s health as a diagnostic sensor, as MQTT's discovery makes it: the edges received
    /// since the daemon started (`total_increasing`: a restart's return to 0 is a reset), under the
    /// device's Diagnostic section in Home Assistant.
    static func health(of input: InputDescription, objectID: String, key: UInt32) -> APIEntity {
        let description = EntityDescription(
            key: "health", label: "health", channel: healthChannel, value: .number(stateClass: .totalIncreasing, unit: "edges", field: "edges", attributes: false),
            icon: "mdi:pulse")
        var entity = APIEntity(description, of: input, objectID: objectID, key: key)
        var message = APIListEntitiesSensorResponse()
        (message.objectID, message.key, message.name) = (objectID, key, "\(input.name) health")
        (message.unitOfMeasurement, message.stateClass, message.icon, message.entityCategory) = ("edges", .stateClassTotalIncreasing, "mdi:pulse", .diagnostic)
        entity.listing = APIMessage(message)
        entity.followsChip = false
        return entity
    }

    /// The entity of `entity`, of `input`, as `objectID` and `key`.
    init(_ entity: EntityDescription, of input: InputDescription, objectID: String, key: UInt32) {
        self.input = input.input
        self.channel = entity.channel
        self.objectID = objectID
        self.key = key
        let name = entity.label.map { "\(input.name) \($0)" } ?? input.name
        switch entity.value {
        case .binary(let on, let off):
            kind = .binarySensor(on: Array(on.utf8), off: Array(off.utf8))
            var message = APIListEntitiesBinarySensorResponse()
            (message.objectID, message.key, message.name) = (objectID, key, name)
            message.deviceClass = entity.deviceClass ?? ""
            message.icon = entity.icon ?? ""
            listing = APIMessage(message)
        case .number(let stateClass, let unit, let field, _):
            kind = .sensor(field: field)
            var message = APIListEntitiesSensorResponse()
            (message.objectID, message.key, message.name) = (objectID, key, name)
            message.unitOfMeasurement = unit ?? ""
            message.accuracyDecimals = Int32(entity.decimals ?? 0)
            message.deviceClass = entity.deviceClass ?? ""
            message.stateClass = stateClass == .totalIncreasing ? .stateClassTotalIncreasing : .stateClassMeasurement
            message.icon = entity.icon ?? ""
            listing = APIMessage(message)
        case .choice:
            kind = .textSensor
            var message = APIListEntitiesTextSensorResponse()
            (message.objectID, message.key, message.name) = (objectID, key, name)
            message.icon = entity.icon ?? ""
            listing = APIMessage(message)
        case .events(let types, _, _):
            kind = .event(types: Set(types.map(\.name)))
            var message = APIListEntitiesEventResponse()
            (message.objectID, message.key, message.name) = (objectID, key, name)
            message.eventTypes = types.map(\.name)
            message.deviceClass = entity.deviceClass ?? ""
            message.icon = entity.icon ?? ""
            listing = APIMessage(message)
        }
    }

    /// What `update` of the entity's channel makes the device send: its state, or its event; nil for an
    /// update it does not read (a payload that is not one of its words, an event of another type).
    func message(for update: InputUpdate) -> APIMessage? {
        switch kind {
        case .binarySensor(let on, let off):
            guard update.payload == on || update.payload == off else { return nil }
            var state = APIBinarySensorStateResponse()
            (state.key, state.state) = (key, update.payload == on)
            return APIMessage(state)
        case .sensor(let field):
            let number = field.map { update.numbers[$0] } ?? Double(String(decoding: update.payload, as: UTF8.self))
            guard let number else { return nil }
            var state = APISensorStateResponse()
            (state.key, state.state) = (key, Float(number))
            return APIMessage(state)
        case .textSensor:
            var state = APITextSensorStateResponse()
            (state.key, state.state) = (key, String(decoding: update.payload, as: UTF8.self))
            return APIMessage(state)
        case .event(let types):
            guard update.delivery == .event, let type = update.eventType, types.contains(type) else { return nil }
            var event = APIEventResponse()
            (event.key, event.eventType) = (key, type)
            return APIMessage(event)
        }
    }

    /// The state that says the entity has none (`missing_state`: Home Assistant shows it as unknown):
    /// before its first value, and while its input's chip is away. Nil for an event entity.
    var missingState: APIMessage? {
        switch kind {
        case .binarySensor:
            var state = APIBinarySensorStateResponse()
            (state.key, state.missingState) = (key, true)
            return APIMessage(state)
        case .sensor:
            var state = APISensorStateResponse()
            (state.key, state.missingState) = (key, true)
            return APIMessage(state)
        case .textSensor:
            var state = APITextSensorStateResponse()
            (state.key, state.missingState) = (key, true)
            return APIMessage(state)
        case .event:
            return nil
        }
    }
}
