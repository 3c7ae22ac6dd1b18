#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// Where `gpio-debounce run` keeps state across runs (a meter's total, a restored encoder's position: `StateStore`).
package enum StateDirectory {
    /// The system's state directory, for a run as root.
    package static let systemPath = "/var/lib/gpio-debounce"
    /// The environment variables `defaultPath` reads.
    package static let variables = ["STATE_DIRECTORY", "XDG_STATE_HOME", "HOME"]

    /// The default state directory, a pure function of the effective user id and the environment
    /// (`environment[name]` is a variable's value; an empty value counts as unset):
    /// - `$STATE_DIRECTORY` when set (systemd's `StateDirectory=` sets it to the directory itself,
    ///   e.g. /var/lib/gpio-debounce; when it lists several, separated by `:`, the first);
    /// - else for root (`effectiveUserID` 0), `/var/lib/gpio-debounce`;
    /// - else `$XDG_STATE_HOME/gpio-debounce` when that is an absolute path (the XDG base directory
    ///   specification ignores a relative one), else `$HOME/.local/state/gpio-debounce`.
    /// Throws `KeptStateError.noStateDirectory` when none of these applies.
    package static func defaultPath(effectiveUserID: UInt32, environment: [String: String]) throws(KeptStateError) -> String {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let systemd = value("STATE_DIRECTORY"), let first = systemd.split(separator: ":").first {
            return String(first)
        }
        if effectiveUserID == 0 { return systemPath }
        if let xdg = value("XDG_STATE_HOME"), xdg.hasPrefix("/") { return joined(xdg, "gpio-debounce") }
        if let home = value("HOME") { return joined(home, ".local/state/gpio-debounce") }
        throw .noStateDirectory
    }

    /// `defaultPath` for this process: `geteuid()` and the variables read with `getenv`.
    package static func defaultPath() throws(KeptStateError) -> String {
        var environment: [String: String] = [:]
        for name in variables {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return try defaultPath(effectiveUserID: UInt32(geteuid()), environment: environment)
    }

    /// Makes sure `path` is a directory, creating it and any missing parents (`mkdir(2)`, mode 0755
    /// before the umask) like `mkdir -p`. Throws `KeptStateError.cannotCreateDirectory` with the
    /// first path that could not be made (`ENOTDIR` when it, or a parent, exists but is not a directory).
    package static func create(_ path: String) throws(KeptStateError) {
        guard !path.isEmpty else { throw .cannotCreateDirectory(path: path, errno: .noSuchFileOrDirectory) }
        if isDirectory(path) { return }
        // Each prefix ending before a `/`, then the whole path: "/a/b" → "/a", "/a/b".
        var prefixes: [String] = []
        var index = path.startIndex
        while let slash = path[index...].firstIndex(of: "/") {
            if slash != path.startIndex { prefixes.append(String(path[..<slash])) }
            index = path.index(after: slash)
        }
        prefixes.append(path)
        for prefix in prefixes where !prefix.hasSuffix("/") {
            if mkdir(prefix, 0o755) == 0 { continue }
            let code = errno
            if code == EEXIST, isDirectory(prefix) { continue }
            throw .cannotCreateDirectory(path: prefix, errno: Errno(rawValue: code == EEXIST ? ENOTDIR : code))
        }
    }

    /// Whether `path` is a directory (following symbolic links, as `mkdir -p` does).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    private static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
