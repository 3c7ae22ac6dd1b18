import LinuxSys
import SystemPackage

/// Where a command writes its result: standard output, or a file that replaces what was there only
/// once the command has succeeded (`AtomicFile`): a command that fails leaves the old file as it was.
struct OutputTarget {
    /// The file being written, or `nil` for standard output.
    let file: AtomicFile?

    /// Standard output for `nil`, else a new file beside `path`. Exits 66 if it cannot be created.
    init(path: String?) throws {
        guard let path else {
            file = nil
            return
        }
        do {
            file = try AtomicFile(destination: path)
        } catch {
            throw failure("cannot create '\(path)': \(error.errno.description)", ExitStatus.cannotOpenInput)
        }
    }

    var descriptor: FileDescriptor { file?.descriptor ?? .standardOutput }

    /// Puts the file in place (nothing to do for standard output). Exits 74 if that fails.
    func commit() throws {
        do { try file?.commit() } catch { throw failure(error.description, ExitStatus.ioError) }
    }
}
