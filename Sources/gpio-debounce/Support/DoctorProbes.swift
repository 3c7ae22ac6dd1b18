#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CounterState
import Daemon
import LinuxSys
import SystemPackage

/// What `doctor` looks at on this machine, each a small read of the system for `DoctorInputs`:
/// nothing here requests a line, makes a device, creates a directory or speaks MQTT.
enum DoctorProbes {
    /// Where a udev rule giving the gpio group the chips is looked for: this package's rule where
    /// the Debian package and the README install it, and Raspberry Pi OS's own.
    static let udevRulePaths = [
        "/etc/udev/rules.d/60-gpio-debounce.rules", "/usr/lib/udev/rules.d/60-gpio-debounce.rules", "/lib/udev/rules.d/60-gpio-debounce.rules",
        "/etc/udev/rules.d/99-com.rules", "/usr/lib/udev/rules.d/99-com.rules", "/lib/udev/rules.d/99-com.rules",
    ]
    /// How long one TCP connection to the broker may take (`SO_SNDTIMEO`, which bounds `connect(2)`).
    static let connectTimeoutSeconds = 3

    /// `uname -r` (`uname(2)`'s release), or `unknown`.
    static func kernelRelease() -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "unknown" }
        return withUnsafeBytes(of: &names.release) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The effective user (`getpwuid(geteuid())`) and the process's groups (`getgroups`, `getgrgid`).
    static func user() -> DoctorInputs.User {
        let uid = geteuid()
        let name = getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(uid)"
        let count = getgroups(0, nil)
        var ids = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let read = count > 0 ? getgroups(count, &ids) : 0
        var groups = ids.prefix(Int(max(read, 0))).compactMap { id in getgrgid(id).map { String(cString: $0.pointee.gr_name) } }
        if let primary = getgrgid(getegid()) { groups.append(String(cString: primary.pointee.gr_name)) }
        return DoctorInputs.User(name: name, isRoot: uid == 0, groups: groups)
    }

    /// The udev rule files of `udevRulePaths` that exist.
    static func udevRules() -> [String] {
        udevRulePaths.filter { access($0, F_OK) == 0 }
    }

    /// Opens `/dev/uinput` for writing and closes it (no device is made).
    static func uinput() -> DoctorInputs.UInputProbe {
        let path = UInputDevice.defaultPath
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        if descriptor >= 0 {
            close(descriptor)
            return .opened
        }
        switch errno {
        case ENOENT, ENODEV, ENXIO: return .failed(.missing(path: path))
        case EACCES, EPERM: return .failed(.permissionDenied(path: path))
        case let code: return .unknown(reason: String(cString: strerror(code)))
        }
    }

    /// A TCP connection to `host`:`port`, each address in `getaddrinfo`'s order until one accepts,
    /// each attempt bounded by `connectTimeoutSeconds`; closed at once. Blocks the caller (a one-shot
    /// diagnostic, not the event loop) for at most the resolver's time and the attempts'.
    static func broker(host: String, port: Int) -> DoctorInputs.BrokerProbe {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else { return .unresolved(reason: String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(first) }
        var reason = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let entry = next {
            next = entry.pointee.ai_next
            let address = numericHost(entry.pointee.ai_addr, entry.pointee.ai_addrlen)
            let descriptor = socket(entry.pointee.ai_family, entry.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), entry.pointee.ai_protocol)
            guard descriptor >= 0 else {
                reason = String(cString: strerror(errno))
                continue
            }
            defer { close(descriptor) }
            var timeout = timeval(tv_sec: connectTimeoutSeconds, tv_usec: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var result: Int32
            repeat { result = connect(descriptor, entry.pointee.ai_addr, entry.pointee.ai_addrlen) } while result != 0 && errno == EINTR
            if result == 0 { return .reachable(address: address) }
            let code = errno
            reason = "\(address): " + (code == EINPROGRESS || code == EAGAIN ? "no answer within \(connectTimeoutSeconds) s" : String(cString: strerror(code)))
        }
        return .unreachable(reason: reason)
    }

    /// An address as `getnameinfo(NI_NUMERICHOST)` prints it.
    private static func numericHost(_ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> String {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The counters' state directory (`path`, else `StateDirectory.defaultPath()`): writable, and its
    /// lock (`counters.lock`) free: a shared `flock` taken and dropped at once, which fails while a
    /// run holds its exclusive lock. A missing directory is fine when its nearest existing parent is writable.
    static func stateDirectory(_ path: String?) -> DoctorInputs.StateProbe {
        let directory: String
        if let path {
            directory = path
        } else {
            do throws(CounterStateError) { directory = try StateDirectory.defaultPath() } catch { return .failed(error) }
        }
        var info = stat()
        guard stat(directory, &info) == 0 else {
            var parent = directory
            while true {
                guard let slash = parent.lastIndex(of: "/") else { parent = "."; break }
                parent = slash == parent.startIndex ? "/" : String(parent[..<slash])
                if stat(parent, &info) == 0 || parent == "/" { break }
            }
            if access(parent, W_OK) == 0 { return .willBeCreated(path: directory) }
            return .failed(.cannotCreateDirectory(path: directory, errno: Errno(rawValue: errno)))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return .failed(.cannotCreateDirectory(path: directory, errno: .notDirectory)) }
        guard access(directory, W_OK) == 0 else { return .failed(.cannotCreateDirectory(path: directory, errno: Errno(rawValue: errno))) }
        let lockPath = directory.hasSuffix("/") ? directory + CounterStore.lockFileName : directory + "/" + CounterStore.lockFileName
        let lock = open(lockPath, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        if lock >= 0 {
            defer { close(lock) }
            if flock(lock, LOCK_SH | LOCK_NB) != 0, errno == EWOULDBLOCK { return .failed(.locked(directory: directory)) }
        }
        return .ready(path: directory)
    }
}
