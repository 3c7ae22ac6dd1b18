import SystemPackage

/// A file descriptor this process opened and must close, closed exactly once: by `close()`, or when
/// the last reference goes away. Everything in the package that owns a descriptor holds one of these,
/// never a raw `Int32`; `descriptor` lends it (for `ppoll`, `read`) without giving up ownership.
package final class OwnedDescriptor: @unchecked Sendable {
    /// The descriptor, valid until `close()`. Reading it after `close()` is a programming error.
    package let descriptor: FileDescriptor
    private var isOpen = true

    /// Takes ownership of `descriptor`.
    package init(_ descriptor: FileDescriptor) {
        self.descriptor = descriptor
    }

    /// Takes ownership of the result of a C call that returns a descriptor or -1 with `errno`
    /// (`signalfd`, `eventfd`, `inotify_init1`...), retrying `EINTR`.
    package convenience init(operation: String, _ call: () -> Int32) throws(SystemError) {
        do {
            self.init(FileDescriptor(rawValue: try retryingInterrupts(call)))
        } catch {
            throw SystemError(operation, error)
        }
    }

    /// Closes the descriptor (`close(2)`) if it is still open; later calls do nothing. `close` is never
    /// retried on `EINTR` (on Linux the descriptor is released either way).
    package func close() {
        guard isOpen else { return }
        isOpen = false
        try? descriptor.close()
    }

    deinit { close() }
}
