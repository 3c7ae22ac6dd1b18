import ConfigurationFile
import KeptState
import EventLoop
import ESPHomeDevice
import EventSocket
import GPIODBackend
import LineInput
import LinuxSys
import MQTT

/// Why the daemon cannot be assembled: each case is a layer's error, which says what to fix; the
/// CLI's exit codes map each of them (`ExitStatus.of(_: DaemonFailure)`).
package enum DaemonFailure: Error, CustomStringConvertible {
    /// The configuration cannot run on this machine: its MQTT files, or a line not found or shared.
    case machine(MachineCheck.Failure)
    /// The configured lines cannot be requested.
    case lines(GPIOError)
    /// The state directory or file cannot be used.
    case keptState(KeptStateError)
    /// The virtual keyboard cannot be made.
    case keyboard(UInputError)
    /// The MQTT sink cannot be made from the `mqtt:` section.
    case mqtt(MQTTError)
    /// A run in virtual time with an `mqtt:` section: MQTT counts on the real clock.
    case mqttNeedsRealTime
    /// A line's initial level cannot be read as the loop starts.
    case start(LineError)
    /// The events socket the configuration names cannot be made (`socket:`).
    case eventSocket(EventSocketError)
    /// The device's ESPHome API cannot start (`api:`): its port taken, its key file unreadable.
    case espHomeAPI(ESPHomeAPIError)

    package var description: String {
        switch self {
        case .machine(let failure): failure.description
        case .lines(let error): error.description
        case .keptState(let error): error.description
        case .keyboard(let error): error.description
        case .mqtt(let error): error.description
        case .mqttNeedsRealTime:
            "MQTT needs real time (its keepalive and reconnects count on the clock): leave out the mqtt: section for a virtual-time run"
        case .start(let error): error.description
        case .eventSocket(let error): error.description
        case .espHomeAPI(let error): error.message
        }
    }
}
