import CMosquitto

/// Why the MQTT client could not connect or go on, with a message that says what to do.
///
/// Most of these are not fatal to the daemon: the sink logs them and tries again with backoff, since a
/// broker that is down or unreachable now may be back later. A refused password or certificate will
/// not heal by itself, but retrying costs nothing and the message says what to fix.
package enum MQTTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The password file cannot be read (`errno` text; `code` is the `errno`, 0 for an empty file), or is empty.
    case passwordFile(path: String, reason: String, code: Int32 = 0)
    /// The password's environment variable is not set or empty.
    case passwordEnvironment(name: String)
    /// The CA file cannot be used (missing, unreadable, not PEM; `code` is the `errno` of opening it, else 0).
    case caFile(path: String, reason: String, code: Int32 = 0)
    /// The broker refused the CONNECT: MQTT 3.1.1 return code `code` (4: bad user name or password,
    /// 5: not authorized, 2: identifier rejected, 3: server unavailable).
    case refused(code: Int32, username: String?)
    /// The TLS handshake failed: the broker's certificate is not trusted or does not name the host.
    case tls(host: String)
    /// The host name does not resolve: `reason` is the resolver's (`gai_strerror`), if known.
    case lookup(host: String, reason: String?)
    /// The connection could not be made or was lost (`errno` text or libmosquitto's reason).
    case connection(url: String, reason: String)
    /// libmosquitto itself failed (out of memory, an invalid argument): `call` and its error's text.
    case library(call: String, reason: String)

    package var description: String {
        switch self {
        case .passwordFile(let path, let reason, _):
            "cannot read the MQTT password file \(path): \(reason) (check password_file; it holds the password on its first line)"
        case .passwordEnvironment(let name):
            "the environment variable \(name) holds no MQTT password (check password_env, and that the service sets it)"
        case .caFile(let path, let reason, _):
            "cannot use the CA file \(path): \(reason) (check ca_file: a PEM file of the certificate authority that signed the broker's certificate)"
        case .refused(let code, let username):
            switch code {
            case 4:
                username == nil
                    ? "the broker requires a username and password (set username: and password_file:)"
                    : "the broker refused the username or password (check password_file)"
            case 5:
                username == nil
                    ? "the broker refused the connection: not authorized (it may require a username: and password_file:)"
                    : "the broker refused the username or password (check password_file), or does not let this user connect (check username: and the broker's ACL)"
            case 2: "the broker rejected the client identifier (set another client_id:)"
            case 3: "the broker is unavailable (it refused the connection; it may be starting or overloaded)"
            case 1: "the broker does not speak MQTT 3.1.1 (use a broker of MQTT 3.1.1 or later)"
            default: "the broker refused the connection (return code \(code))"
            }
        case .tls(let host):
            "the TLS handshake with \(host) failed: the broker's certificate is not signed by the CA in ca_file, has expired, or does not name \(host) (check ca_file and the url's host name)"
        case .lookup(let host, let reason):
            "cannot resolve the broker's host name \(host)\(reason.map { ": \($0)" } ?? "") (check url:, and DNS or /etc/hosts on this machine)"
        case .connection(let url, let reason):
            "cannot reach the MQTT broker at \(url): \(reason) (is it running, and is the port right?)"
        case .library(let call, let reason):
            "libmosquitto: \(call) failed: \(reason)"
        }
    }

    /// libmosquitto's text for a `MOSQ_ERR_*` code (`mosquitto_strerror`; `library`: the one the client
    /// opened, else the shared one if it is open), the system's for `MOSQ_ERR_ERRNO`.
    static func text(_ code: Int32, errno: Int32, library: MosquittoLibrary? = try? MosquittoLibrary.loaded()) -> String {
        if code == Int32(MOSQ_ERR_ERRNO.rawValue), let text = strerror(errno) { return String(cString: text) }
        guard let text = library?.strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
