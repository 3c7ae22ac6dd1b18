import ESPHomeAPI
import ServiceAdvertisement
import ConfigurationFile
import KeptState
import GPIODBackend
import LinuxSys
import Settings
import SystemPackage

/// What `doctor` looks at on this machine, each a small read of the system (`LinuxSys`'s
/// `kernelRelease`, `ProcessUser`, `PathAccess`, `TCPReachability`) as a `DoctorInputs` value: nothing
/// here requests a line, makes a device, creates a directory or speaks MQTT.
package enum DoctorProbes {
    /// Where a udev rule giving the gpio group the chips is looked for: this package's rule where
    /// the Debian package and the README install it, and Raspberry Pi OS's own.
    package static let udevRulePaths = [
        "/etc/udev/rules.d/60-gpio-debounce.rules", "/usr/lib/udev/rules.d/60-gpio-debounce.rules", "/lib/udev/rules.d/60-gpio-debounce.rules",
        "/etc/udev/rules.d/99-com.rules", "/usr/lib/udev/rules.d/99-com.rules", "/lib/udev/rules.d/99-com.rules",
    ]
    /// How long one TCP connection to the broker may take, in seconds.
    package static let connectTimeoutSeconds = 3

    /// Everything `doctor` looks at, read now: this machine's chips, kernel, libgpiod, user and udev
    /// rules; with a `configuration`, its MQTT files and, where it needs them, `/dev/uinput`, the broker
    /// and the state directory (`stateDirectory`, else the default). `lines` are those named on the
    /// command line, on `lineChip`.
    package static func inputs(configuration: ServiceConfiguration?, lines: [String], lineChip: String?, stateDirectory path: String?) -> DoctorInputs {
        var inputs = DoctorInputs(
            kernelRelease: kernelRelease(), libgpiod: LibgpiodVersion.description, libgpiodAPIMajor: LibgpiodVersion.apiMajor,
            chips: ChipInventory.read(), configuration: configuration, lines: lines, lineChip: lineChip, user: user(), udevRules: udevRules())
        inputs.socket = eventSocket(configuration?.socket ?? EventSocketSettings())
        guard let configuration else { return inputs }
        do { try MachineCheck.readConfiguredFiles(configuration) } catch { inputs.mqttFiles = error }
        if DoctorReport.needsKeyboard(configuration) { inputs.uinput = uinput() }
        if let mqtt = configuration.mqtt { inputs.broker = broker(host: mqtt.host, port: mqtt.port) }
        if configuration.keepsState { inputs.state = stateDirectory(path) }
        if let api = configuration.api {
            let name = api.deviceName(hostname: Hostname.current)
            inputs.advertisement = DoctorInputs.AdvertisementProbe(
                hostName: Hostname.current, deviceName: name, service: "\(name).\(APIDeviceIdentity.serviceType)",
                outcome: MDNSServiceProbe.find(name: name, type: APIDeviceIdentity.serviceType))
        }
        return inputs
    }

    /// `uname -r`, or `unknown`.
    package static func kernelRelease() -> String { LinuxSys.kernelRelease() ?? "unknown" }

    /// The effective user and the process's groups.
    package static func user() -> DoctorInputs.User {
        let user = ProcessUser.current()
        return DoctorInputs.User(name: user.name, isRoot: user.isRoot, groups: user.groups)
    }

    /// The udev rule files of `udevRulePaths` that exist.
    package static func udevRules() -> [String] { udevRulePaths.filter(PathAccess.exists) }

    /// Opens `path` (`/dev/uinput`) for writing and closes it (no device is made).
    package static func uinput(path: String = UInputDevice.defaultPath) -> DoctorInputs.UInputProbe {
        do throws(Errno) {
            try PathAccess.openForWriting(path)
            return .opened
        } catch {
            switch error {
            case .noSuchFileOrDirectory, .operationNotSupportedByDevice, .noSuchAddressOrDevice: return .failed(.missing(path: path))
            case .permissionDenied, .notPermitted: return .failed(.permissionDenied(path: path))
            default: return .unknown(reason: error.description)
            }
        }
    }

    /// A TCP connection to the broker's `host`:`port`, closed at once.
    package static func broker(host: String, port: Int) -> DoctorInputs.BrokerProbe {
        switch TCPReachability.probe(host: host, port: port, timeoutSeconds: connectTimeoutSeconds) {
        case .reachable(let address): .reachable(address: address)
        case .unresolved(let reason): .unresolved(reason: reason)
        case .unreachable(let reason): .unreachable(reason: reason)
        }
    }

    /// The state directory (`path`, else `StateDirectory.defaultPath()`): writable, and its
    /// lock (`counters.lock`) free, which a run holds. A missing directory is fine when its nearest
    /// existing parent is writable.
    package static func stateDirectory(_ path: String?) -> DoctorInputs.StateProbe {
        let directory: String
        if let path {
            directory = path
        } else {
            do throws(KeptStateError) { directory = try StateDirectory.defaultPath() } catch { return .failed(error) }
        }
        return switch PathAccess.standing(ofDirectory: directory, lockFile: StateStore.lockFileName) {
        case .ready: .ready(path: directory)
        case .canBeCreated: .willBeCreated(path: directory)
        case .cannotBeCreated(let errno), .notWritable(let errno): .failed(.cannotCreateDirectory(path: directory, errno: errno))
        case .notDirectory: .failed(.cannotCreateDirectory(path: directory, errno: .notDirectory))
        case .locked: .failed(.locked(directory: directory))
        }
    }
}
