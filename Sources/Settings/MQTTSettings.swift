/// What the `mqtt:` section of a configuration says: where the broker is, who we are, where we publish.
/// Pure: building or reading it opens nothing; the password is read from its file or environment
/// variable only when the client connects (`PasswordSource.read()`).
package struct MQTTSettings: Sendable, Hashable {
    /// Plain TCP (`mqtt://`) or TLS (`mqtts://`).
    package enum Transport: String, Sendable, Hashable {
        case mqtt, mqtts

        /// The port when the URL names none: 1883 for `mqtt://`, 8883 for `mqtts://`.
        package var defaultPort: Int { self == .mqtt ? 1883 : 8883 }
    }

    /// Where the password comes from: never the configuration itself.
    package enum PasswordSource: Sendable, Hashable {
        /// A file holding the password (its first line; a final newline is not part of it).
        case file(String)
        /// An environment variable's value.
        case environment(String)
    }

    /// What Home Assistant discovery does.
    package enum Discovery: Sendable, Hashable {
        /// No discovery messages.
        case off
        /// Discovery under this prefix (Home Assistant's default is `homeassistant`).
        case prefix(String)
    }

    package var transport: Transport
    /// The broker's host name or address (an IPv6 address without brackets).
    package var host: String
    /// The broker's TCP port, 1 to 65535.
    package var port: Int
    /// The MQTT client identifier; `gpio-debounce-<hostname>` by default.
    package var clientID: String
    package var username: String?
    package var password: PasswordSource?
    /// A PEM file of the certificate authorities to trust (TLS); `nil`: the system's (`/etc/ssl/certs`).
    package var caFile: String?
    /// The topic every other topic starts with; `gpio-debounce/<hostname>` by default.
    package var base: String
    /// The quality of service of every message: 0, 1 (default) or 2.
    package var qos: Int
    package var discovery: Discovery
    /// How many messages wait while the broker is unreachable (the oldest goes when full); default 1000.
    package var queueLimit: Int
    /// Seconds between the client's keepalive pings; the broker declares us gone after 1.5 times this.
    package var keepaliveSeconds: Int

    package static let defaultQueueLimit = 1000
    package static let defaultKeepaliveSeconds = 30
    package static let defaultDiscoveryPrefix = "homeassistant"

    package init(
        transport: Transport = .mqtt, host: String, port: Int? = nil, clientID: String? = nil, username: String? = nil,
        password: PasswordSource? = nil, caFile: String? = nil, base: String? = nil, qos: Int = 1,
        discovery: Discovery = .prefix(Self.defaultDiscoveryPrefix), queueLimit: Int = Self.defaultQueueLimit,
        keepaliveSeconds: Int = Self.defaultKeepaliveSeconds, hostname: String = Self.localHostname
    ) {
        self.transport = transport
        self.host = host
        self.port = port ?? transport.defaultPort
        self.clientID = clientID ?? "gpio-debounce-\(hostname)"
        self.username = username
        self.password = password
        self.caFile = caFile
        self.base = base ?? "gpio-debounce/\(hostname)"
        self.qos = qos
        self.discovery = discovery
        self.queueLimit = queueLimit
        self.keepaliveSeconds = keepaliveSeconds
    }

    /// What a simulation (`run --simulate`) publishes with: never a live installation's identity. The
    /// client identifier `<clientID>-simulation` (a broker disconnects a client when another connects
    /// with its identifier: the live daemon would be thrown off), the base topic `<base>-simulation`
    /// (the live daemon's retained states and availability stay as they are), and, through the client
    /// identifier, a Home Assistant device and entities of its own (`<device>_simulation_<name>`), so
    /// that automations on the real entities never run on simulated presses. The broker, the
    /// credentials and the discovery prefix are the configuration's.
    package var simulation: MQTTSettings {
        var settings = self
        settings.clientID += Self.simulationSuffix
        settings.base += Self.simulationSuffix
        return settings
    }

    /// What `simulation` appends to the client identifier and the base topic.
    package static let simulationSuffix = "-simulation"

    /// The broker's address as a URL, for messages: `mqtts://broker.local:8883`.
    package var url: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(transport.rawValue)://\(shownHost):\(port)"
    }

    // MARK: Topics

    /// `<base>/availability`: `online` while connected, `offline` after a clean stop or as the last will.
    package var availabilityTopic: String { "\(base)/availability" }

    /// `<base>/<input>/availability`: `online` while the input's lines are watched, `offline` while a
    /// chip holding one of them is away (unplugged, its driver unloaded). Its entities are available
    /// only while both this and `availabilityTopic` say `online`.
    package func availabilityTopic(input: String) -> String { "\(base)/\(input)/availability" }

    /// `<base>/<input>/<channel>`: what one of an input's channels carries (`InputUpdate`):
    /// `<base>/lights/event` (each event as JSON), `<base>/lights/state` (`pressed` or `released`,
    /// retained), `<base>/volume/position`, `<base>/front_door/state` (`on` or `off`),
    /// `<base>/energy/state` (a counter's total, value and rate as JSON).
    package func topic(input: String, channel: String) -> String { "\(base)/\(input)/\(channel)" }

    /// `<base>/<input>/health`: an input's health (edges, bounces absorbed, glitches rejected, noise
    /// bursts, events lost) as JSON, retained.
    package func healthTopic(input: String) -> String { "\(base)/\(input)/health" }

    /// `<prefix>/status`, where Home Assistant announces itself (`online`): then discovery is sent again.
    package var homeAssistantStatusTopic: String? {
        guard case .prefix(let prefix) = discovery else { return nil }
        return "\(prefix)/status"
    }

    // MARK: Parsing

    /// Splits `mqtt://host[:port]` or `mqtts://host[:port]` (IPv6 in brackets); `nil` and a reason
    /// when it is something else. No path, user or query is allowed.
    package static func parseURL(_ text: String) -> Result<(Transport, host: String, port: Int), URLProblem> {
        let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .failure(.noScheme) }
        guard let transport = Transport(rawValue: parts[0].lowercased()) else { return .failure(.unknownScheme(String(parts[0]))) }
        var rest = parts[1]
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("#") else { return .failure(.hasPath) }
        guard !rest.contains("@") else { return .failure(.hasCredentials) }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return .failure(.badHost) }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return .failure(.badHost) }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { return .failure(.badHost) }
        var port = transport.defaultPort
        if let portText {
            guard let value = Int(portText), (1...65_535).contains(value), portText.allSatisfy(\.isASCII) else {
                return .failure(.badPort(String(portText)))
            }
            port = value
        }
        return .success((transport, String(host), port))
    }

    /// Why a URL was refused, as a sentence for the configuration's error message.
    package enum URLProblem: Error, Sendable, Hashable, CustomStringConvertible {
        case noScheme, unknownScheme(String), hasPath, hasCredentials, badHost, badPort(String)

        package var description: String {
            switch self {
            case .noScheme: "has no scheme: write mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"
            case .unknownScheme(let scheme): "scheme \"\(scheme)\" is not mqtt or mqtts"
            case .hasPath: "has a path, query or fragment: an MQTT URL is only mqtt://HOST[:PORT]"
            case .hasCredentials: "contains a user or password: use the `username:` and `password_file:` keys instead"
            case .badHost: "has no valid host name or address"
            case .badPort(let port): "port \"\(port)\" is not a number from 1 to 65535"
            }
        }
    }

    /// Whether `text` may be a topic level or a base topic: not empty, no `+` `#` wildcards, no NUL,
    /// no leading `$`, at most 200 bytes.
    package static func isValidTopic(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 200 && !text.contains("+") && !text.contains("#") && !text.hasPrefix("$")
            && !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// This machine's host name (`gethostname`), or `localhost` when it has none.
    package static var localHostname: String { Hostname.current }
}
