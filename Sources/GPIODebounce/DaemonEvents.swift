import EventSocket
import LinuxSys
import SystemPackage

/// The inputs of a running `gpio-debounce run`, from its events socket, as an `AsyncSequence`: every
/// input's state when the iteration begins, then each event and change of state as it comes, with
/// the same `ButtonEvent` values as `Button.events` for buttons. Any number of programs can read the
/// daemon's inputs this way while it holds the lines.
///
/// ```swift
/// import GPIODebounce
///
/// for try await event in DaemonEvents(inputs: ["doorbell"]) {
///     if event.buttonEvent?.kind == .press { print("someone at the door") }
/// }
/// ```
///
/// Each iteration connects (the user must be in the socket's group, `gpio-debounce-events` for the
/// package's service, or root), reads on a thread of its own (blocking: no wakeups while idle), and
/// disconnects when the iteration ends or its task is cancelled. The sequence ends when the daemon
/// stops; `DaemonEventsError` ends it when no daemon listens or the socket cannot be read.
public struct DaemonEvents: AsyncSequence, Sendable {
    public typealias Element = DaemonEvent

    /// The package's service's events socket.
    public static let serviceSocket = "/run/gpio-debounce/events.sock"

    /// The events socket: the service's by default (a simulation logs its own).
    public var socket: String
    /// The inputs whose lines come (none: every input's).
    public var inputs: [String]

    public init(socket: String = DaemonEvents.serviceSocket, inputs: [String] = []) {
        self.socket = socket
        self.inputs = inputs
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<DaemonEvent, any Error>.AsyncIterator {
        let (socket, inputs) = (socket, inputs)
        let stream = AsyncThrowingStream<DaemonEvent, any Error> { continuation in
            let interrupter = EventSocketInterrupter()
            continuation.onTermination = { _ in interrupter.interrupt() }
            let started = DetachedThread.start {
                do throws(EventSocketConnection.Failure) {
                    try Self.read(socket: socket, inputs: inputs, interrupter: interrupter) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: DaemonEventsError(error))
                }
            }
            if !started { continuation.finish(throwing: DaemonEventsError(reason: .system, description: "cannot start a thread to read \(socket)")) }
        }
        return stream.makeAsyncIterator()
    }

    /// Reads the socket on the calling thread until its stream ends or `interrupter` ends it.
    private static func read(
        socket: String, inputs: [String], interrupter: EventSocketInterrupter, yield: (DaemonEvent) -> Void
    ) throws(EventSocketConnection.Failure) {
        let connection = try EventSocketConnection(path: socket)
        defer { interrupter.closing() }
        guard interrupter.opened(connection.descriptor) else { return }
        if !inputs.isEmpty { try connection.send(EventSocketRequest.subscribe(inputs: Set(inputs), events: nil).line) }
        while let line = try connection.nextLine() {
            guard let event = DaemonEvent(line: line) else { continue }
            if event.name == "error" { throw .refused(event.fields["message"] ?? event.json) }
            if event.name == "hello" { continue }
            // The snapshot comes before the subscription is read: its other inputs' states are left out here.
            if !inputs.isEmpty, event.isSnapshot, !inputs.contains(event.input) { continue }
            yield(event)
        }
    }
}

/// Why `DaemonEvents` ended: what `gpio-debounce events` would say, with what to do.
public struct DaemonEventsError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// No daemon listens on the socket (not started, or stopped).
        case noDaemon
        /// This user may not open the socket: it must join its group.
        case permissionDenied
        /// The daemon refused the request (an input it does not have).
        case refused
        /// The socket failed otherwise.
        case system
    }

    public var reason: Reason
    public var description: String

    init(reason: Reason, description: String) {
        self.reason = reason
        self.description = description
    }

    init(_ failure: EventSocketConnection.Failure) {
        let reason: Reason = switch failure {
        case .noDaemon: .noDaemon
        case .permissionDenied: .permissionDenied
        case .refused, .stopping: .refused
        case .ended, .system: .system
        }
        self.init(reason: reason, description: failure.description)
    }
}
