import ServiceAdvertisement
import ConfigurationFile
import KeptState
import GPIODBackend
import LinuxSys

/// What `doctor` looked at on this machine, as values (`DoctorReport` judges them): the command
/// gathers them (`uname`, the chips, the user's groups, opening `/dev/uinput`, a TCP connection to the
/// broker, the state directory's lock), tests give them.
package struct DoctorInputs {
    /// The user `doctor` runs as: `run` may run as another (the service's `User=`).
    package struct User: Sendable, Hashable {
        package var name: String
        package var isRoot: Bool
        /// The names of the groups the process is in (`getgroups`), as the kernel sees them now:
        /// a group joined since the last login is not among them.
        package var groups: [String]

        package init(name: String, isRoot: Bool, groups: [String]) {
            self.name = name
            self.isRoot = isRoot
            self.groups = groups
        }
    }

    /// What opening `/dev/uinput` for writing (`open(2)`, then closed: no device is made) gave.
    package enum UInputProbe: Sendable, Hashable {
        case opened
        case failed(UInputError)
        /// It failed for another reason (`strerror`'s text).
        case unknown(reason: String)
    }

    /// What a TCP connection to the broker's host and port gave (no MQTT was spoken).
    package enum BrokerProbe: Sendable, Hashable {
        /// The connection was accepted at `address`.
        case reachable(address: String)
        /// The host name has no address (`getaddrinfo`'s reason).
        case unresolved(reason: String)
        /// No address accepted a connection (`connect`'s reason for the last one tried, e.g. timed out).
        case unreachable(reason: String)
    }

    /// How the state directory stands for `run`.
    package enum StateProbe: Sendable, Hashable {
        /// The directory exists, is writable and no run holds its lock.
        case ready(path: String)
        /// The directory does not exist; its nearest existing parent is writable, so `run` makes it.
        case willBeCreated(path: String)
        /// `run` would fail to use it (`locked`, `cannotCreateDirectory`, `noStateDirectory`).
        case failed(KeptStateError)
    }

    /// `uname -r`, e.g. `6.6.51+rpt-rpi-v8`.
    package var kernelRelease: String
    /// `LibgpiodVersion.description` and `LibgpiodVersion.apiMajor`.
    package var libgpiod: String
    package var libgpiodAPIMajor: Int
    package var chips: ChipInventory
    /// The configuration (`--config`), if one was given.
    package var configuration: ServiceConfiguration?
    /// The lines named on the command line, on `lineChip` (nil: as `watch` finds them).
    package var lines: [String]
    package var lineChip: String?
    package var user: User
    /// Where the udev rule for the `gpio` group was found (empty: nowhere).
    package var udevRules: [String]
    /// What reading the `mqtt:` section's files gave (`MachineCheck.readConfiguredFiles`): nil when they
    /// read, or without an `mqtt:` section.
    package var mqttFiles: MachineCheck.Failure?
    /// Checked only when the configuration has keys (`DoctorReport.needsKeyboard`).
    package var uinput: UInputProbe?
    /// Checked only when the configuration has an `mqtt:` section.
    package var broker: BrokerProbe?
    /// Checked only when the configuration keeps state (`ServiceConfiguration.keepsState`).
    package var state: StateProbe?
    /// Whether the `api:` section's device is advertised over mDNS now (avahi-daemon asked); nil when
    /// the configuration has no `api:` or it was not asked.
    package var advertisement: AdvertisementProbe?

    /// The `api:` device's mDNS advertisement as avahi-daemon has it.
    package struct AdvertisementProbe: Sendable, Hashable {
        /// The machine's host name (`kitchen-pi`), the device's name and the service it is advertised as.
        package var hostName: String
        package var deviceName: String
        package var service: String
        package var outcome: MDNSServiceProbe.Outcome

        package init(hostName: String, deviceName: String, service: String, outcome: MDNSServiceProbe.Outcome) {
            self.hostName = hostName
            self.deviceName = deviceName
            self.service = service
            self.outcome = outcome
        }
    }
    /// The events socket (`socket:`, or the default path without a configuration); nil when the
    /// configuration turns it off.
    package var socket: SocketProbe?

    package init(
        kernelRelease: String, libgpiod: String, libgpiodAPIMajor: Int, chips: ChipInventory, configuration: ServiceConfiguration? = nil,
        lines: [String] = [], lineChip: String? = nil, user: User, udevRules: [String] = [], mqttFiles: MachineCheck.Failure? = nil,
        uinput: UInputProbe? = nil, broker: BrokerProbe? = nil, state: StateProbe? = nil, socket: SocketProbe? = nil,
        advertisement: AdvertisementProbe? = nil
    ) {
        self.kernelRelease = kernelRelease
        self.libgpiod = libgpiod
        self.libgpiodAPIMajor = libgpiodAPIMajor
        self.chips = chips
        self.configuration = configuration
        self.lines = lines
        self.lineChip = lineChip
        self.user = user
        self.udevRules = udevRules
        self.mqttFiles = mqttFiles
        self.uinput = uinput
        self.broker = broker
        self.state = state
        self.socket = socket
        self.advertisement = advertisement
    }
}
