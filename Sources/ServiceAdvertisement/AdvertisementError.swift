/// Why a service is not advertised over mDNS. Never the end of a run: the device works unadvertised,
/// and the message says how to add it by hand or what to install.
package enum AdvertisementError: Error, Sendable, Equatable, CustomStringConvertible {
    /// avahi's client library could not be opened (`dlopen`): `reason` is the loader's.
    case noLibrary(reason: String)
    /// avahi's call `call` failed with `code` (an `AVAHI_ERR_…`), which avahi words as `message`.
    case avahi(call: String, code: Int32, message: String)
    /// The epoll set the library's socket is watched in could not be made.
    case system(String)

    package var description: String {
        switch self {
        case .noLibrary(let reason): "avahi's client library cannot be opened (\(reason)): install it with sudo apt install libavahi-client3 avahi-daemon"
        case .avahi(let call, _, let message): "\(call) failed: \(message)"
        case .system(let reason): reason
        }
    }

    /// Whether the error says no avahi-daemon (or no D-Bus system bus) answers.
    package var isNoDaemon: Bool {
        guard case .avahi(_, let code, _) = self else { return false }
        return code == AvahiErrorCode.noDaemon || code == AvahiErrorCode.dbusError || code == AvahiErrorCode.disconnected
    }
}

/// avahi's error codes this module tells apart (`avahi-common/error.h`).
enum AvahiErrorCode {
    static let collision: Int32 = -8
    static let disconnected: Int32 = -23
    static let noDaemon: Int32 = -26
    static let dbusError: Int32 = -22
}
