import LinuxSys

/// Why the device's API cannot start.
package enum ESPHomeAPIError: Error, Sendable {
    /// The port cannot be listened on (`EADDRINUSE`: another program has it; `EACCES`: below 1024).
    case cannotListen(port: UInt16, SystemError)

    /// What the log says, with what to do.
    package var message: String {
        switch self {
        case .cannotListen(let port, let error) where error.errno == .addressInUse:
            "ESPHome API: port \(port) is taken by another program (an ESPHome device's host build, another gpio-debounce?): "
                + "stop it, or choose another with 'api: port:' (Home Assistant is then told the port by mDNS, or when the device is added by hand)"
        case .cannotListen(let port, let error):
            "ESPHome API: cannot listen on port \(port): \(error)"
        }
    }
}
