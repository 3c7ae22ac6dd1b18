#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSys
import Synchronization
import SystemPackage

/// Resolves the broker's host name without blocking the event loop. `getaddrinfo` blocks for the
/// resolver's whole timeout when DNS does not answer (10 s and more with glibc's defaults), and
/// libmosquitto calls it inside `mosquitto_connect_async`: every button event would wait that long.
/// So the lookup runs on a `DetachedThread`, and its end makes `descriptor` (an eventfd) readable
/// for the loop to poll; `take()` then hands over the answer.
///
/// One lookup at a time. The answer's slot and the eventfd belong to an object the thread keeps
/// alive, so a lookup that outlives its `HostLookup` (the daemon stopping while DNS hangs) writes to
/// nothing that was closed or reused.
package final class HostLookup {
    /// The numeric addresses of `host` for a TCP connection to `port` ("192.0.2.7", "2001:db8::7"),
    /// in `getaddrinfo`'s order, or why there are none. Runs on the lookup's thread.
    package typealias Resolve = @Sendable (_ host: String, _ port: Int) -> Result<[String], LookupFailure>

    /// Why a name has no address: `getaddrinfo`'s `gai_strerror` text.
    package struct LookupFailure: Error, Sendable, Hashable {
        package let reason: String
        package init(reason: String) { self.reason = reason }
    }

    private final class Slot: Sendable {
        /// Readable once an answer is in; owned here, closed when the last of loop and thread lets go.
        let ready: StopSwitch
        let answer = Mutex<Result<[String], LookupFailure>?>(nil)
        init() throws(SystemError) { ready = try StopSwitch() }
    }

    private let slot: Slot
    private let resolve: Resolve
    /// A lookup was started and its answer not taken yet.
    private(set) var inFlight = false

    /// A lookup with `resolve` (the system's resolver unless a test gives another).
    init(resolve: @escaping Resolve = HostLookup.systemResolve) throws(SystemError) {
        slot = try Slot()
        self.resolve = resolve
    }

    /// The descriptor to poll: readable when the answer is in.
    var descriptor: FileDescriptor { slot.ready.descriptor }

    /// Starts looking `host` up on a new thread. Returns `false` if no thread could be made (the
    /// caller counts that as a failed attempt and tries again later).
    func start(host: String, port: Int) -> Bool {
        precondition(!inFlight, "one lookup at a time")
        let slot = slot, resolve = resolve
        let started = DetachedThread.start {
            let answer = resolve(host, port)
            slot.answer.withLock { $0 = answer }
            slot.ready.stop()
        }
        inFlight = started
        return started
    }

    /// The answer, once the lookup ended (after `descriptor` was readable); `nil` while it runs.
    func take() -> Result<[String], LookupFailure>? {
        _ = slot.ready.take()
        guard let answer = slot.answer.withLock({ value in defer { value = nil }; return value }) else { return nil }
        inFlight = false
        return answer
    }

    /// Whether `host` is an IPv4 or IPv6 address already (`inet_pton`): no lookup needed.
    static func isNumeric(_ host: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, host, &buffer) == 1 || inet_pton(AF_INET6, host, &buffer) == 1
    }

    /// The system's resolver (`getaddrinfo` with `AI_ADDRCONFIG`, any family, TCP; each address
    /// printed back with `getnameinfo(NI_NUMERICHOST)`), duplicates removed.
    package static let systemResolve: Resolve = { host, port in
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            let reason = status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            return .failure(LookupFailure(reason: reason))
        }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var entry = list
        while let current = entry {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !addresses.contains(address) { addresses.append(address) }
            }
            entry = current.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(LookupFailure(reason: "no address")) : .success(addresses)
    }
}
