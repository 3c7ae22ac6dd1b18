import ESPHomeAPI
import ServiceAdvertisement

/// How the device is advertised over mDNS (`_esphomelib._tcp`, through avahi-daemon), so that Home
/// Assistant finds it by itself: what its TXT record says of the network, and how a user adds the
/// device by hand when nothing advertises it.
package struct APIAdvertising: Sendable, Hashable {
    /// The machine's host name, as a user reaches it (`kitchen-pi`: `kitchen-pi.local` over mDNS).
    package var hostName: String
    /// Whether the machine's network is Wi-Fi (the TXT record's `network`).
    package var wireless: Bool

    package init(hostName: String, wireless: Bool) {
        self.hostName = hostName
        self.wireless = wireless
    }

    /// The service the device `identity` on `port` is announced as: named as the device (Home
    /// Assistant's reconnection watches `<name>._esphomelib._tcp.local.`).
    func record(identity: APIDeviceIdentity, port: UInt16, security: APISession.Security) -> ServiceRecord {
        ServiceRecord(
            name: identity.name, type: APIDeviceIdentity.serviceType, port: port,
            text: identity.serviceText(encrypted: security != .plaintext, wireless: wireless))
    }

    /// What a user does without the advertisement: a sentence (the log's and `doctor`'s).
    func byHand(port: UInt16) -> String { Self.byHand(hostName: hostName, port: port) }

    /// How a user adds the device on `hostName` and `port` without the advertisement: a sentence.
    package static func byHand(hostName: String, port: UInt16) -> String {
        "add it in Home Assistant by hand (Settings > Devices & services > Add integration > ESPHome, host \(hostName).local or this machine's address, port \(port))"
    }
}
