#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSys
import SystemPackage

/// The store's file system calls: the directory's lock, the leftovers of cut-off writes, reading a
/// state file and writing one atomically. Every file (`counters`, `positions`) goes through these.
extension StateStore {
    /// Removes the temporary files a write of one of `files` cut off by `kill -9` or a power cut left
    /// in `directory` (`AtomicFile`'s `.counters.XXXXXX`, regular files only; `opendir`, `readdir`,
    /// `lstat`, `unlink`), while this store holds the lock, so no other run is writing one. Returns
    /// their names. A file this run keeps nothing in keeps its leftover until a run that does starts.
    /// A directory that cannot be listed is left alone: reading the file says what is wrong.
    static func removeUnfinishedWrites(in directory: String, of files: [StateFile]) -> [String] {
        guard let listing = opendir(directory) else { return [] }
        defer { closedir(listing) }
        let prefixes = files.map { "." + $0.fileName + "." }
        var removed: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard prefixes.contains(where: { name.hasPrefix($0) && name.utf8.count == $0.utf8.count + 6 }) else { continue }
            let full = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0, info.st_mode & S_IFMT == S_IFREG, unlink(full) == 0 else { continue }
            removed.append(name)
        }
        return removed
    }

    /// The entries of the state file of `kind` at `path`: none when it does not exist; else at most
    /// `StateFileFormat.maximumBytes` + 1 bytes read (`open`, `fstat`, `read`) and parsed.
    static func read(_ path: String, kind: StateFile) throws(KeptStateError) -> [StateFileEntry] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return [] }
            throw .unreadable(path: path, errno: Errno(rawValue: code))
        }
        let owned = OwnedDescriptor(FileDescriptor(rawValue: descriptor))
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw .unreadable(path: path, errno: info.st_mode & S_IFMT == S_IFDIR ? .isDirectory : .invalidArgument)
        }
        let limit = StateFileFormat.maximumBytes + 1
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(owned.descriptor.rawValue, $0.baseAddress, wanted) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .unreadable(path: path, errno: Errno(rawValue: code))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return try StateFileFormat.parse(bytes, path: path, kind: kind)
    }

    /// Writes `text` to `path` atomically (`AtomicFile`: `mkstemp` beside it, `write`, `fsync`,
    /// `rename`), then `fsync`s `directory` so that the rename itself survives a power cut.
    static func write(_ text: String, to path: String, directory: String) throws(SystemError) {
        let file = try AtomicFile(destination: path)
        do {
            _ = try file.descriptor.writeAll(Array(text.utf8))
        } catch {
            file.abandon()
            throw SystemError("writing '\(path)'", (error as? Errno) ?? .ioError)
        }
        try file.commit()
        let owned = try OwnedDescriptor(operation: "opening the directory '\(directory)'") {
            open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        do {
            _ = try retryingInterrupts { fsync(owned.descriptor.rawValue) }
        } catch {
            throw SystemError("syncing the directory '\(directory)'", error)
        }
    }
}
