import Foundation
import Testing

/// `watch --initial-state`: each line's state at the start, first, as an `initial` event.
@Suite struct InitialStateTests {
    @Test func jsonStartsWithEachLinesInitialState() throws {
        let result = try CLITests.run(["watch", "--simulate", "--virtual-time", "--seed", "3", "--num-events", "2", "--format", "json", "--initial-state", "17", "27"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(Array(lines.prefix(2)) == [
            #"{"event":"initial","state":"released","level":1,"time_ns":0,"chip":"simulated","line":17}"#,
            #"{"event":"initial","state":"released","level":1,"time_ns":0,"chip":"simulated","line":27}"#,
        ])
        #expect(lines.dropFirst(2).allSatisfy { $0.hasPrefix(#"{"event":"press""#) || $0.hasPrefix(#"{"event":"release""#) })
    }

    /// Under --active-high a released button reads 0.
    @Test func textFollowsThePolarity() throws {
        let result = try CLITests.run(["watch", "--simulate", "--virtual-time", "--seed", "3", "--num-events", "2", "--initial-state", "--active-high", "5"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("initial released level=0 time=0.000000000 chip=simulated line=5\npress   time="))
    }

    @Test func anEncodersLinesHaveTheirLevelsOnly() throws {
        let result = try CLITests.run(["watch", "--simulate", "--virtual-time", "--seed", "3", "--presses", "1", "--format", "json", "--initial-state", "--encoder", "17,27"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(2)) == [
            #"{"event":"initial","level":1,"time_ns":0,"chip":"simulated","line":17}"#,
            #"{"event":"initial","level":1,"time_ns":0,"chip":"simulated","line":27}"#,
        ])
        #expect(lines.count > 2 && lines.dropFirst(2).allSatisfy { $0.hasPrefix(#"{"event":"rotate""#) })
    }

    @Test func withoutTheFlagNoInitialEvent() throws {
        let result = try CLITests.run(["watch", "--simulate", "--virtual-time", "--seed", "3", "--num-events", "2", "--format", "json"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains(#""event":"initial""#))
    }
}
