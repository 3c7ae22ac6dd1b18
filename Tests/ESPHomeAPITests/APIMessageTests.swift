import Testing

@testable import ESPHomeAPI

/// The messages as aioesphomeapi reads and writes them: every expected payload below was serialised
/// by aioesphomeapi 46.23.0's own message classes (its `api_pb2`, made from ESPHome's api.proto).
@Suite struct APIMessageTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    static let porch = APIDeviceIdentity(
        name: "porch-pi", friendlyName: "Porch", macAddress: "DC:A6:32:01:02:03", version: "0.5.0", model: "Raspberry Pi 4 Model B Rev 1.4",
        manufacturer: "Raspberry Pi")

    @Test func theHelloResponseSaysVersion1_10AndTheDevicesName() {
        let hello = APIMessage(Self.porch.helloResponse)
        #expect(hello.type == 2)
        #expect(hello.payload == Self.bytes("0801100a1a136770696f2d6465626f756e636520302e352e302208706f7263682d7069"))
    }

    /// No project: Home Assistant would show a project's name as the device's maker and model, where
    /// the machine's are wanted.
    @Test func theDeviceInfoIsESPHomesWithTheMachinesMakerAndModel() {
        let info = APIMessage(Self.porch.deviceInfo)
        #expect(info.type == 10)
        #expect(
            info.payload
                == Self.bytes(
                    "1208706f7263682d70691a1144433a41363a33323a30313a30323a30332205302e352e30321e5261737062657272792050692034204d6f64656c20422052657620312e34"
                        + "620c5261737062657272792050696a05506f726368"))
        #expect(Self.porch.compactMACAddress == "dca632010203")
    }

    @Test func entitiesAndStatesEncodeAsESPHomes() {
        var event = APIListEntitiesEventResponse()
        (event.objectID, event.key, event.name, event.deviceClass, event.eventTypes) = ("doorbell", 1234, "doorbell", "button", ["press", "release"])
        #expect(APIMessage(event) == APIMessage(type: 107, payload: Self.bytes("0a08646f6f7262656c6c15d20400001a08646f6f7262656c6c4206627574746f6e4a0570726573734a0772656c65617365")))
        var sensor = APIListEntitiesSensorResponse()
        (sensor.objectID, sensor.key, sensor.name, sensor.unitOfMeasurement, sensor.accuracyDecimals) = ("energy", 7, "energy", "kWh", 3)
        (sensor.deviceClass, sensor.stateClass) = ("energy", .stateClassTotalIncreasing)
        #expect(APIMessage(sensor) == APIMessage(type: 16, payload: Self.bytes("0a06656e6572677915070000001a06656e6572677932036b576838034a06656e657267795002")))
        var value = APISensorStateResponse()
        (value.key, value.state) = (7, 12.5)
        #expect(APIMessage(value) == APIMessage(type: 25, payload: Self.bytes("0d070000001500004841")))
        var binary = APIBinarySensorStateResponse()
        (binary.key, binary.state) = (3, true)
        #expect(APIMessage(binary) == APIMessage(type: 21, payload: Self.bytes("0d030000001001")))
        var fired = APIEventResponse()
        (fired.key, fired.eventType) = (1234, "double_click")
        #expect(APIMessage(fired) == APIMessage(type: 108, payload: Self.bytes("0dd2040000120c646f75626c655f636c69636b")))
    }

    @Test func aClientsMessagesAreDecoded() throws {
        let hello = Self.bytes("0a18486f6d6520417373697374616e7420323032362e31312e301001180c")
        #expect(try APIClientMessage.decode(type: 1, payload: hello) == .hello(clientInfo: "Home Assistant 2026.11.0", major: 1, minor: 12))
        #expect(try APIClientMessage.decode(type: 7, payload: []) == .ping)
        #expect(try APIClientMessage.decode(type: 20, payload: []) == .subscribeStates)
        // A type the device does not act on (a Bluetooth proxy's subscription), skipped.
        #expect(try APIClientMessage.decode(type: 66, payload: [0x08, 0x01]) == .other(type: 66))
        // A field of the hello's it does not know (4: outgoing_connection_target) is skipped too.
        #expect(try APIClientMessage.decode(type: 1, payload: hello + [0x20, 0x01]) == .hello(clientInfo: "Home Assistant 2026.11.0", major: 1, minor: 12))
    }

    @Test func aHelloThatIsNotProtocolBuffersIsRefused() {
        // A string field (1) of 200 bytes, of which 3 came.
        #expect(throws: APIMessageError.malformed(type: 1)) { try APIClientMessage.decode(type: 1, payload: [0x0a, 0xc8, 0x01, 0x61, 0x62, 0x63]) }
    }

    /// Keys as ESPHome's `fnv1_hash` makes them (values from its C++ and aioesphomeapi's tests).
    @Test func keysAreFNV1OfTheObjectID() {
        #expect(APIEntityKey.key(ofObjectID: "") == 2_166_136_261)
        #expect(APIEntityKey.key(ofObjectID: "temperature") == 899_752_953)
        #expect(APIEntityKey.key(ofObjectID: "motion") == 2_012_559_111)
        #expect(APIEntityKey.key(ofObjectID: "status") == 939_730_931)
        #expect(APIEntityKey.key(ofObjectID: "button_press") == 2_698_747_613)
    }

    @Test func objectIDsAreSnakeCaseAndSanitised() {
        #expect(APIEntityKey.objectID(of: "Front Door") == "front_door")
        #expect(APIEntityKey.objectID(of: "energy_rate") == "energy_rate")
        #expect(APIEntityKey.objectID(of: "kWh-meter 2") == "kwh-meter_2")
        #expect(APIEntityKey.objectID(of: "Tür/ö") == "t__r___")
    }
}
