#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether a TCP server answers at a host and port: a connection made and closed at once, nothing
/// sent. For diagnostics (`doctor`'s broker check): it blocks its caller, so never on the event loop.
package enum TCPReachability: Sendable, Hashable {
    /// The connection was accepted at `address` (numeric, as `getnameinfo(NI_NUMERICHOST)` prints it).
    case reachable(address: String)
    /// The host name has no address (`gai_strerror`'s reason).
    case unresolved(reason: String)
    /// No address accepted a connection: the reason for the last one tried (`ADDRESS: strerror`, or
    /// that it gave no answer in time).
    case unreachable(reason: String)

    /// Tries each of `host`'s addresses in `getaddrinfo`'s order until one accepts a connection to
    /// `port`, each attempt bounded by `timeoutSeconds` (`SO_SNDTIMEO`, which bounds `connect(2)`).
    package static func probe(host: String, port: Int, timeoutSeconds: Int) -> TCPReachability {
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
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var result: Int32
            repeat { result = connect(descriptor, entry.pointee.ai_addr, entry.pointee.ai_addrlen) } while result != 0 && errno == EINTR
            if result == 0 { return .reachable(address: address) }
            let code = errno
            reason = "\(address): " + (code == EINPROGRESS || code == EAGAIN ? "no answer within \(timeoutSeconds) s" : String(cString: strerror(code)))
        }
        return .unreachable(reason: reason)
    }

    /// An address as `getnameinfo(NI_NUMERICHOST)` prints it, or `?`.
    private static func numericHost(_ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> String {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
