import Testing

@testable import ESPHomeAPI

/// The mDNS TXT record Home Assistant's esphome integration reads when it discovers the device: `mac`
/// (its unique id, without which it ignores the device), `friendly_name` (the title) and
/// `api_encryption` (ask for the key first), as ESPHome's own devices write them.
@Suite struct APIServiceTextTests {
    static let porch = APIDeviceIdentity(
        name: "porch-pi", friendlyName: "Porch Pi", macAddress: "DC:A6:32:01:02:0A", version: "0.5.0", model: "Raspberry Pi 4 Model B Rev 1.4",
        manufacturer: "Raspberry Pi")

    @Test func anEncryptedDeviceSaysSoWithItsMACInLowerCaseWithoutColons() {
        let text = Dictionary(uniqueKeysWithValues: Self.porch.serviceText(encrypted: true, wireless: true).map { ($0.key, $0.value) })
        #expect(text["mac"] == "dca63201020a")
        #expect(text["friendly_name"] == "Porch Pi")
        #expect(text["api_encryption"] == "Noise_NNpsk0_25519_ChaChaPoly_SHA256")
        #expect(text["network"] == "wifi")
        #expect(text["version"] == "0.5.0")
        #expect(text["board"] == "Raspberry Pi 4 Model B Rev 1.4")
        #expect(APIDeviceIdentity.serviceType == "_esphomelib._tcp")
    }

    @Test func aPlaintextDeviceWithoutAFriendlyNameLeavesBothOut() {
        var device = Self.porch
        device.friendlyName = ""
        let keys = device.serviceText(encrypted: false, wireless: false).map(\.key)
        #expect(!keys.contains("api_encryption") && !keys.contains("friendly_name"))
        #expect(keys.contains("mac"))
        #expect(device.serviceText(encrypted: false, wireless: false).first { $0.key == "network" }?.value == "ethernet")
    }
}
