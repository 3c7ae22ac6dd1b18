#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import SystemPackage

/// Files and directories of a test, removed by their owner's `deinit`.
final class TemporaryFile {
    let path: String
    let descriptor: FileDescriptor

    /// A new empty file under /tmp, open for writing.
    init() throws {
        var template = Array("/tmp/gpio-debounce-assembly-test.XXXXXX".utf8CString)
        let raw = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard raw >= 0 else { throw Errno(rawValue: errno) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        descriptor = FileDescriptor(rawValue: raw)
    }

    deinit {
        try? descriptor.close()
        unlink(path)
    }

    /// What was written to the file so far.
    func text() throws -> String {
        let reader = try FileDescriptor.open(path, .readOnly)
        defer { try? reader.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A new empty directory under /tmp, removed with what a run left in it (one level deep).
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/gpio-debounce-assembly-test.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else { throw Errno(rawValue: errno) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != ".", name != ".." { unlink(path + "/" + name) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}

/// Whether `path` exists.
func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

/// A logger that writes nothing: the tests look at what the assembly made, not at its messages.
let quietLogger = Logger(label: "assembly-test") { _ in SwiftLogNoOpLogHandler() }
