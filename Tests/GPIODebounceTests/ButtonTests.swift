import Foundation
import GPIODebounce
import Testing

/// The library face, as a user's unit test of their own handler would use it: the simulated button.
@Suite struct ButtonTests {
    @Test func simulatedButtonEventsAsAnAsyncSequence() async throws {
        let button = Button.simulated(seed: 3, presses: 4, virtualTime: true)
        var kinds: [ButtonEvent.Kind] = []
        for try await event in button.events { kinds.append(event.kind) }
        #expect(kinds == Array(repeating: [.press, .release], count: 4).flatMap { $0 })
    }

    @Test func gesturesComeThroughTheSameSequence() async throws {
        let button = Button.simulated(
            seed: 3, presses: 4, virtualTime: true, gestures: GestureConfiguration(clickWindowNs: 100_000_000, clickPolicy: .immediate))
        var clicks = 0
        for try await event in button.events where event.kind == .click { clicks += 1 }
        #expect(clicks == 4)
    }

    @Test func leavingTheLoopEndsTheWatch() async throws {
        // A real-time simulated button pressed forever: breaking out ends the iteration (and, through the
        // stream's termination handler, stops the watch thread; `closureCallbacksAndStop` times that).
        var first: ButtonEvent?
        for try await event in Button.simulated(seed: 5).events {
            first = event
            break
        }
        #expect(first?.kind == .press)
    }

    @Test func closureCallbacksAndStop() throws {
        let ended = DispatchSemaphore(value: 0)
        let count = Counter()
        let watch = try Button.simulated(seed: 2).start({ _ in count.increment() }, onEnd: { _ in ended.signal() })
        Thread.sleep(forTimeInterval: 0.05)
        let stoppedAt = Date()
        watch.stop()
        // The watch thread sleeps in poll on the stop switch, so it ends at once, not at the next edge.
        #expect(ended.wait(timeout: .now() + 5) == .success)
        #expect(Date().timeIntervalSince(stoppedAt) < 1)
    }

    @Test func aMissingChipEndsTheSequenceWithTheError() async {
        guard (try? FileManager.default.contentsOfDirectory(atPath: "/dev").contains { $0.hasPrefix("gpiochip") }) != true else { return }
        await #expect(throws: GPIOError.self) {
            for try await _ in Button(line: 17).events {}
        }
    }
}

/// A thread-safe counter for the callback test.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func increment() { lock.withLock { value += 1 } }
}
