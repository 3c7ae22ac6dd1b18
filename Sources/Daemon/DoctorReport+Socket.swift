#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ConfigurationFile
import LinuxSys
import Settings

extension DoctorInputs {
    /// What connecting to the events socket gave (`connect(2)`, then closed: nothing is read).
    package struct SocketProbe: Sendable, Hashable {
        package enum Outcome: Sendable, Hashable {
            /// A daemon listens, and this user may read it.
            case listening
            /// A daemon listens, and this user may not open the socket.
            case denied
            /// No daemon listens there (no socket, or one left by a run that ended).
            case notListening
        }

        package var path: String
        package var outcome: Outcome
        /// The socket's group when it is there, else the one `run` gives it (`socket: {group:}`, or the
        /// package's group when it exists); nil: the run's own, or root's.
        package var group: String?

        package init(path: String, outcome: Outcome, group: String?) {
            self.path = path
            self.outcome = outcome
            self.group = group
        }
    }
}

extension DoctorProbes {
    /// Connects to the socket `settings` name and closes it; the group of the socket, or of the one
    /// `run` would make. Nil when the configuration turns the socket off.
    package static func eventSocket(_ settings: EventSocketSettings) -> DoctorInputs.SocketProbe? {
        guard settings.enabled else { return nil }
        var status = stat()
        let there = stat(settings.path, &status) == 0
        let packageGroup = getgrnam(EventSocketSettings.packageGroup) != nil ? EventSocketSettings.packageGroup : nil
        let group = there ? (status.st_gid == 0 ? nil : getgrgid(status.st_gid)).flatMap { $0.pointee.gr_name.map { String(cString: $0) } } : settings.group ?? packageGroup
        let outcome: DoctorInputs.SocketProbe.Outcome
        do {
            _ = try UnixSocket.connect(to: settings.path)
            outcome = .listening
        } catch {
            outcome = error.errno == .permissionDenied || error.errno == .notPermitted ? .denied : .notListening
        }
        return DoctorInputs.SocketProbe(path: settings.path, outcome: outcome, group: group)
    }
}

extension DoctorReport {
    /// The events socket: whether a daemon listens on it, who may read it, and whether this user may.
    static func eventSocket(_ inputs: DoctorInputs) -> [DoctorFinding] {
        guard let probe = inputs.socket else { return [] }
        let user = inputs.user
        let who = "the user \(user.name)"
        let readers = probe.group.map { "root and the group \($0)" } ?? "root and the run's own group"
        let join = probe.group.map { "join the group: sudo usermod -aG \($0) \(user.name), then log in again" } ?? "run as root, or give the socket a group (socket: {group: …})"
        let member = user.isRoot || probe.group.map(user.groups.contains) == true
        switch probe.outcome {
        case .listening:
            return [.ok("socket", "a daemon listens on \(probe.path) and \(who) may read it (gpio-debounce events, status)")]
        case .denied:
            return [.warning("socket", "a daemon listens on \(probe.path), and \(who) may not read it: only \(readers) may", toDo: join)]
        case .notListening where member:
            return [.ok("socket", "no daemon listens on \(probe.path) now; run makes it, for \(readers), \(who) among them")]
        case .notListening:
            return [.ok("socket", "no daemon listens on \(probe.path) now; run makes it, for \(readers): for \(who) to read it, \(join)")]
        }
    }
}
