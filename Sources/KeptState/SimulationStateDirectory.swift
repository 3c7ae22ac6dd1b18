#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// Where a simulated run (`run --simulate`) keeps the values its inputs keep (a meter's total, a
/// restored knob's position) when no `--state-dir` is given:
/// a new directory of its own under `$TMPDIR` (or `/tmp`), made with `mkdtemp(3)` and removed at the
/// stop, so that a simulation never reads or writes the totals of real meters or the positions of real knobs
/// (`StateDirectory.defaultPath()`, where the installed service keeps them).
package struct SimulationStateDirectory {
    /// The directory's absolute path, e.g. `/tmp/gpio-debounce-simulation.Ab12Cd`.
    package let path: String

    /// Makes the directory (mode 0700). Throws `KeptStateError.cannotCreateDirectory` when
    /// `mkdtemp` fails (a missing or read-only `$TMPDIR`).
    package init(environment: [String: String]? = nil) throws(KeptStateError) {
        let variable = environment.map { $0["TMPDIR"] } ?? getenv("TMPDIR").map { String(cString: $0) }
        let parent = variable.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        let template = (parent.hasSuffix("/") ? parent : parent + "/") + "gpio-debounce-simulation.XXXXXX"
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkdtemp($0) != nil } ?? false }
        guard made else { throw .cannotCreateDirectory(path: template, errno: Errno(rawValue: errno)) }
        path = String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes the files a `StateStore` leaves in the directory (each of `files`, such as `counters`,
    /// and a cut-off write of one, `.counters.*`; and the lock, `counters.lock`), then the directory; call it once the
    /// store is gone (its lock closed). Returns whether the directory is gone: anything else in it
    /// (put there by hand) keeps it.
    @discardableResult
    package func remove(files stateFiles: [StateFile]) -> Bool {
        guard let directory = opendir(path) else { return false }
        let files = stateFiles.map(\.fileName)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if files.contains(name) || name == StateStore.lockFileName || files.contains(where: { name.hasPrefix(".\($0).") }) {
                unlink(path + "/" + name)
            }
        }
        closedir(directory)
        return rmdir(path) == 0
    }
}
