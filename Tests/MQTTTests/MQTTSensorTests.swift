import DebounceCore
import EventOutput
import InputModel
import Inputs
@testable import MQTT
import Settings
import Testing

/// Contacts and pulse counters over MQTT without a broker: topics, the counter's state payload, the
/// state throttle, and Home Assistant's discovery of their entities.
@Suite struct MQTTSensorTests {
    static let settings = MQTTSettings(host: "h", clientID: "hall-pi", base: "home/hall", hostname: "pi")
    static let door = SensorPresenter(name: "front door", chip: "gpiochip0", line: 23, lineIndex: 1, deviceClass: "door")
    static let plain = SensorPresenter(name: "pir", chip: "gpiochip0", line: 5, lineIndex: 2, deviceClass: nil)
    static let energy = CounterPresenter(
        name: "energy", chip: "gpiochip0", line: 23, lineIndex: 3, perUnit: 1000, unit: "kWh", deviceClass: "energy", startTotal: 12_345,
        publishIntervalNs: 1_000_000_000, rateUnit: "W", rateDeviceClass: "power")
    static let pulses = CounterPresenter(
        name: "pulses", chip: "gpiochip0", line: 24, lineIndex: 4, perUnit: 1, unit: nil, deviceClass: nil, startTotal: 0, publishIntervalNs: 0)
    static let device = #""device":{"identifiers":["gpio-debounce_hall-pi"],"name":"hall-pi","manufacturer":"gpio-debounce","model":"GPIO inputs","sw_version":"0.4.0"}"#
    /// What ends an entity that follows the daemon's availability alone (a health sensor).
    static let daemonTail = #""qos":1,"availability_topic":"home/hall/availability","# + device + "}"
    /// What ends an input's entity: available while both the daemon and input `name` are.
    static func tail(_ name: String) -> String {
        #""qos":1,"availability":[{"topic":"home/hall/availability"},{"topic":"home/hall/"# + name + #"/availability"}],"#
            + #""availability_mode":"all","# + device + "}"
    }

    @Test func topicsAreUnderTheBaseAndTheName() {
        #expect(Self.settings.topic(input: "front_door", channel: "state") == "home/hall/front_door/state")
        #expect(Self.settings.topic(input: "front_door", channel: "event") == "home/hall/front_door/event")
        #expect(Self.settings.topic(input: "energy", channel: "state") == "home/hall/energy/state")
    }

    @Test func aCountersStateIsItsTotalValueAndRates() {
        let text = { (update: InputUpdate) in String(decoding: update.payload, as: UTF8.self) }
        #expect(text(Self.energy.state(total: 12_345, ratePerMinute: 0, rate: 0)) == #"{"total":12345,"value":12.345,"rate_per_min":0,"rate":0}"#)
        #expect(text(Self.energy.state(total: 2000, ratePerMinute: 61.5, rate: 3690)) == #"{"total":2000,"value":2,"rate_per_min":61.5,"rate":3690}"#)
        #expect(text(Self.pulses.state(total: 7, ratePerMinute: 120, rate: 120)) == #"{"total":7,"value":7,"rate_per_min":120,"rate":120}"#)
        // At a pulse, and once the rate fell with no pulse: what the counter's outputs show.
        let pulse = PulseCount(total: 9, timeNs: 5, onsetNs: 4, intervalNs: 3_600_000_000, rate: 1000)
        #expect(Self.energy.updates(for: .count(.line(3), pulse)).map(text) == [#"{"total":9,"value":0.009,"rate_per_min":16.667,"rate":1000}"#])
        let fall = CounterReading(rate: 400, ratePerMinute: 6.667, timeNs: 9_000_000_000, total: 9)
        #expect(Self.energy.updates(for: .rate(.line(3), fall)).map(text) == [#"{"total":9,"value":0.009,"rate_per_min":6.667,"rate":400}"#])
        #expect(Self.energy.updates(for: .rate(.line(3), fall)).allSatisfy { $0.channel == "state" && $0.delivery == .latestState })
    }

    /// Each counter's rate sensor, beside its total: power in W for energy, volume flow in L/min for
    /// water and in m³/h for gas, pulses/min with no device class; `state_class: measurement`.
    @Test func discoveryAnnouncesEachCountersRateBesideItsTotal() {
        let water = CounterPresenter(
            name: "water", chip: "gpiochip0", line: 25, lineIndex: 5, perUnit: 0.1, unit: "L", deviceClass: "water", startTotal: 0,
            publishIntervalNs: 0, rateUnit: "L/min", rateDeviceClass: "volume_flow_rate")
        let gas = CounterPresenter(
            name: "gas", chip: "gpiochip0", line: 26, lineIndex: 6, perUnit: 100, unit: "m³", deviceClass: "gas", startTotal: 0,
            publishIntervalNs: 0, rateUnit: "m³/h", rateDeviceClass: "volume_flow_rate")
        let discovery = HomeAssistantDiscovery(
            settings: Self.settings, inputs: described([Self.energy, water, gas, Self.pulses]), softwareVersion: "0.4.0")
        let rates = discovery.messages.filter { $0.topic.hasSuffix("_rate/config") }
        #expect(rates.map(\.topic) == [
            "homeassistant/sensor/hall-pi/energy_rate/config", "homeassistant/sensor/hall-pi/water_rate/config",
            "homeassistant/sensor/hall-pi/gas_rate/config", "homeassistant/sensor/hall-pi/pulses_rate/config",
        ])
        #expect(rates.allSatisfy { $0.retain })
        let text = rates.map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(text[0] == #"{"name":"energy power","unique_id":"hall-pi_energy_rate","state_topic":"home/hall/energy/state","#
            + #""value_template":"{{ value_json.rate }}","state_class":"measurement","device_class":"power","unit_of_measurement":"W","# + Self.tail("energy"))
        #expect(text[1] == #"{"name":"water flow","unique_id":"hall-pi_water_rate","state_topic":"home/hall/water/state","#
            + #""value_template":"{{ value_json.rate }}","state_class":"measurement","device_class":"volume_flow_rate","unit_of_measurement":"L/min","#
            + Self.tail("water"))
        #expect(text[2] == #"{"name":"gas flow","unique_id":"hall-pi_gas_rate","state_topic":"home/hall/gas/state","#
            + #""value_template":"{{ value_json.rate }}","state_class":"measurement","device_class":"volume_flow_rate","unit_of_measurement":"m³/h","#
            + Self.tail("gas"))
        #expect(text[3] == #"{"name":"pulses rate","unique_id":"hall-pi_pulses_rate","state_topic":"home/hall/pulses/state","#
            + #""value_template":"{{ value_json.rate }}","state_class":"measurement","unit_of_measurement":"pulses/min","# + Self.tail("pulses"))
    }

    @Test func discoveryAnnouncesABinarySensorPerContactAndATotalSensorPerCounter() {
        let discovery = HomeAssistantDiscovery(
            settings: Self.settings, inputs: described([Self.door, Self.plain, Self.energy, Self.pulses]), softwareVersion: "0.4.0")
        let messages = discovery.messages
        #expect(messages.map(\.topic) == [
            "homeassistant/binary_sensor/hall-pi/front_door/config",
            "homeassistant/binary_sensor/hall-pi/pir/config",
            "homeassistant/sensor/hall-pi/energy/config",
            "homeassistant/sensor/hall-pi/energy_rate/config",
            "homeassistant/sensor/hall-pi/pulses/config",
            "homeassistant/sensor/hall-pi/pulses_rate/config",
            "homeassistant/sensor/hall-pi/front_door_health/config",
            "homeassistant/sensor/hall-pi/pir_health/config",
            "homeassistant/sensor/hall-pi/energy_health/config",
            "homeassistant/sensor/hall-pi/pulses_health/config",
        ])
        #expect(messages.allSatisfy { $0.retain })
        let text = messages.map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(text[0] == #"{"name":"front door","unique_id":"hall-pi_front_door_state","state_topic":"home/hall/front door/state","#
            + #""payload_on":"on","payload_off":"off","device_class":"door","# + Self.tail("front door"))
        // No device class: none announced (Home Assistant shows on/off).
        #expect(text[1] == #"{"name":"pir","unique_id":"hall-pi_pir_state","state_topic":"home/hall/pir/state","#
            + #""payload_on":"on","payload_off":"off","# + Self.tail("pir"))
        #expect(text[2] == #"{"name":"energy","unique_id":"hall-pi_energy_total","state_topic":"home/hall/energy/state","#
            + #""value_template":"{{ value_json.value }}","json_attributes_topic":"home/hall/energy/state","#
            + #""state_class":"total_increasing","device_class":"energy","unit_of_measurement":"kWh","# + Self.tail("energy"))
        // No device class and no unit: neither announced; still total_increasing.
        #expect(text[4] == #"{"name":"pulses","unique_id":"hall-pi_pulses_total","state_topic":"home/hall/pulses/state","#
            + #""value_template":"{{ value_json.value }}","json_attributes_topic":"home/hall/pulses/state","#
            + #""state_class":"total_increasing","# + Self.tail("pulses"))
        #expect(discovery.removal.map(\.topic) == messages.map(\.topic))
        #expect(discovery.removal.allSatisfy { $0.payload.isEmpty && $0.retain })
        var off = Self.settings
        off.discovery = .off
        #expect(HomeAssistantDiscovery(settings: off, inputs: described([Self.door, Self.energy]), softwareVersion: "t").messages.isEmpty)
    }

    /// Contacts and counters come after the buttons' and encoders' entities, then every input's
    /// diagnostic health sensor, all on the same device.
    @Test func sensorsAndCountersFollowTheButtonsAndEncoders() {
        let button = ButtonPresenter(name: "lights", chip: "gpiochip0", line: 17, lineIndex: 0, gestures: [.press])
        let encoder = EncoderPresenter(name: "volume", input: 0, chip: "gpiochip0", lines: [22, 23])
        let discovery = HomeAssistantDiscovery(
            settings: Self.settings, inputs: described([button, encoder, Self.door, Self.energy]), softwareVersion: "0.4.0")
        #expect(discovery.messages.map(\.topic) == [
            "homeassistant/device_automation/hall-pi/lights_press/config",
            "homeassistant/event/hall-pi/lights/config",
            "homeassistant/binary_sensor/hall-pi/lights/config",
            "homeassistant/event/hall-pi/volume/config",
            "homeassistant/sensor/hall-pi/volume/config",
            "homeassistant/binary_sensor/hall-pi/front_door/config",
            "homeassistant/sensor/hall-pi/energy/config",
            "homeassistant/sensor/hall-pi/energy_rate/config",
            "homeassistant/sensor/hall-pi/lights_health/config",
            "homeassistant/sensor/hall-pi/volume_health/config",
            "homeassistant/sensor/hall-pi/front_door_health/config",
            "homeassistant/sensor/hall-pi/energy_health/config",
        ])
        #expect(discovery.messages.allSatisfy { String(decoding: $0.payload, as: UTF8.self).hasSuffix(Self.device + "}") })
    }

    // MARK: Throttle

    static let second: Int64 = 1_000_000_000

    @Test func theFirstValueAfterAQuietIntervalGoesAtOnceAndLaterOnesWait() {
        var throttle = PublishThrottle<Int>(intervalNs: Self.second)
        #expect(throttle.deadlineNs == nil)
        #expect(throttle.offer(1, atNs: 10 * Self.second) == 1)
        #expect(throttle.offer(2, atNs: 10 * Self.second + 100) == nil)
        #expect(throttle.offer(3, atNs: 10 * Self.second + 200) == nil)  // replaces 2
        #expect(throttle.pending == 3 && throttle.deadlineNs == 11 * Self.second)
        #expect(throttle.due(atNs: 11 * Self.second - 1) == nil)
        #expect(throttle.due(atNs: 11 * Self.second) == 3)
        #expect(throttle.deadlineNs == nil && throttle.lastSentNs == 11 * Self.second)
        // Within the interval of that one: waits again.
        #expect(throttle.offer(4, atNs: 11 * Self.second + 5) == nil)
        #expect(throttle.deadlineNs == 12 * Self.second)
        #expect(throttle.due(atNs: 12 * Self.second + 7) == 4)
        // A quiet interval later: at once.
        #expect(throttle.offer(5, atNs: 13 * Self.second + 7) == 5)
        #expect(throttle.due(atNs: 20 * Self.second) == nil)
    }

    @Test func aStateSentAtTheStartCountsAndFlushSendsTheWaitingOne() {
        var throttle = PublishThrottle<Int>(intervalNs: Self.second)
        throttle.noteSent(atNs: 0)
        #expect(throttle.offer(1, atNs: Self.second / 2) == nil)
        #expect(throttle.deadlineNs == Self.second)
        #expect(throttle.flush(atNs: Self.second / 2 + 1) == 1)
        #expect(throttle.flush(atNs: Self.second / 2 + 2) == nil)
        #expect(throttle.deadlineNs == nil)
    }

    @Test func noIntervalSendsEveryValueAndAHugeOneDoesNotOverflow() {
        var every = PublishThrottle<Int>(intervalNs: 0)
        #expect((0..<5).map { every.offer($0, atNs: 7) } == [0, 1, 2, 3, 4])
        var huge = PublishThrottle<Int>(intervalNs: .max)
        #expect(huge.offer(1, atNs: Self.second) == 1)
        #expect(huge.offer(2, atNs: 2 * Self.second) == nil)
        #expect(huge.deadlineNs == .max)
    }

    /// 50 pulses in 2 s with a 1 s interval (the sink's sequence: the start, each pulse offered, the
    /// due one taken at each wakeup, the rest flushed at shutdown): at most 3 state messages after
    /// the start one, and the last is the final total.
    @Test func fiftyPulsesInTwoSecondsGiveAtMostThreeStates() {
        var throttle = PublishThrottle<Int>(intervalNs: Self.second)
        throttle.noteSent(atNs: 0)
        var sent: [(Int64, Int)] = []
        for pulse in 1...50 {
            let nowNs = Int64(pulse) * 40_000_000
            if let due = throttle.due(atNs: nowNs) { sent.append((nowNs, due)) }
            if let now = throttle.offer(pulse, atNs: nowNs) { sent.append((nowNs, now)) }
        }
        if let last = throttle.flush(atNs: 2 * Self.second) { sent.append((2 * Self.second, last)) }
        #expect(sent.count <= 3)
        #expect(sent.last?.1 == 50)
        #expect(zip(sent, sent.dropFirst()).dropLast().allSatisfy { $1.0 - $0.0 >= Self.second })
    }
}
