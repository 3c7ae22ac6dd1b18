#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// A file written beside its destination and put in its place only when complete, so that a failed
/// command never destroys what the user had: `open` creates `DIR/.NAME.XXXXXX` (`mkstemp`, mode 0644
/// after `fchmod`), the caller writes through `descriptor`, and `commit()` flushes it to disk (`fsync`)
/// and renames it over the destination (`rename(2)`, atomic). `abandon()` (or dropping the object
/// without committing) removes the temporary file; `keep(as:)` renames it elsewhere instead.
package final class AtomicFile {
    /// The path the file will have once committed.
    package let destination: String
    /// Where it is written meanwhile.
    package let temporaryPath: String
    /// The temporary file, open for writing. Owned by this object.
    package let owned: OwnedDescriptor
    private var finished = false

    /// Creates the temporary file beside `destination`. Fails as opening `destination` would (no such
    /// directory, permission denied), with the destination's name in the error.
    package init(destination: String) throws(SystemError) {
        self.destination = destination
        let slash = destination.lastIndex(of: "/")
        let directory = slash.map { String(destination[...$0]) } ?? ""
        let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        var template = Array("\(directory).\(name).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw SystemError("creating '\(destination)'", Errno(rawValue: errno)) }
        temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        owned = OwnedDescriptor(FileDescriptor(rawValue: descriptor))
        _ = fchmod(descriptor, 0o644)
    }

    /// The descriptor to write to.
    package var descriptor: FileDescriptor { owned.descriptor }

    /// Makes the written file the destination: `fsync`, `close`, `rename`.
    package func commit() throws(SystemError) {
        guard !finished else { return }
        finished = true
        if fsync(owned.descriptor.rawValue) != 0 {
            let code = Errno(rawValue: errno)
            owned.close()
            unlink(temporaryPath)
            throw SystemError("writing '\(destination)'", code)
        }
        owned.close()
        guard rename(temporaryPath, destination) == 0 else {
            let code = Errno(rawValue: errno)
            unlink(temporaryPath)
            throw SystemError("replacing '\(destination)'", code)
        }
    }

    /// Keeps what was written under `path` instead (e.g. a partial recording), leaving the destination
    /// untouched.
    package func keep(as path: String) throws(SystemError) {
        guard !finished else { return }
        finished = true
        _ = fsync(owned.descriptor.rawValue)
        owned.close()
        guard rename(temporaryPath, path) == 0 else { throw SystemError("keeping '\(path)'", Errno(rawValue: errno)) }
    }

    /// Removes the temporary file; the destination stays as it was.
    package func abandon() {
        guard !finished else { return }
        finished = true
        owned.close()
        unlink(temporaryPath)
    }

    deinit { abandon() }
}
