#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// Small questions about paths, each one system call or a few, for diagnostics (`doctor`): none
/// creates, changes or keeps anything.
package enum PathAccess {
    /// Whether `path` exists (`access(F_OK)`); a dangling symbolic link does not.
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Opens `path` for writing without blocking and closes it at once (`open(O_WRONLY|O_NONBLOCK)`):
    /// whether this process could write to a device such as `/dev/uinput`. Throws why not.
    package static func openForWriting(_ path: String) throws(Errno) {
        let descriptor = try retryingInterrupts { open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }
        close(descriptor)
    }

    /// How a directory this process would keep files in stands, with `lockFile` in it (a file another
    /// process holds an exclusive `flock` on while it uses the directory).
    package enum DirectoryStanding: Sendable, Hashable {
        /// It exists, this process may write in it, and no one holds its lock.
        case ready
        /// It does not exist, and its nearest existing parent is writable: it can be made.
        case canBeCreated
        /// It does not exist, and its nearest existing parent is not writable (the parent's `errno`).
        case cannotBeCreated(Errno)
        /// It exists and is not a directory.
        case notDirectory
        /// It is a directory this process may not write in (`access(W_OK)`'s `errno`).
        case notWritable(Errno)
        /// Another open file holds an exclusive lock on `lockFile` (a shared `flock`, taken and dropped
        /// at once, would block).
        case locked
    }

    /// How `directory` stands, with `lockFile` (a name in it).
    package static func standing(ofDirectory directory: String, lockFile: String) -> DirectoryStanding {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            var parent = directory
            while true {
                guard let slash = parent.lastIndex(of: "/") else { parent = "."; break }
                parent = slash == parent.startIndex ? "/" : String(parent[..<slash])
                if stat(parent, &info) == 0 || parent == "/" { break }
            }
            return access(parent, W_OK) == 0 ? .canBeCreated : .cannotBeCreated(Errno(rawValue: errno))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return .notDirectory }
        guard access(directory, W_OK) == 0 else { return .notWritable(Errno(rawValue: errno)) }
        let lockPath = directory.hasSuffix("/") ? directory + lockFile : directory + "/" + lockFile
        let lock = open(lockPath, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard lock >= 0 else { return .ready }
        defer { close(lock) }
        return flock(lock, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK ? .locked : .ready
    }
}
