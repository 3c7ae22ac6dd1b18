/// Who the device is to its clients: what its `HelloResponse` and `DeviceInfoResponse` say.
package struct APIDeviceIdentity: Sendable, Hashable {
    /// The device's name (`api: name:`, by default the host's name): lower case letters, digits and
    /// `-`, as ESPHome's node names; Home Assistant's device and its entities' ids are made from it.
    package var name: String
    /// The name Home Assistant shows (`friendly_name:`), or empty for `name`.
    package var friendlyName: String
    /// The MAC address of the machine's first network interface, `AA:BB:CC:DD:EE:FF` (upper case and
    /// colons, as ESPHome writes it: Home Assistant's entities' unique ids begin with it).
    package var macAddress: String
    /// Our version (`0.5.0`), told as the device's ESPHome version (Home Assistant's firmware).
    package var version: String
    /// The board (`Raspberry Pi 4 Model B Rev 1.4`, from the device tree), or the machine's kind.
    package var model: String
    /// Who made the board (`Raspberry Pi`), or the machine's kind.
    package var manufacturer: String
    /// When the build was made, as ESPHome's `compilation_time` (`Dec  5 2026, 21:50:14`), or empty.
    package var compilationTime: String

    package init(
        name: String, friendlyName: String = "", macAddress: String, version: String, model: String, manufacturer: String, compilationTime: String = ""
    ) {
        self.name = name
        self.friendlyName = friendlyName
        self.macAddress = macAddress
        self.version = version
        self.model = model
        self.manufacturer = manufacturer
        self.compilationTime = compilationTime
    }

    /// The API version the device speaks: 1.10, ESPHome 2024.10's. A client reads fields added later
    /// (1.14's filled-in object ids, 1.15's device capabilities) only from a device that says it has them.
    package static let apiVersion: (major: UInt32, minor: UInt32) = (1, 10)

    /// What the `HelloResponse` says after the name: `gpio-debounce 0.5.0`.
    package var serverInfo: String { "gpio-debounce \(version)" }

    /// The MAC address as mDNS's `mac` and a Noise handshake's hello carry it: 12 lower-case hex digits.
    package var compactMACAddress: String {
        String(macAddress.lowercased().filter { $0 != ":" })
    }

    package var helloResponse: APIHelloResponse {
        var hello = APIHelloResponse()
        hello.apiVersionMajor = Self.apiVersion.major
        hello.apiVersionMinor = Self.apiVersion.minor
        hello.serverInfo = serverInfo
        hello.name = name
        return hello
    }

    package var deviceInfo: APIDeviceInfoResponse {
        var info = APIDeviceInfoResponse()
        info.name = name
        info.friendlyName = friendlyName
        info.macAddress = macAddress
        info.esphomeVersion = version
        info.compilationTime = compilationTime
        info.model = model
        info.manufacturer = manufacturer
        // No project_name: Home Assistant shows a project's `<author>.<name>` as the device's maker and
        // model, in place of the machine's.
        // Not whether this connection is encrypted: whether the device could change its key (Home
        // Assistant then offers to set one), which it cannot: its key is its configuration's.
        info.apiEncryptionSupported = false
        return info
    }
}
