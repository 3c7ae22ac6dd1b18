#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// Runs a C call that returns -1 (or another negative value) and sets `errno` on failure, retrying
/// while it fails with `EINTR`; returns its result or throws the `Errno`, as swift-system does internally.
@inline(__always)
func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let code = Errno(rawValue: errno)
        if code != .interrupted { throw code }
    }
}

/// Runs a C call that returns `nil` and sets `errno` on failure; returns its pointer or throws the `Errno`.
@inline(__always)
func nonNull<Pointer>(_ call: () -> Pointer?) throws(Errno) -> Pointer {
    guard let pointer = call() else { throw Errno(rawValue: errno) }
    return pointer
}
