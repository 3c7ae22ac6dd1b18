/// The device Home Assistant's ESPHome integration adds (`api:` in a configuration): the port of
/// ESPHome's native API, the device's names, and its encryption. Pure: reading it opens nothing (a key
/// file is read when the API starts).
package struct ESPHomeAPISettings: Sendable, Hashable {
    /// How the API's connections are secured.
    package enum Encryption: Sendable, Hashable {
        /// Plaintext (`encryption: none`): for a network every machine of which is trusted.
        case none
        /// Noise, with this key: the 32 bytes of `encryption: {key: BASE64}`.
        case key([UInt8])
        /// Noise, with the key in this file (`encryption: {key_file: PATH}`: its first line, base64).
        case keyFile(String)
    }

    /// ESPHome's port: Home Assistant tries it when a device is added by its host name.
    package static let defaultPort: UInt16 = 6053

    package var port = Self.defaultPort
    /// The device's name (`name:`), nil for this machine's host name in ESPHome's spelling.
    package var name: String?
    /// The name Home Assistant shows (`friendly_name:`), nil for none (Home Assistant shows `name`).
    package var friendlyName: String?
    package var encryption: Encryption

    package init(port: UInt16 = Self.defaultPort, name: String? = nil, friendlyName: String? = nil, encryption: Encryption) {
        self.port = port
        self.name = name
        self.friendlyName = friendlyName
        self.encryption = encryption
    }

    /// The device's name: `name`, or `hostname` as ESPHome spells a node's name (`nodeName(of:)`).
    package func deviceName(hostname: String) -> String {
        name ?? Self.nodeName(of: hostname)
    }

    /// `text` as ESPHome spells a node's name (its host name on the network): lower case ASCII letters,
    /// digits and `-`, every other character as `-`, at most 31 bytes; `gpio-debounce` when nothing is left.
    package static func nodeName(of text: String) -> String {
        var name = ""
        for scalar in text.lowercased().unicodeScalars {
            if name.utf8.count >= maximumNameBytes { break }
            switch scalar {
            case "a"..."z", "0"..."9": name.unicodeScalars.append(scalar)
            default: name.unicodeScalars.append("-")
            }
        }
        while name.hasPrefix("-") { name.removeFirst() }
        while name.hasSuffix("-") { name.removeLast() }
        return name.isEmpty ? "gpio-debounce" : name
    }

    /// Whether `text` is a name ESPHome takes for a node: 1 to 31 lower-case ASCII letters, digits
    /// and `-`, neither first nor last a `-`.
    package static func isNodeName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= maximumNameBytes && nodeName(of: text) == text
    }

    /// The longest name ESPHome's hello carries, in bytes.
    package static let maximumNameBytes = 31
}
