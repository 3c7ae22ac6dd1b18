#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import InMemoryLogging
import Logging
import Testing

@testable import ServiceAdvertisement

/// Without avahi-daemon the device runs unadvertised, and says so once with what to do.
@Suite struct MDNSAdvertiserTests {
    static let record = ServiceRecord(name: "hall-pi", type: "_esphomelib._tcp", port: 6053, text: [("mac", "020000000001")])

    @Test func theRecordsTextIsItsKeysAndValues() {
        #expect(Self.record.text == ["mac=020000000001"])
        #expect(Self.record.fullName == "hall-pi._esphomelib._tcp")
    }

    @Test func withoutAnAvahiDaemonTheServiceIsNotAdvertisedAndTheLogSaysHowToAddItByHand() {
        // No system bus answers at this address, so avahi's client cannot reach a daemon.
        setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/gpio-debounce-test-bus", 1)
        defer { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
        let kept = InMemoryLogHandler()
        let advertiser = MDNSAdvertiser(record: Self.record, byHand: "add it by hand", logger: Logger(label: "test") { _ in kept })
        guard case .unavailable(let reason) = advertiser.state else {
            Issue.record("state \(advertiser.state)")
            return
        }
        #expect(reason.contains("avahi"))
        let warnings = kept.entries.filter { $0.level == .warning }.map(\.message.description)
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.hasSuffix("does not discover it by itself: add it by hand") == true)
        #expect(advertiser.nanosecondsToDeadline == nil)
        advertiser.advance()
        advertiser.finish()
    }
}
