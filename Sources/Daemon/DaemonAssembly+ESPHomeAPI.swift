#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ConfigurationFile
import ESPHomeAPI
import ESPHomeDevice
import InputModel
import LinuxSys
import Logging
import Settings

extension DaemonAssembly {
    /// The device Home Assistant's ESPHome integration adds (`api:`), for `inputs`: the one a reload
    /// carried (`carried`, its clients connected) when the device and its port stay, else a new one, or
    /// none. A new one is advertised over mDNS through avahi-daemon. A simulation listens on a port the
    /// kernel chooses, as a device of its own (`<name>-simulation`, another MAC address), never as the
    /// live device; a virtual-time run has none.
    static func espHomeAPI(
        _ configuration: ServiceConfiguration, choices: DaemonChoices, inputs: [any InputPresenter], carried: ESPHomeAPISink?, logger: Logger
    ) throws(DaemonFailure) -> ESPHomeAPISink? {
        guard let settings = configuration.api, choices.simulation?.virtualTime != true else {
            if configuration.api != nil { logger.notice("ESPHome API: not in a run in virtual time (its clients count on the real clock)") }
            try? carried?.finish(atNs: 0)
            return nil
        }
        let simulated = choices.simulation != nil
        let machine = MachineIdentity.read()
        let identity = Self.apiIdentity(settings, machine: machine, simulated: simulated, version: choices.softwareVersion)
        let security: APISession.Security
        do throws(ESPHomeAPIError) { security = try Self.apiSecurity(settings.encryption) } catch { throw .espHomeAPI(error) }
        let port = choices.apiPort ?? (simulated ? 0 : settings.port)
        if let carried, carried.identity == identity, carried.security == security, port == 0 || carried.port == port {
            carried.adopt(inputs)
            return carried
        }
        try? carried?.finish(atNs: 0)
        do throws(ESPHomeAPIError) {
            let advertising = APIAdvertising(hostName: Hostname.current, wireless: machine.isWireless)
            if !machine.isHardwareAddress {
                logger.notice("ESPHome API: this machine has no network card of its own (a container): the device's MAC address, by which Home Assistant knows it, is \(identity.macAddress), made from the host name '\(Hostname.current)'; keep the host name (podman or docker run --hostname) to keep the device")
            }
            let sink = try ESPHomeAPISink(port: port, identity: identity, security: security, inputs: inputs, advertising: advertising, logger: logger)
            let encryption = security == .plaintext ? "plaintext ('encryption: none')" : "encrypted"
            if simulated {
                logger.info("ESPHome API: a simulation listens on port \(sink.port) as \(identity.name), \(encryption) (add it in Home Assistant by this machine's address and that port)")
            } else {
                logger.info("ESPHome API: listening on port \(sink.port) as \(identity.name), \(encryption)")
            }
            return sink
        } catch {
            throw .espHomeAPI(error)
        }
    }

    /// Who the device is: its name (a simulation's `<name>-simulation`), the machine's MAC address (a
    /// simulation's with the locally administered bit set, so that Home Assistant never takes it for
    /// the live device), model and maker.
    static func apiIdentity(_ settings: ESPHomeAPISettings, machine: MachineIdentity, simulated: Bool, version: String) -> APIDeviceIdentity {
        var name = settings.deviceName(hostname: Hostname.current)
        var mac = machine.isHardwareAddress ? machine.macAddress ?? "" : madeMACAddress(hostName: Hostname.current, name: name)
        if simulated {
            let suffix = "-simulation"
            name = String(name.utf8.prefix(ESPHomeAPISettings.maximumNameBytes - suffix.utf8.count).map { Character(Unicode.Scalar($0)) }) + suffix
            if let first = UInt8(mac.prefix(2), radix: 16) {
                let local = first | 0x02
                mac = String(local >> 4, radix: 16).uppercased() + String(local & 0x0F, radix: 16).uppercased() + String(mac.dropFirst(2))
            }
        }
        return APIDeviceIdentity(
            name: name, friendlyName: settings.friendlyName.map { simulated ? "\($0) (simulation)" : $0 } ?? "", macAddress: mac, version: version,
            model: machine.model ?? "Linux machine", manufacturer: machine.manufacturer ?? "gpio-debounce")
    }

    /// A MAC address for a machine without a network card of its own (a container, whose interface's
    /// address is made anew with it): made from the host name and the device's name, so that it stays
    /// while they do (Home Assistant knows a device by it). Locally administered (`02:…`), never a card's.
    static func madeMACAddress(hostName: String, name: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, 64 bits
        for byte in "\(hostName)/\(name)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let bytes = [0x02] + (0..<5).map { UInt8(truncatingIfNeeded: hash >> (8 * UInt64($0))) }
        return bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: ":")
    }

    /// The API's security: plaintext, or Noise with the configuration's key or its key file's (read now).
    static func apiSecurity(_ encryption: ESPHomeAPISettings.Encryption) throws(ESPHomeAPIError) -> APISession.Security {
        switch encryption {
        case .none: return .plaintext
        case .key(let key): return .noise(psk: key)
        case .keyFile(let path):
            guard let text = MachineIdentity.firstLine(path, maximumBytes: 1024) else {
                let code = errno
                throw .keyFile(path: path, reason: access(path, F_OK) == 0 ? "it is empty or cannot be read (\(String(cString: strerror(code))))" : "it does not exist: write the key into it (`openssl rand -base64 32 > \(path)`), readable by the daemon only", code: code)
            }
            guard let key = APIKeyText.decode(text) else { throw .keyFile(path: path, reason: "its first line is not a key: a key is \(APIKeyText.expected)", code: nil) }
            return .noise(psk: key)
        }
    }
}
