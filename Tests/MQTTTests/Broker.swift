import Foundation
import LinuxSys
import Testing

/// A private Mosquitto broker for one test: Debian's `mosquitto` on 127.0.0.1 and a free port, its
/// configuration, persistence, password file and certificates in a temporary directory (the
/// system's mosquitto service is never used). Skips nothing: a missing broker fails the test with
/// what to install.
final class Broker: @unchecked Sendable {
    let directory: URL
    let port: Int
    private(set) var process: ProcessGroup?
    private let configuration: String

    /// What the broker should require.
    struct Options {
        /// user → password; anonymous clients are refused when set.
        var users: [String: String] = [:]
        /// An ACL file's text (with `users`).
        var acl: String?
        /// Serve TLS with this certificate and key (PEM paths), trusting `caFile`.
        var tls: (certificate: String, key: String, caFile: String)?
    }

    init(_ options: Options = Options()) throws {
        for program in ["/usr/sbin/mosquitto", "/usr/bin/mosquitto_sub", "/usr/bin/mosquitto_pub", "/usr/bin/mosquitto_passwd"] {
            guard FileManager.default.isExecutableFile(atPath: program) else {
                throw BrokerError("\(program) is missing: the MQTT tests need a real broker (apt-get install mosquitto mosquitto-clients)")
            }
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mqtt-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try Self.freePort()
        var lines = [
            "listener \(port) 127.0.0.1",
            "persistence true",
            "persistence_location \(directory.path)/",
            "autosave_interval 1",
            "log_dest file \(directory.path)/mosquitto.log",
            "log_type all",
            "user \(NSUserName())",
        ]
        if options.users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            let passwords = directory.appendingPathComponent("passwords").path
            _ = FileManager.default.createFile(atPath: passwords, contents: nil)
            for (user, password) in options.users {
                try Self.run("/usr/bin/mosquitto_passwd", ["-b", passwords, user, password])
            }
            lines += ["allow_anonymous false", "password_file \(passwords)"]
            if let acl = options.acl {
                let aclPath = directory.appendingPathComponent("acl").path
                try acl.write(toFile: aclPath, atomically: true, encoding: .utf8)
                lines.append("acl_file \(aclPath)")
            }
        }
        if let tls = options.tls {
            lines += ["certfile \(tls.certificate)", "keyfile \(tls.key)", "cafile \(tls.caFile)"]
        }
        configuration = directory.appendingPathComponent("mosquitto.conf").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: configuration, atomically: true, encoding: .utf8)
        try start()
    }

    deinit {
        stop(signal: SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the broker and waits until it accepts connections (at most `seconds`). A broker that
    /// exits at once (its port is briefly held: a client's reconnect attempt to a dead port may bind
    /// that very port as its own source port, or an old socket lingers) is started again.
    func start(seconds: Double = 15) throws {
        let end = Date().addingTimeInterval(seconds)
        process = try Self.spawn(["/usr/sbin/mosquitto", "-c", configuration], output: "/dev/null")
        while Date() < end {
            if Self.accepts(port: port) { return }
            if process?.reap() != nil {
                Thread.sleep(forTimeInterval: 0.2)
                process = try Self.spawn(["/usr/sbin/mosquitto", "-c", configuration], output: "/dev/null")
                continue
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw BrokerError("mosquitto did not start on port \(port) within \(seconds) s; see \(directory.path)/mosquitto.log")
    }

    /// Stops the broker with `signal` and waits for it (SIGTERM: it saves its sessions first).
    func stop(signal: Int32 = SIGTERM) {
        guard let process else { return }
        process.signal(signal)
        guard signal != SIGSTOP else { return }
        if signal != SIGKILL { process.signal(SIGCONT) }
        _ = process.reap(waiting: true)
        self.process = nil
    }

    /// The broker's log so far.
    var log: String { (try? String(contentsOfFile: "\(directory.path)/mosquitto.log", encoding: .utf8)) ?? "" }

    /// A file in the test's directory.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    // MARK: Helpers

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw BrokerError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return false }
        // With nobody listening, a connect whose source port happens to be `port` itself connects
        // to itself (TCP simultaneous open): that is not the broker.
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &local) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        return named && Int(UInt16(bigEndian: local.sin_port)) != port
    }

    /// Runs a program to its end; throws if it fails. Returns its standard output.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], check: Bool = true) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("mqtt-run-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = try spawn([program] + arguments, output: output)
        let exit = process.reap(waiting: true)
        guard exit == .exited(code: 0) || !check else { throw BrokerError("\(program) \(arguments.joined(separator: " ")) ended: \(String(describing: exit))") }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// Starts `arguments` in a process group of its own (LinuxSys's `ProcessGroup`, no Foundation
    /// `Process`), standard output to the file `output`, standard error to /dev/null.
    static func spawn(_ arguments: [String], output: String) throws -> ProcessGroup {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try ProcessGroup.spawn(
            arguments: ["/bin/sh", "-c", "exec \(quoted) > '\(output)' 2>/dev/null"], environment: ProcessGroup.currentEnvironment(without: []))
    }
}

struct BrokerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `mosquitto_sub` in the background with a persistent QoS 1 session, writing `retained<TAB>topic<TAB>payload` lines.
final class Subscriber: @unchecked Sendable {
    let output: String
    private let process: ProcessGroup

    /// Subscribes to `topics` on `broker` (registered before this returns: nothing published later is missed).
    init(_ broker: Broker, topics: [String], name: String = "sub", extra: [String] = []) throws {
        output = broker.path("\(name).txt")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let id = "test-\(name)-\(getpid())"
        var common = ["-h", "127.0.0.1", "-p", String(broker.port), "-i", id, "-c", "-q", "1"] + extra
        for topic in topics { common += ["-t", topic] }
        try Broker.run("/usr/bin/mosquitto_sub", common + ["-E"])
        process = try Broker.spawn(["/usr/bin/mosquitto_sub"] + common + ["-F", "%r\t%t\t%p"], output: output)
    }

    deinit {
        process.signal(SIGKILL)
        _ = process.reap(waiting: true)
    }

    /// Lines received so far: (retained, topic, payload).
    var messages: [(retained: Bool, topic: String, payload: String)] {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { return nil }
            return (parts[0] == "1", String(parts[1]), String(parts[2]))
        }
    }

    /// Waits until `done` holds for the messages, at most `seconds`.
    @discardableResult
    func wait(seconds: Double = 10, until done: ([(retained: Bool, topic: String, payload: String)]) -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if done(messages) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return done(messages)
    }
}
