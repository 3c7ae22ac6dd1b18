import Foundation
import GPIODebounce
import Settings
import Testing

/// The Swift library's `DaemonEvents` against a running daemon (`run --simulate`, real time): the
/// snapshot, then the button's events as the `ButtonEvent`s `Button.events` gives; the end of the
/// daemon's stream; an iteration left early; no daemon.
@Suite struct DaemonEventsTests {
    typealias Place = EventSocketCommandTests.Place

    @Test func aButtonsStateThenItsEventsAsButtonEvents() async throws {
        let place = try Place()
        let run = try place.daemon()
        var seen: [DaemonEvent] = []
        for try await event in DaemonEvents(socket: place.socket, inputs: ["bell"]) {
            seen.append(event)
            if event.buttonEvent?.kind == .release { break }  // leaves the iteration: its thread disconnects
        }
        let state = try #require(seen.first)
        #expect(state.isSnapshot && state.name == "state" && state.input == "bell" && state.kind == "button" && state.sequence == nil)
        #expect(["pressed", "released"].contains(state.fields["state"]), "\(state.fields)")
        #expect(seen.allSatisfy { $0.input == "bell" }, "only the subscribed input: \(seen.map(\.json))")
        let press = try #require(seen.first { $0.buttonEvent?.kind == .press })
        #expect(press.buttonEvent?.timeNs == press.fields["time_ns"].flatMap { Int64($0) })
        #expect(press.buttonEvent?.onsetNs == press.fields["onset_ns"].flatMap { Int64($0) })
        let release = try #require(seen.last?.buttonEvent)
        #expect(release.heldNs > 0 && release.heldNs == seen.last?.fields["held_ns"].flatMap { Int64($0) })
        let numbers = seen.compactMap(\.sequence)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $1 > $0 }, "in the daemon's order: \(numbers)")
        // The daemon still serves others after the early end.
        let status = try CLITests.run(["status", "--socket", place.socket])
        #expect(status.status == 0)
        run.signal(SIGTERM)
        run.process.waitUntilExit()
    }

    @Test func theSequenceEndsWithTheDaemonAndWithoutOneSaysSo() async throws {
        let place = try Place()
        let run = try place.daemon(["--presses", "1"])
        var count = 0
        for try await _ in DaemonEvents(socket: place.socket) { count += 1 }
        #expect(count >= 5, "the snapshot of 3 inputs and the presses' events, then the end")
        run.process.waitUntilExit()
        do {
            for try await _ in DaemonEvents(socket: place.socket) {}
            Issue.record("an iteration with no daemon ended without an error")
        } catch let error as DaemonEventsError {
            #expect(error.reason == .noDaemon)
            #expect(error.description.contains("no gpio-debounce run listens on \(place.socket)"))
        }
        #expect(DaemonEvents().socket == EventSocketSettings.defaultPath, "the service's socket by default")
    }
}
