import InputModel
import Testing

/// What a description says about itself.
@Suite struct InputDescriptionTests {
    /// The channels whose latest message is a state are those of its binary and numeric entities,
    /// each once; an events-only channel is not one.
    @Test func stateChannelsAreThoseOfItsStatesNotItsEvents() {
        let described = InputDescription(
            name: "meter", kind: "counter", input: 3, lines: [4],
            entities: [
                EntityDescription(key: "event", channel: "event", value: .events(types: [EventType("pulse")], template: nil, typeTemplate: nil)),
                EntityDescription(key: "total", channel: "state", value: .number(stateClass: .totalIncreasing, unit: "kWh", field: "value", attributes: true)),
                EntityDescription(key: "rate", channel: "state", value: .number(stateClass: .measurement, unit: "W", field: "rate", attributes: false)),
                EntityDescription(key: "open", channel: "door", value: .binary(on: "on", off: "off")),
            ])
        #expect(described.stateChannels == ["state", "door"])
        #expect(EntityDescription.StateClass.totalIncreasing.rawValue == "total_increasing")
    }
}
