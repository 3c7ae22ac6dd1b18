import ConfigurationFile
import Settings
import Testing

/// `api:`, the device Home Assistant adds with ESPHome's integration: its encryption must be written,
/// its key must be one, its name ESPHome's kind of name.
@Suite struct APISectionTests {
    static let button = "buttons:\n  - {name: bell, line: 17}\n"
    static let key = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

    @Test func aKeyANameAndAPortAreRead() throws {
        let yaml = Self.button + "api:\n  port: 6054\n  name: porch-pi\n  friendly_name: Porch Pi\n  encryption: {key: \"\(Self.key)\"}\n"
        let api = try #require(try ConfigurationLoader.load(yaml, file: "a.yaml").api)
        #expect(api == ESPHomeAPISettings(port: 6054, name: "porch-pi", friendlyName: "Porch Pi", encryption: .key((0..<32).map { UInt8($0) })))
        let plaintext = try #require(try ConfigurationLoader.load(Self.button + "api: {encryption: none}\n", file: "a.yaml").api)
        #expect(plaintext == ESPHomeAPISettings(encryption: .none))
        #expect(plaintext.deviceName(hostname: "Living_Room.Pi") == "living-room-pi")
        let file = try #require(try ConfigurationLoader.load(Self.button + "api: {encryption: {key_file: /etc/gpio-debounce/api.key}}\n", file: "a.yaml").api)
        #expect(file.encryption == .keyFile("/etc/gpio-debounce/api.key"))
    }

    @Test(arguments: [
        ("api: {port: 6053}", "api", "needs `encryption:`: a key, as ESPHome devices have"),
        ("api: {encryption: {key: c2hvcnQ=}}", "api.encryption.key", "is 32 bytes in base64, as ESPHome's keys are (44 characters ending in `=`); make one with `openssl rand -base64 32`"),
        ("api: {encryption: off}", "api.encryption", "none"),
        ("api: {encryption: {key_file: api.key}}", "api.encryption.key_file", "write the key file's absolute path"),
        ("api: {encryption: none, name: Porch Pi}", "api.name", "write 'porch-pi', and put the name to show in `friendly_name:`"),
        ("api: {encryption: none, port: 70000}", "api.port", "65535"),
        ("api: {encryption: none, ports: 6053}", "api", "unknown key 'ports' (did you mean port?)"),
    ])
    func whatIsNotAnAPIIsRefusedWithWhatToWrite(section: String, key: String, message: String) throws {
        let error = try #require(ConfigurationValidationTests.failure(Self.button + section + "\n"))
        #expect(error.key == key, "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func nodeNamesAreESPHomes() {
        #expect(ESPHomeAPISettings.nodeName(of: "Küche") == "k-che")
        #expect(ESPHomeAPISettings.nodeName(of: "--") == "gpio-debounce")
        #expect(ESPHomeAPISettings.nodeName(of: String(repeating: "a", count: 40)).count == 31)
        #expect(ESPHomeAPISettings.isNodeName("porch-pi") && !ESPHomeAPISettings.isNodeName("Porch") && !ESPHomeAPISettings.isNodeName("-pi"))
        #expect(APIKeyText.decode(" \(Self.key)\n") == (0..<32).map { UInt8($0) })
        #expect(APIKeyText.decode("AAEC") == nil)
    }
}
