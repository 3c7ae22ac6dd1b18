#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSys
import SystemPackage

/// Makes the events socket at a path: a stale one (its daemon gone) is replaced, a live one refused;
/// its permissions and group set as the configuration says.
enum EventSocketListener {
    /// A socket listening at `path` with permissions `mode`, of group `group` (nil: `defaultGroup` when
    /// that group exists, else the process's own), owned by the caller. `makesDirectory`: its directory
    /// is made (0755) when it is not there.
    static func listen(
        at path: String, mode: UInt32, group: String?, defaultGroup: String?, makesDirectory: Bool
    ) throws(EventSocketError) -> OwnedDescriptor {
        try checkFree(path)
        if makesDirectory, let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let directory = String(path[..<slash])
            if mkdir(directory, 0o755) != 0, errno != EEXIST { throw .cannotMake(path: path, SystemError("mkdir(\(directory))", Errno(rawValue: errno))) }
        }
        let gid: gid_t?
        if let group {
            guard let entry = getgrnam(group) else { throw .noGroup(group, path: path) }
            gid = entry.pointee.gr_gid
        } else {
            gid = defaultGroup.flatMap { getgrnam($0)?.pointee.gr_gid }
        }
        let socket: OwnedDescriptor
        do { socket = try UnixSocket.listen(at: path) } catch { throw .cannotMake(path: path, error) }
        // The mode and group are set before the first client can be let in: none is accepted before the loop runs.
        guard chmod(path, mode_t(mode)) == 0 else { throw .cannotMake(path: path, SystemError("chmod(\(path))", Errno(rawValue: errno))) }
        if let gid, chown(path, uid_t.max, gid) != 0 { throw .cannotMake(path: path, SystemError("chown(\(path))", Errno(rawValue: errno))) }
        return socket
    }

    /// Throws when a socket cannot be made at `path`: too long, something else there, or another
    /// process listening there; removes a socket no process listens on any more.
    static func checkFree(_ path: String) throws(EventSocketError) {
        guard path.utf8.count <= UnixSocket.maximumPathBytes else { throw .tooLong(path) }
        try replaceStale(path)
    }

    /// Removes a socket at `path` that no process listens on any more; throws when one does, or when
    /// `path` is something else.
    private static func replaceStale(_ path: String) throws(EventSocketError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & 0o170000 == 0o140000 else { throw .notASocket(path) }
        do {
            _ = try UnixSocket.connect(to: path)
            throw EventSocketError.inUse(path)
        } catch let error as EventSocketError {
            throw error
        } catch {
            // Refused: a socket left by a daemon that did not end cleanly.
            if unlink(path) != 0, errno != ENOENT { throw .cannotMake(path: path, SystemError("unlink(\(path))", Errno(rawValue: errno))) }
        }
    }
}
