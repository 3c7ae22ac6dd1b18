import ExtrasBase64
import Settings
import YAMLDocument

extension ConfigurationReader {
    /// `api:`, ESPHome's native API: `port`, `name`, `friendly_name`, `encryption` (`{key: BASE64}`,
    /// `{key_file: PATH}`, or `none`). The encryption must be written: a device on a network is
    /// encrypted unless its configuration says it is not.
    func readAPI(_ node: YAMLNode) throws(ConfigurationError) -> ESPHomeAPISettings {
        let fields = try reader.mapping(node, key: "api", allowed: ["port", "name", "friendly_name", "encryption"])
        guard let encryptionNode = fields["encryption"] else {
            throw reader.error(
                node, "api",
                "needs `encryption:`: a key, as ESPHome devices have (`encryption: {key: …}`; make one with `openssl rand -base64 32`, or keep it in a file: "
                    + "`encryption: {key_file: /etc/gpio-debounce/api.key}`), or `encryption: none` for a plaintext API on a network you trust")
        }
        var settings = ESPHomeAPISettings(encryption: try readEncryption(encryptionNode))
        if let port = fields["port"] { settings.port = UInt16(try reader.integer(port, key: "api.port", range: 1...65_535)) }
        if let name = fields["name"] {
            let text = try reader.string(name, key: "api.name")
            guard ESPHomeAPISettings.isNodeName(text) else {
                throw reader.error(
                    name, "api.name",
                    "is the device's name on the network, as ESPHome's: lower-case letters, digits and `-`, at most \(ESPHomeAPISettings.maximumNameBytes); "
                        + "write \(ConfigurationLoader.quoted(ESPHomeAPISettings.nodeName(of: text))), and put the name to show in `friendly_name:`")
            }
            settings.name = text
        }
        if let friendly = fields["friendly_name"] { settings.friendlyName = try reader.string(friendly, key: "api.friendly_name") }
        return settings
    }

    private func readEncryption(_ node: YAMLNode) throws(ConfigurationError) -> ESPHomeAPISettings.Encryption {
        if case .scalar = node {
            _ = try reader.choice(node, key: "api.encryption", allowed: ["none"])
            return .none
        }
        let fields = try reader.mapping(node, key: "api.encryption", allowed: ["key", "key_file"])
        switch (fields["key"], fields["key_file"]) {
        case (let key?, nil):
            let text = try reader.string(key, key: "api.encryption.key")
            guard let bytes = APIKeyText.decode(text) else {
                throw reader.error(key, "api.encryption.key", "is \(APIKeyText.expected)")
            }
            return .key(bytes)
        case (nil, let file?):
            let path = try reader.string(file, key: "api.encryption.key_file")
            guard path.hasPrefix("/") else {
                throw reader.error(file, "api.encryption.key_file", "write the key file's absolute path (the daemon's working directory is /), e.g. /etc/gpio-debounce/api.key")
            }
            return .keyFile(path)
        default:
            throw reader.error(node, "api.encryption", "give either `key:` or `key_file:`")
        }
    }
}

/// An API key as ESPHome's users write it: 32 bytes in base64 (`openssl rand -base64 32`).
package enum APIKeyText {
    /// The 32 bytes of `text`, or nil when it is not such a key; spaces and line ends around it are
    /// not part of it.
    package static func decode(_ text: String) -> [UInt8]? {
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        let key = String(String.UnicodeScalarView(text.unicodeScalars.drop(while: blank).reversed().drop(while: blank).reversed()))
        guard let bytes = try? Base64.decode(string: key), bytes.count == 32 else { return nil }
        return bytes
    }

    /// What a key that is not one should be: what the configuration's and a key file's errors say.
    package static let expected = "32 bytes in base64, as ESPHome's keys are (44 characters ending in `=`); make one with `openssl rand -base64 32`"
}
