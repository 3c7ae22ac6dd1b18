import DebounceCore
import Pipeline
import Testing

/// A button held when the run starts: its release is no event (its press was never reported), but a
/// `buttonState` output, whatever its gestures or group, so that its state ends released; the presses
/// after it go through the gestures as ever.
@Suite struct HeldAtStartTests {
    static let ms: Int64 = 1_000_000

    static let plans: [String: LinePlan] = {
        let debounce = DebounceConfiguration(both: .defer(windowNs: 5 * ms))
        return [
            "passthrough": LinePlan(debounce: debounce),
            "hold": LinePlan(debounce: debounce, gestures: GestureConfiguration(holdNs: 500 * ms)),
            "clicks": LinePlan(debounce: debounce, gestures: GestureConfiguration(clickWindowNs: 300 * ms, clickPolicy: .exclusive)),
            "group": LinePlan(debounce: debounce, group: 0),
        ]
    }()

    /// Line 0 held (low) at 0, let go at 100 ms, pressed again at 2 s and let go at 2.1 s.
    static func outputs(_ name: String) throws -> [PipelineOutput] {
        let plan = try #require(plans[name])
        var pipeline = ButtonPipeline(plans: [plan], groups: [GroupLockout(windowNs: 50 * ms)], initialLevels: [.low], atNs: 0)
        var outputs: [PipelineOutput] = []
        for (level, timeNs) in [(Level.high, 100 * ms), (.low, 2_000 * ms), (.high, 2_100 * ms)] {
            _ = pipeline.advance(toNs: timeNs, into: &outputs)
            pipeline.receive(LineEdge(line: 0, edge: Edge(level: level, timeNs: timeNs)), into: &outputs)
        }
        _ = pipeline.advance(toNs: 10_000 * ms, into: &outputs)
        return outputs
    }

    @Test(arguments: ["passthrough", "hold", "clicks", "group"])
    func theReleaseOfAButtonHeldAtTheStartIsItsStateOnly(plan: String) throws {
        let outputs = try Self.outputs(plan)
        let states = outputs.compactMap { output -> Bool? in
            guard case .buttonState(.line(0), let isPressed, let atNs) = output else { return nil }
            #expect(atNs >= 100 * Self.ms && atNs < 2_000 * Self.ms)
            return isPressed
        }
        #expect(states == [false])
        // Before any event.
        let stateIndex = outputs.firstIndex { if case .buttonState = $0 { true } else { false } }
        let eventIndex = outputs.firstIndex { if case .event = $0 { true } else { false } }
        #expect(try #require(stateIndex) < #require(eventIndex))
        // The next press and release are the button's as ever (a click with the clicks' window).
        let kinds = outputs.compactMap { output -> ButtonEvent.Kind? in
            guard case .event(.line(0), let event) = output else { return nil }
            return event.kind
        }
        #expect(kinds == (plan == "clicks" ? [.press, .release, .click] : [.press, .release]))
    }
}
