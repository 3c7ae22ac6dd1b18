#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the machine says of itself in sysfs: its first network interface's MAC address, its board's
/// model and maker (a Raspberry Pi's device tree, a PC's DMI), for a device that tells Home Assistant
/// what it runs on. Read from `root` (`/`, or a test's directory).
package struct MachineIdentity: Sendable, Hashable {
    /// `AA:BB:CC:DD:EE:FF`, upper case: the MAC address of the first interface, by name, that has a
    /// device (not `lo`, a bridge or a veth) and an address that is not all zeros; of any interface
    /// when none has a device; nil when there is none.
    package var macAddress: String?
    /// `Raspberry Pi 4 Model B Rev 1.4` (`/sys/firmware/devicetree/base/model`), or the DMI product's
    /// name; nil when neither is there.
    package var model: String?
    /// `Raspberry Pi` for a Raspberry Pi, else the DMI's vendor; nil when it is not known.
    package var manufacturer: String?
    /// Whether the interface the MAC address is of is a wireless one (it has `wireless/` in sysfs).
    package var isWireless: Bool
    /// Whether the MAC address is a device's (a network card's, stable): false for a virtual
    /// interface's (a container's veth, made anew with the container) or none.
    package var isHardwareAddress: Bool

    package init(macAddress: String?, model: String?, manufacturer: String?, isWireless: Bool = false, isHardwareAddress: Bool = true) {
        self.macAddress = macAddress
        self.model = model
        self.manufacturer = manufacturer
        self.isWireless = isWireless
        self.isHardwareAddress = isHardwareAddress && macAddress != nil
    }

    /// This machine's identity, read under `root`.
    package static func read(root: String = "") -> MachineIdentity {
        let model = firstLine(root + "/sys/firmware/devicetree/base/model") ?? firstLine(root + "/sys/class/dmi/id/product_name")
        let manufacturer = model.flatMap { $0.hasPrefix("Raspberry Pi") ? "Raspberry Pi" : nil } ?? firstLine(root + "/sys/class/dmi/id/sys_vendor")
        let interface = firstInterface(root: root)
        return MachineIdentity(
            macAddress: interface?.address, model: model, manufacturer: manufacturer,
            isWireless: interface.map { access(root + "/sys/class/net/\($0.name)/wireless", F_OK) == 0 } ?? false,
            isHardwareAddress: interface?.hasDevice ?? false)
    }

    /// The interface whose MAC address the machine goes by (see `macAddress`): its name and address.
    private static func firstInterface(root: String) -> (name: String, address: String, hasDevice: Bool)? {
        let names = directoryEntries(root + "/sys/class/net").sorted()
        var fallback: (name: String, address: String, hasDevice: Bool)?
        for name in names where name != "lo" {
            guard let address = firstLine(root + "/sys/class/net/\(name)/address"), address.count == 17, address != "00:00:00:00:00:00" else { continue }
            if access(root + "/sys/class/net/\(name)/device", F_OK) == 0 { return (name, address.uppercased(), true) }
            if fallback == nil { fallback = (name, address.uppercased(), false) }
        }
        return fallback
    }

    /// The first line of file `path` (of its first `maximumBytes`) without its end (and the NUL a
    /// device tree's strings end with); nil when it cannot be read or is empty (`errno` then says why).
    package static func firstLine(_ path: String, maximumBytes: Int = 256) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: maximumBytes)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let line = bytes[..<count].prefix { $0 != UInt8(ascii: "\n") && $0 != 0 }
        let text = String(decoding: line, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    private static func directoryEntries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
