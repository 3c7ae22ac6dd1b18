/// A DNS-SD service as mDNS announces it: `<name>.<type>.local` on `port`, with its TXT record.
package struct ServiceRecord: Sendable, Hashable {
    /// The instance's name (`kitchen-pi`): a DNS label of at most 63 bytes.
    package var name: String
    /// The service's type, `_esphomelib._tcp`.
    package var type: String
    /// The TCP port the service listens on.
    package var port: UInt16
    /// The TXT record's `key=value` strings, in order.
    package var text: [String]

    package init(name: String, type: String, port: UInt16, text: [(key: String, value: String)]) {
        self.name = name
        self.type = type
        self.port = port
        self.text = text.map { "\($0.key)=\($0.value)" }
    }

    /// `kitchen-pi._esphomelib._tcp`, as logs and `avahi-browse` show it.
    package var fullName: String { "\(name).\(type)" }
}
