import LinuxSys

/// Why the device's API cannot start.
package enum ESPHomeAPIError: Error, Sendable {
    /// The port cannot be listened on (`EADDRINUSE`: another program has it; `EACCES`: below 1024).
    case cannotListen(port: UInt16, SystemError)
    /// The key file (`api: encryption: key_file:`) cannot be read (`code`: its errno), or does not hold
    /// a key (`code` nil).
    case keyFile(path: String, reason: String, code: Int32?)

    /// What the log says, with what to do.
    package var message: String {
        switch self {
        case .cannotListen(let port, let error) where error.errno == .addressInUse:
            "ESPHome API: port \(port) is taken by another program (an ESPHome device's host build, another gpio-debounce?): "
                + "stop it, or choose another with 'api: port:' (Home Assistant is then told the port by mDNS, or when the device is added by hand)"
        case .cannotListen(let port, let error) where error.errno == .permissionDenied:
            "ESPHome API: port \(port) is below 1024, which only root (or a service with CAP_NET_BIND_SERVICE) may listen on: choose another with 'api: port:' (ESPHome's is 6053)"
        case .cannotListen(let port, let error):
            "ESPHome API: cannot listen on port \(port): \(error)"
        case .keyFile(let path, let reason, _):
            "ESPHome API: the key file \(path): \(reason)"
        }
    }
}
