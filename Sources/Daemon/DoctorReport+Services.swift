import ConfigurationFile
import KeptState
import LinuxSys

extension DoctorReport {
    /// `/dev/uinput`, when the configuration has keys (`run` makes a virtual keyboard for them).
    static func keyboard(_ inputs: DoctorInputs) -> [DoctorFinding] {
        guard let configuration = inputs.configuration, needsKeyboard(configuration) else { return [] }
        let path = UInputDevice.defaultPath
        let rule = "udev/60-gpio-debounce.rules (it makes \(path) exist and gives the input group access)"
        switch inputs.uinput {
        case .opened?:
            return [.ok("uinput", "\(path) opens for writing: run can make the keyboard \"\(configuration.keyboard.name)\"")]
        case .failed(let error)?:
            let toDo = switch error {
            case .missing: "install the udev rule \(rule), or load the module: sudo modprobe uinput"
            case .permissionDenied: "install the udev rule \(rule) and add the service's user to the input group (sudo usermod -aG input \(inputs.user.name), then log in again)"
            case .system: "check \(path) (ls -l \(path))"
            }
            return [.blocker("uinput", "keys are configured and \(error.description)", toDo: toDo, .keyboard(error))]
        case .unknown(let reason)?:
            return [.warning("uinput", "keys are configured and opening \(path) failed: \(reason)", toDo: "check \(path) (ls -l \(path)); run fails if it cannot make the keyboard")]
        case nil:
            return [.warning("uinput", "keys are configured; \(path) was not checked", toDo: "run doctor on the machine that runs the configuration")]
        }
    }

    /// The `mqtt:` section: its files read, and the broker reachable over TCP. Authentication is not
    /// checked (it needs an MQTT session): `run`'s log says whether the broker accepts the client.
    static func mqtt(_ inputs: DoctorInputs) -> [DoctorFinding] {
        guard let mqtt = inputs.configuration?.mqtt else { return [] }
        var findings: [DoctorFinding] = []
        if let failure = inputs.mqttFiles {
            findings.append(.blocker("mqtt", failure.description, toDo: "make the file exist and be readable by the service's user", .machine(failure)))
        } else if mqtt.password != nil || mqtt.caFile != nil {
            findings.append(.ok("mqtt", "the password and CA files of the mqtt: section read"))
        }
        let authentication = "authentication and TLS are not checked here: run's log says whether the broker accepts \(mqtt.clientID)"
        switch inputs.broker {
        case .reachable(let address)?:
            findings.append(.ok("mqtt", "\(mqtt.host) port \(mqtt.port) accepts TCP connections (at \(address)); \(authentication)"))
        case .unresolved(let reason)?:
            findings.append(.warning(
                "mqtt", "\(mqtt.host) has no address: \(reason)",
                toDo: "check the host name in \(mqtt.url) and the DNS; run starts anyway and retries the broker"))
        case .unreachable(let reason)?:
            findings.append(.warning(
                "mqtt", "\(mqtt.host) port \(mqtt.port) does not accept a TCP connection: \(reason)",
                toDo: "start the broker, or check the address, port and firewall; run starts anyway and retries the broker"))
        case nil:
            findings.append(.warning("mqtt", "the broker \(mqtt.url) was not tried", toDo: "run doctor on the machine that runs the configuration"))
        }
        return findings
    }

    /// The state directory, when the configuration keeps state (a meter's total, or an encoder's
    /// position with `restore: true`): writable, and not held by another run.
    static func state(_ inputs: DoctorInputs) -> [DoctorFinding] {
        guard let configuration = inputs.configuration, configuration.keepsState else { return [] }
        switch inputs.state {
        case .ready(let path)?:
            return [.ok("state", "the state directory \(path) is writable and no other run holds it")]
        case .willBeCreated(let path)?:
            return [.ok("state", "the state directory \(path) does not exist yet; run creates it (its parent is writable)")]
        case .failed(let error)?:
            let toDo = switch error {
            case .locked: "another gpio-debounce run counts into it: stop it (sudo systemctl stop gpio-debounce), or give this one --state-dir"
            case .noStateDirectory: "give run --state-dir DIR (or set STATE_DIRECTORY)"
            default: "make the directory writable by the service's user (systemd's StateDirectory=gpio-debounce does), or give run --state-dir DIR"
            }
            return [.blocker("state", error.description, toDo: toDo, .keptState(error))]
        case nil:
            return [.warning("state", "the state directory was not checked", toDo: "run doctor on the machine that runs the configuration")]
        }
    }
}
