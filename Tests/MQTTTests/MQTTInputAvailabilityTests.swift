import DebounceCore
import EventLoop
import InputModel
import Inputs
@testable import MQTT
import LineInput
import Pipeline
import Settings
import Testing

/// Each input's availability (`<base>/<input>/availability`): `offline` while a chip holding one of its
/// lines is away, `online` again once all of them are back; the other inputs stay `online`.
@Suite(.serialized) struct MQTTInputAvailabilityTests {
    static let ms: Int64 = 1_000_000

    @Test func anInputIsAwayWhileAnyOfItsChipsIs() {
        // The button on line 0 (chip A), the encoder on lines 1 (chip A) and 2 (chip B), the counter on line 3 (chip C).
        var availability = MQTTInputAvailability(inputs: [
            .init(name: "button", lines: [0]), .init(name: "knob", lines: [1, 2]), .init(name: "meter", lines: [3]),
        ])
        #expect(availability.inputs.indices.allSatisfy(availability.isAvailable))
        let bAway = availability.note(ChipAvailability(chip: "gpiochip1", lines: [2], isAvailable: false))
        #expect(bAway.map(\.name) == ["knob"] && bAway.allSatisfy { !$0.isAvailable })
        let aAway = availability.note(ChipAvailability(chip: "gpiochip0", lines: [0, 1], isAvailable: false))
        #expect(aAway.map(\.name) == ["button"])
        // Chip A back, under another name: the button is back, the knob still waits for chip B.
        let aBack = availability.note(ChipAvailability(chip: "gpiochip3", lines: [0, 1], isAvailable: true))
        #expect(aBack.map(\.name) == ["button"] && aBack.allSatisfy(\.isAvailable))
        #expect(!availability.isAvailable(1))
        let bBack = availability.note(ChipAvailability(chip: "gpiochip4", lines: [2], isAvailable: true))
        #expect(bBack.map(\.name) == ["knob"] && bBack.allSatisfy(\.isAvailable))
        // Told again: no change.
        #expect(availability.note(ChipAvailability(chip: "gpiochip4", lines: [2], isAvailable: true)).isEmpty)
        #expect(availability.inputs.indices.allSatisfy(availability.isAvailable))
    }

    /// Two quiet lines; line 0's chip goes away at 1 s and is back at 1.5 s; the input ends at 2 s.
    final class ChipAwayAndBack: EdgeSource {
        var steps: [(timeNs: Int64, change: ChipAvailability?)] = [
            (1000 * ms, ChipAvailability(chip: "gpiochip5", lines: [0], isAvailable: false)),
            (1500 * ms, ChipAvailability(chip: "gpiochip5", lines: [0], isAvailable: true)),
            (2000 * ms, nil),
        ]
        var lineCount: Int { 2 }
        var nextDueNs: Int64? { steps.first?.timeNs }
        var isExhausted: Bool { steps.isEmpty }
        func readLevel(line: Int) -> Level { .high }
        func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) {
            while let first = steps.first, first.timeNs <= timeNs {
                steps.removeFirst()
                if let change = first.change { batch.availability.append(change) }
            }
        }
    }

    @Test func aChipAwayMakesItsInputsOfflineAndTheirEntitiesSayWhere() throws {
        let broker = try Broker()
        let subscriber = try Subscriber(broker, topics: ["test/pi/+/availability"])
        let settings = MQTTSinkTests.settings(broker)
        let sink = try MQTTSink(settings: settings, inputs: MQTTSinkTests.buttons, softwareVersion: "t", logger: MQTTSinkTests.logger)
        let loop = try EventLoop(
            clock: .realTime(), source: ChipAwayAndBack(), plan: PipelinePlan(lines: MQTTSinkTests.plans), sinks: [sink],
            limits: LoopLimits(shutdownGraceNs: 10_000_000_000))
        #expect(try loop.run() == .endOfInput)
        #expect(sink.disconnectedCleanly)
        subscriber.wait { messages in messages.filter { $0.topic == "test/pi/lights/availability" }.map(\.payload).suffix(2) == ["offline", "online"] }
        let lights = subscriber.messages.filter { $0.topic == "test/pi/lights/availability" }.map(\.payload)
        let power = subscriber.messages.filter { $0.topic == "test/pi/power/availability" }.map(\.payload)
        #expect(lights.suffix(2) == ["offline", "online"], "\(lights)")
        #expect(!power.isEmpty && power.allSatisfy { $0 == "online" }, "\(power)")
        // What Home Assistant reads: the button's entities follow both topics.
        let described = MQTTSinkTests.buttons[0].description
        let entity = HomeAssistantDiscovery(settings: settings, inputs: [described], softwareVersion: "t").payload(described, described.entities[1])
        #expect(entity.text.contains(#""availability":[{"topic":"test/pi/availability"},{"topic":"test/pi/lights/availability"}],"availability_mode":"all""#))
    }
}
