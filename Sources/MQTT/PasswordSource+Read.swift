#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Settings

extension MQTTSettings.PasswordSource {
    /// The password: the first line of the file (at most 64 KiB read; a final `\n` or `\r\n` is not
    /// part of it), or the environment variable's value. Read at each connect, so a changed file
    /// counts from the next reconnect.
    package func read() throws(MQTTError) -> String {
        switch self {
        case .environment(let name):
            guard let value = getenv(name), value.pointee != 0 else { throw MQTTError.passwordEnvironment(name: name) }
            return String(cString: value)
        case .file(let path):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Self.unreadable(path, errno) }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while bytes.count < 65_536 {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Self.unreadable(path, errno)
                }
                if count == 0 { break }
                bytes.append(contentsOf: chunk[..<count])
            }
            let line = bytes.prefix { $0 != UInt8(ascii: "\n") }
            let password = String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            guard !password.isEmpty else { throw MQTTError.passwordFile(path: path, reason: "its first line is empty") }
            return password
        }
    }

    private static func unreadable(_ path: String, _ code: Int32) -> MQTTError {
        .passwordFile(path: path, reason: String(cString: strerror(code)), code: code)
    }
}
