#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSys

/// SIGINT and SIGTERM for a command that works without the event loop (`generate`, `analyze`): blocked
/// while this object lives (`SignalDescriptor`), and looked at when the command asks (`stopSignal()`,
/// one `read(2)`), so that a stop never leaves a file half-written and exits 0 like every command's.
final class StopRequest {
    private let signals: SignalDescriptor

    init() throws { signals = try signalDescriptor() }

    /// The stop signal received so far (SIGINT or SIGTERM), if any; it stays received once seen.
    func stopSignal() throws -> Int32? {
        if received == nil {
            do { received = try signals.take().stopSignal } catch { throw failure(error.description, ExitStatus.ioError) }
        }
        return received
    }

    private var received: Int32?

    /// `SIGINT` or `SIGTERM`, for a message.
    static func name(_ signal: Int32) -> String { signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "signal \(signal)" }
}
