import DebounceCore
import ESPHomeAPI
import InputModel
import Inputs
import Pipeline
import Testing

@testable import ESPHomeDevice

/// The entities a device shows, from the inputs' descriptions: the same set as MQTT's discovery, with
/// ids that stay while the names do, and each update as the state or event ESPHome sends.
@Suite struct APIEntityTableTests {
    static let bell = ButtonPresenter(name: "Bell", input: 0, chip: "gpiochip0", line: 17, lineIndex: 0, gestures: [.press, .release, .click(1), .click(2)])
    static let door = SensorPresenter(name: "front door", input: 1, chip: "gpiochip0", line: 23, lineIndex: 1, deviceClass: "door")
    static let meter = CounterPresenter(
        name: "energy", input: 2, chip: "gpiochip0", line: 24, lineIndex: 2, perUnit: 1000, unit: "kWh", deviceClass: "energy", startTotal: 5, publishIntervalNs: 1,
        rateDeviceClass: "power")
    static let volume = EncoderPresenter(name: "volume", input: 3, chip: "gpiochip0", lines: [5, 6], lineIndices: [3, 4], startPosition: 0)
    static let inputs: [any InputPresenter] = [bell, door, meter, volume]

    static func table() -> APIEntityTable { APIEntityTable(inputs.map(\.description)) }

    @Test func eachInputsEntitiesAreListedWithStableIDs() {
        let table = Self.table()
        #expect(
            table.entities.map(\.objectID) == [
                "bell_event", "bell_state", "front_door_state", "energy_total", "energy_rate", "volume_event", "volume_position",
                "bell_health", "front_door_health", "energy_health", "volume_health",
            ])
        #expect(table.entities.map(\.kind.platform) == ["event", "binary_sensor", "binary_sensor", "sensor", "sensor", "event", "sensor"] + Array(repeating: "sensor", count: 4))
        #expect(table.entities.map(\.key) == table.entities.map { APIEntityKey.key(ofObjectID: $0.objectID) })
        #expect(table.listing.last == APIMessage(type: 19, payload: []))
        var total = APIListEntitiesSensorResponse()
        (total.objectID, total.key, total.name, total.unitOfMeasurement, total.accuracyDecimals) = ("energy_total", APIEntityKey.key(ofObjectID: "energy_total"), "energy", "kWh", 3)
        (total.deviceClass, total.stateClass) = ("energy", .stateClassTotalIncreasing)
        #expect(table.listing[3] == APIMessage(total))
        var event = APIListEntitiesEventResponse()
        (event.objectID, event.key, event.name, event.deviceClass) = ("bell_event", APIEntityKey.key(ofObjectID: "bell_event"), "Bell", "button")
        event.eventTypes = ["press", "release", "click", "double_click"]
        #expect(table.listing[0] == APIMessage(event))
        var health = APIListEntitiesSensorResponse()
        (health.objectID, health.key, health.name, health.unitOfMeasurement, health.icon) = ("bell_health", APIEntityKey.key(ofObjectID: "bell_health"), "Bell health", "edges", "mdi:pulse")
        (health.stateClass, health.entityCategory) = (.stateClassTotalIncreasing, .diagnostic)
        #expect(table.listing[7] == APIMessage(health))
    }

    @Test func anInputsHealthIsItsEdgesAndStaysWhileItsChipIsAway() {
        var table = Self.table()
        let edges = InputUpdate(channel: "health", payload: [], delivery: .latestState, numbers: ["edges": 12])
        var health = APISensorStateResponse()
        (health.key, health.state) = (APIEntityKey.key(ofObjectID: "front_door_health"), 12)
        #expect(table.apply(edges, of: 1) == [APIMessage(health)])
        var missingDoor = APIBinarySensorStateResponse()
        (missingDoor.key, missingDoor.missingState) = (APIEntityKey.key(ofObjectID: "front_door_state"), true)
        #expect(table.setAvailable(false, input: 1) == [APIMessage(missingDoor)])
        #expect(table.currentStates().contains(APIMessage(health)))
        #expect(table.currentStates().contains(APIMessage(missingDoor)))
    }

    @Test func namesThatSpellOneIDGetASuffix() {
        let a = SensorPresenter(name: "back door", input: 0, chip: "c", line: 1, lineIndex: 0, deviceClass: nil)
        let b = SensorPresenter(name: "back_door", input: 1, chip: "c", line: 2, lineIndex: 1, deviceClass: nil)
        #expect(APIEntityTable([a.description, b.description]).entities.map(\.objectID) == ["back_door_state", "back_door_state_2", "back_door_health", "back_door_health_2"])
    }

    @Test func statesAreKeptSentOnChangeAndMissingUntilTheFirst() {
        var table = Self.table()
        let doorKey = APIEntityKey.key(ofObjectID: "front_door_state")
        var missing = APIBinarySensorStateResponse()
        (missing.key, missing.missingState) = (doorKey, true)
        #expect(table.currentStates().contains(APIMessage(missing)))
        let open = Self.door.updates(for: .contact(.line(1), ContactEvent(isOn: true, timeNs: 5, onsetNs: 4, previousDurationNs: 1)))
        var on = APIBinarySensorStateResponse()
        (on.key, on.state) = (doorKey, true)
        #expect(open.flatMap { table.apply($0, of: 1) } == [APIMessage(on)], "its event has no entity: only the state")
        #expect(open.flatMap { table.apply($0, of: 1) } == [], "no change")
        #expect(table.currentStates().contains(APIMessage(on)))
        // Its chip goes: the state is missing; it comes back: the state again.
        #expect(table.setAvailable(false, input: 1) == [APIMessage(missing)])
        #expect(table.currentStates().contains(APIMessage(missing)))
        #expect(table.setAvailable(true, input: 1) == [APIMessage(on)])
    }

    /// With no client, an update is only noted (no encoding, nothing to send): the state a client gets
    /// when it subscribes is the latest, and an event while nobody listened is gone.
    @Test func withNoClientUpdatesAreNotedAndTheLatestIsTheState() {
        var table = Self.table()
        let click = Self.bell.updates(for: .event(OutputSource(input: 0, line: 0), ButtonEvent(kind: .press, timeNs: 9, onsetNs: 1)))
        #expect(click.flatMap { table.apply($0, of: 0, sending: false) } == [])
        let pulse = Self.meter.updates(for: .count(.line(2), PulseCount(total: 7, timeNs: 5, onsetNs: 4, intervalNs: 1_000_000_000, rate: 3.6)))
        #expect(pulse.flatMap { table.apply($0, of: 2, sending: false) } == [])
        var pressed = APIBinarySensorStateResponse()
        (pressed.key, pressed.state) = (APIEntityKey.key(ofObjectID: "bell_state"), true)
        var total = APISensorStateResponse()
        (total.key, total.state) = (APIEntityKey.key(ofObjectID: "energy_total"), 0.007)
        let states = table.currentStates()
        #expect(states.contains(APIMessage(pressed)) && states.contains(APIMessage(total)))
        #expect(!states.contains { $0.type == 108 }, "no event is kept")
        // The same state again, with a client: nothing to send.
        #expect(click.flatMap { table.apply($0, of: 0) } .filter { $0.type == 21 } == [])
    }

    @Test func eventsAndNumbersBecomeESPHomesMessages() {
        var table = Self.table()
        let click = Self.bell.updates(for: .event(OutputSource(input: 0, line: 0), ButtonEvent(kind: .click, timeNs: 9, onsetNs: 1, count: 2)))
        var fired = APIEventResponse()
        (fired.key, fired.eventType) = (APIEntityKey.key(ofObjectID: "bell_event"), "double_click")
        #expect(click.flatMap { table.apply($0, of: 0) } == [APIMessage(fired)])
        let pulse = Self.meter.updates(for: .count(.line(2), PulseCount(total: 1234, timeNs: 5, onsetNs: 4, intervalNs: 1_000_000_000, rate: 3.6)))
        let states = pulse.flatMap { table.apply($0, of: 2) }
        var total = APISensorStateResponse()
        (total.key, total.state) = (APIEntityKey.key(ofObjectID: "energy_total"), 1.234)
        var rate = APISensorStateResponse()
        (rate.key, rate.state) = (APIEntityKey.key(ofObjectID: "energy_rate"), 3.6)
        #expect(states == [APIMessage(total), APIMessage(rate)])
        let detent = Self.volume.updates(for: .rotation(OutputSource(input: 3, line: 3), EncoderEvent(direction: .counterClockwise, position: -1, timeNs: 1, onsetNs: 1)))
        var rotated = APIEventResponse()
        (rotated.key, rotated.eventType) = (APIEntityKey.key(ofObjectID: "volume_event"), "rotate_left")
        var position = APISensorStateResponse()
        (position.key, position.state) = (APIEntityKey.key(ofObjectID: "volume_position"), -1)
        #expect(detent.flatMap { table.apply($0, of: 3) } == [APIMessage(rotated), APIMessage(position)])
    }

    @Test func aReloadKeepsTheStatesOfTheEntitiesItKeeps() {
        var before = Self.table()
        _ = Self.door.start(linesPressed: [nil, true]).flatMap { before.apply($0, of: 1) }
        var after = APIEntityTable([Self.door.description])
        after.keepStates(of: before)
        var on = APIBinarySensorStateResponse()
        (on.key, on.state) = (APIEntityKey.key(ofObjectID: "front_door_state"), true)
        var health = APISensorStateResponse()
        (health.key, health.missingState) = (APIEntityKey.key(ofObjectID: "front_door_health"), true)
        #expect(after.currentStates() == [APIMessage(on), APIMessage(health)])
        #expect(!after.listsTheSame(as: before))
        #expect(Self.table().listsTheSame(as: before))
    }
}
