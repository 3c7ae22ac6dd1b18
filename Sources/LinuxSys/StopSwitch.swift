#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinuxSys
import SystemPackage

/// A stop button for an event loop running on another thread (`eventfd(2)`): `stop()`, from any
/// thread, makes the descriptor readable, and the loop that polls it shuts down.
package final class StopSwitch: Sendable {
    /// Readable once `stop()` was called. Owned by this object.
    package let owned: OwnedDescriptor

    package init() throws(SystemError) {
        owned = try OwnedDescriptor(operation: "eventfd") { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
    }

    /// The descriptor to poll.
    package var descriptor: FileDescriptor { owned.descriptor }

    /// Asks the loop to stop (`write(2)` to the eventfd: safe from any thread and from a signal handler).
    package func stop() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(owned.descriptor.rawValue, $0.baseAddress, 8) }
    }

    /// Consumes the stop request; returns whether there was one.
    package func take() -> Bool {
        var value: UInt64 = 0
        return withUnsafeMutableBytes(of: &value) { read(owned.descriptor.rawValue, $0.baseAddress, 8) } == 8
    }
}
