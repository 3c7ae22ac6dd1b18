import GPIODebounce
import Testing

/// Several buttons on one loop: each button's events, with its index, in time order.
@Suite struct ButtonSetTests {
    @Test func eachButtonsEventsComeWithItsIndex() async throws {
        let set = ButtonSet([
            Button.simulated(seed: 3, presses: 2, virtualTime: true),
            Button.simulated(seed: 4, presses: 3, virtualTime: true, gestures: GestureConfiguration(holdNs: 1)),
        ])
        var perButton: [[ButtonEvent.Kind]] = [[], []]
        var times: [Int64] = []
        for try await (index, event) in set.events {
            perButton[index].append(event.kind)
            times.append(event.timeNs)
        }
        #expect(perButton[0] == [.press, .release, .press, .release])
        // The second button's own gestures: a hold after each press, and its release a long release.
        #expect(perButton[1] == Array(repeating: [.press, .hold, .release, .longRelease], count: 3).flatMap { $0 })
        #expect(times == times.sorted(), "one loop: the events of all buttons in time order")
    }

    @Test func realAndSimulatedButtonsDoNotMix() async throws {
        let set = ButtonSet([Button(line: 17), Button.simulated(virtualTime: true)])
        await #expect(throws: ButtonSetError.mixedSources) {
            for try await _ in set.events {}
        }
    }
}
