import Foundation
import Testing

/// `watch --keypad` with `--scan-settle` and `--scan-interval`: the pad scanned as a configured
/// keypad's `scan_settle:` and `scan_interval:` say, with their spellings and limits.
@Suite struct WatchKeypadScanTests {
    static let pad = ["watch", "--keypad", "5,6,13,19/12,16,20,21", "--simulate", "--virtual-time", "--seed", "4", "--presses", "6", "--format", "json"]

    /// The events' keys and times.
    static func events(_ extra: [String]) throws -> [String] {
        let result = try CLITests.run(Self.pad + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    static func keys(_ events: [String]) -> [String] {
        events.compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return "\(object["event"] ?? "?") \(object["key"] ?? "?")"
        }
    }

    /// The same typing scanned every 37 ms instead of 10 ms: the same keys, decided at other times.
    @Test func theScanIntervalReachesTheScan() throws {
        let byDefault = try Self.events([])
        let slower = try Self.events(["--scan-settle", "50us", "--scan-interval", "37ms"])
        #expect(byDefault.count == 12, "\(byDefault)")
        #expect(Self.keys(slower) == Self.keys(byDefault))
        #expect(slower != byDefault)
    }

    @Test(arguments: [
        (["--scan-settle", "10"], "'10' needs a unit, e.g. 10us or 5ms"),
        (["--scan-settle", "200ms"], "--scan-settle must be 1us to 100ms (a few microseconds suit real keypads), not 200ms."),
        (["--scan-settle", "500ns"], "--scan-settle must be 1us to 100ms"),
        (["--scan-interval", "500us"], "--scan-interval must be at least 1ms, not 500us."),
        (["--scan-settle", "5ms", "--scan-interval", "10ms"], "A scan of 4 columns takes 20ms (the settle time per column): make --scan-interval longer than that (it is 10ms)."),
    ])
    func aSettingAConfigurationRefusesIsRefused(extra: [String], message: String) throws {
        let result = try CLITests.run(Self.pad + extra)
        #expect(result.status == 64, "\(extra): \(result.stderr)")
        #expect(result.stderr.contains(message), "\(extra): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func theyGoWithKeypad() throws {
        let result = try CLITests.run(["watch", "17", "--simulate", "--virtual-time", "--presses", "1", "--scan-interval", "20ms"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--scan-settle and --scan-interval say how --keypad scans a keypad: add --keypad ROWS/COLUMNS."), "\(result.stderr)")
    }
}
