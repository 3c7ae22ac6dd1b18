#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxSys
import SystemPackage

/// Watches files for deletion and attribute changes, or a directory for files appearing in it
/// (`inotify(7)`): readable when one of them changed. Used to notice a GPIO chip's device file going
/// away, which Linux 6.1 does not signal to readers, and a missing chip's device file appearing.
package final class FileWatch {
    /// Readable after a change. Owned by this object.
    package let owned: OwnedDescriptor

    /// Watches `paths` (`inotify_init1`, then `inotify_add_watch` with `IN_DELETE_SELF | IN_ATTRIB`).
    package init(paths: [String]) throws(SystemError) {
        owned = try OwnedDescriptor(operation: "inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        for path in paths {
            guard inotify_add_watch(owned.descriptor.rawValue, path, UInt32(IN_DELETE_SELF | IN_ATTRIB)) >= 0 else {
                throw SystemError("watching \(path)", Errno(rawValue: errno))
            }
        }
    }

    /// Watches `directory` for files created, moved in or deleted and for their attributes changing
    /// (`inotify_add_watch` with `IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_ATTRIB`): `/dev`, where
    /// udev makes a chip's device file and then gives it its group, and the kernel removes it.
    package init(directory: String) throws(SystemError) {
        owned = try OwnedDescriptor(operation: "inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        guard inotify_add_watch(owned.descriptor.rawValue, directory, UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_ATTRIB)) >= 0 else {
            throw SystemError("watching \(directory)", Errno(rawValue: errno))
        }
    }

    /// The descriptor to poll.
    package var descriptor: FileDescriptor { owned.descriptor }

    /// Reads and discards every pending change notice.
    package func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(owned.descriptor.rawValue, $0.baseAddress, $0.count) }) > 0 {}
    }
}
