extension APIDeviceIdentity {
    /// The service type an ESPHome device is advertised as over mDNS (Home Assistant's esphome
    /// integration browses for `_esphomelib._tcp.local.`).
    package static let serviceType = "_esphomelib._tcp"

    /// The TXT record an ESPHome device's mDNS service carries, as ESPHome's mdns component writes it.
    /// Home Assistant reads `mac` (required: its config entry's unique id), `friendly_name` (the title
    /// it offers) and `api_encryption` (whether to ask for the key before it tries); the dashboard
    /// reads the others. `encrypted`: whether the API wants Noise; `wireless`: whether the machine's
    /// network is Wi-Fi (else Ethernet).
    package func serviceText(encrypted: Bool, wireless: Bool) -> [(key: String, value: String)] {
        var text: [(key: String, value: String)] = []
        if !friendlyName.isEmpty { text.append(("friendly_name", friendlyName)) }
        text.append(("version", version))
        text.append(("mac", compactMACAddress))
        text.append(("platform", "host"))
        text.append(("board", model))
        text.append(("network", wireless ? "wifi" : "ethernet"))
        if encrypted { text.append(("api_encryption", "Noise_NNpsk0_25519_ChaChaPoly_SHA256")) }
        return text
    }
}
