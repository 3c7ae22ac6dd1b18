import InputModel
import Inputs
@testable import MQTT
import Settings
import Testing

/// A simulation (`run --simulate`) publishes under an identity of its own: nothing it sends reaches a
/// live installation's topics, device or entities, and the broker never throws the live daemon off.
@Suite struct MQTTSimulationTests {
    static let live = MQTTSettings(host: "h", clientID: "hall-pi", base: "home/hall", hostname: "pi")
    static let button = ButtonPresenter(name: "lights", chip: "gpiochip0", line: 17, lineIndex: 0, gestures: [.press, .release])

    @Test func aSimulationHasItsOwnClientIdentifierAndBaseTopic() {
        let simulation = Self.live.simulation
        #expect(simulation.clientID == "hall-pi-simulation")
        #expect(simulation.base == "home/hall-simulation")
        #expect(simulation.host == Self.live.host && simulation.port == Self.live.port)
        #expect(!simulation.topic(input: "lights", channel: "event").hasPrefix(Self.live.base + "/"))
    }

    /// Every discovery message, topic and payload, names the simulation's device and topics, never the
    /// live daemon's: Home Assistant shows a second device, and the user's automations stay on the real one.
    @Test func aSimulationsDiscoveryNeverNamesTheLiveDevice() {
        let live = HomeAssistantDiscovery(settings: Self.live, inputs: described([Self.button]), softwareVersion: "t")
        let simulated = HomeAssistantDiscovery(settings: Self.live.simulation, inputs: described([Self.button]), softwareVersion: "t")
        #expect(Set(live.messages.map(\.topic)).isDisjoint(with: simulated.messages.map(\.topic)))
        for message in simulated.messages {
            let payload = String(decoding: message.payload, as: UTF8.self)
            #expect(!payload.contains("\"gpio-debounce_hall-pi\""), "\(payload)")
            #expect(!payload.contains("\"home/hall/"), "\(payload)")
            #expect(payload.contains("hall-pi-simulation"), "\(payload)")
        }
    }
}
