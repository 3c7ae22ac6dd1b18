import Settings
import YAMLDocument

extension ConfigurationLoader {
    /// The keys of the `mqtt:` section (other tools write configurations with these names).
    static let mqttKeys = ["url", "client_id", "username", "password_file", "password_env", "ca_file", "base", "qos", "discovery", "queue"]
    /// The most events and states kept while the broker is unreachable.
    package static let maximumMQTTQueue = 1_000_000
}

extension ConfigurationReader {
    /// The `mqtt:` section: the broker's URL (required), who we are, where we publish. Checks every
    /// key and value; the password file is read only when the daemon connects.
    func readMQTT(_ node: YAMLNode) throws(ConfigurationError) -> MQTTSettings {
        let key = "mqtt"
        let loose = try reader.mapping(node, key: key, allowed: nil)
        if let (inline, value) = reader.inFileOrder(loose).first(where: { $0.key == "password" || $0.key == "pass" }) {
            throw reader.error(value, "\(key).\(inline)", "never write the password into the configuration: put it in a file readable only by the daemon (`password_file: /etc/gpio-debounce/mqtt-password`) or an environment variable (`password_env: MQTT_PASSWORD`)")
        }
        let fields = try reader.mapping(node, key: key, allowed: ConfigurationLoader.mqttKeys)

        guard let urlNode = fields["url"] else {
            throw reader.error(node, key, "needs `url:`, the broker, e.g. url: mqtt://broker.local (mqtts:// for TLS; port 1883 or 8883 unless given)")
        }
        let urlText = try reader.string(urlNode, key: "\(key).url")
        let transport: MQTTSettings.Transport, host: String, port: Int
        switch MQTTSettings.parseURL(urlText) {
        case .success(let parts): (transport, host, port) = parts
        case .failure(let problem): throw reader.error(urlNode, "\(key).url", "\(ConfigurationLoader.quoted(urlText)) \(problem)")
        }

        let clientID = try fields["client_id"].map { node throws(ConfigurationError) in
            let text = try reader.string(node, key: "\(key).client_id")
            guard text.utf8.count <= 128, !text.contains(" ") else {
                throw reader.error(node, "\(key).client_id", "a client id has at most 128 bytes and no spaces: \(ConfigurationLoader.quoted(text))")
            }
            return text
        }
        let username = try fields["username"].map { node throws(ConfigurationError) in try reader.string(node, key: "\(key).username") }

        var password: MQTTSettings.PasswordSource?
        switch (fields["password_file"], fields["password_env"]) {
        case (let file?, nil):
            let path = try reader.string(file, key: "\(key).password_file")
            guard path.hasPrefix("/") else {
                throw reader.error(file, "\(key).password_file", "write the password file's absolute path (the daemon's working directory is /), e.g. /etc/gpio-debounce/mqtt-password")
            }
            password = .file(path)
        case (nil, let variable?):
            let name = try reader.string(variable, key: "\(key).password_env")
            guard let first = name.unicodeScalars.first, !("0"..."9").contains(first),
                name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") })
            else {
                throw reader.error(variable, "\(key).password_env", "\(ConfigurationLoader.quoted(name)) is not an environment variable's name (letters, digits and _, not starting with a digit), e.g. MQTT_PASSWORD")
            }
            password = .environment(name)
        case (.some(let file), .some):
            throw reader.error(file, key, "give either `password_file:` or `password_env:`, not both")
        case (nil, nil):
            break
        }
        if password != nil, username == nil, let place = fields["password_file"] ?? fields["password_env"] {
            throw reader.error(place, key, "a password needs `username:` too (MQTT sends no password without a user name)")
        }

        var caFile: String?
        if let node = fields["ca_file"] {
            guard transport == .mqtts else {
                throw reader.error(node, "\(key).ca_file", "`ca_file:` is for TLS: write the url as mqtts://\(host.contains(":") ? "[\(host)]" : host) (port 8883 by default), or remove ca_file")
            }
            caFile = try reader.string(node, key: "\(key).ca_file")
        }

        let base = try fields["base"].map { node throws(ConfigurationError) in try topic(node, key: "\(key).base", what: "the base topic") }
        let qos = try fields["qos"].map { node throws(ConfigurationError) in try reader.integer(node, key: "\(key).qos", range: 0...2) } ?? 1
        var discovery = MQTTSettings.Discovery.prefix(MQTTSettings.defaultDiscoveryPrefix)
        if let node = fields["discovery"] {
            let text = try reader.string(node, key: "\(key).discovery")
            if case .scalar(let scalar) = node, scalar.style == .plain, ["false", "False", "FALSE", "off", "no"].contains(text) {
                discovery = .off
            } else if case .scalar(let scalar) = node, scalar.style == .plain, ["true", "True", "TRUE", "on", "yes"].contains(text) {
                discovery = .prefix(MQTTSettings.defaultDiscoveryPrefix)
            } else {
                discovery = .prefix(try topic(node, key: "\(key).discovery", what: "the discovery prefix (or false)"))
            }
        }
        let queue = try fields["queue"].map { node throws(ConfigurationError) in
            try reader.integer(node, key: "\(key).queue", range: 1...ConfigurationLoader.maximumMQTTQueue)
        } ?? MQTTSettings.defaultQueueLimit

        return MQTTSettings(
            transport: transport, host: host, port: port, clientID: clientID, username: username, password: password, caFile: caFile,
            base: base, qos: qos, discovery: discovery, queueLimit: queue)
    }

    /// A topic prefix: no wildcards (`+`, `#`), no leading `$` or `/`, no trailing `/`.
    private func topic(_ node: YAMLNode, key: String, what: String) throws(ConfigurationError) -> String {
        let text = try reader.string(node, key: key)
        guard MQTTSettings.isValidTopic(text), !text.hasPrefix("/"), !text.hasSuffix("/"), !text.contains("//") else {
            throw reader.error(node, key, "\(ConfigurationLoader.quoted(text)) cannot be \(what): topics have no + or #, do not start with $ or /, do not end with /, and have at most 200 bytes, e.g. home/hall-pi")
        }
        return text
    }
}
