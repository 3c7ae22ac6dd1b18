#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// This machine's name, for the default client identifier and base topic.
package enum Hostname {
    /// `gethostname(2)`, cut at the first dot; `localhost` when it fails or is empty.
    package static var current: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let short = name.split(separator: ".").first.map(String.init) ?? ""
        return short.isEmpty ? "localhost" : short
    }
}
