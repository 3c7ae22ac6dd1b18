import DebounceCore
import EventLoop
import GPIODBackend
import LinuxSys
import Pipeline
import Simulation
import SystemPackage

/// A button on a GPIO line (or a simulated one), as a Swift value: its debounced events and gestures as
/// an `AsyncSequence`, or through a closure.
///
/// ```swift
/// import GPIODebounce
///
/// let button = Button(line: 17, gestures: GestureConfiguration(holdNs: 3_000_000_000))
/// for try await event in button.events {
///     print(event.kind, event.timeNs)
/// }
/// ```
///
/// Each iteration of `events` requests the line, watches it on a thread of its own (blocking in `ppoll`:
/// no wakeups while idle), and releases it when the iteration ends or its task is cancelled. Errors
/// (`GPIOError`: no such line, permission, busy; `LineError`: the chip vanished) end the sequence.
public struct Button: Sendable {
    /// Where the edges come from.
    public enum Source: Sendable {
        /// A real line: the chip (path, name, number or label; nil for the 40-pin header's chip, or
        /// wherever the named line is), the line (offset or name), the bias, and kernel debouncing (ns,
        /// libgpiod 2).
        case gpio(chip: String?, line: String, bias: Bias, kernelDebounceNs: Int64)
        /// A simulated bouncy button: seeded, pressed `presses` times (nil: forever), in real or virtual time.
        case simulated(seed: UInt64, presses: Int?, virtualTime: Bool)
    }

    public var source: Source
    public var debounce: DebounceConfiguration
    public var gestures: GestureConfiguration

    /// The button on line `line` (an offset or a name such as "GPIO17").
    public init(
        chip: String? = nil, line: String, bias: Bias = .pullUp, kernelDebounceNs: Int64 = 0,
        debounce: DebounceConfiguration = DebounceConfiguration(), gestures: GestureConfiguration = GestureConfiguration()
    ) {
        self.source = .gpio(chip: chip, line: line, bias: bias, kernelDebounceNs: kernelDebounceNs)
        self.debounce = debounce
        self.gestures = gestures
    }

    /// The button on line offset `line`.
    public init(
        chip: String? = nil, line: Int, bias: Bias = .pullUp,
        debounce: DebounceConfiguration = DebounceConfiguration(), gestures: GestureConfiguration = GestureConfiguration()
    ) {
        self.init(chip: chip, line: String(line), bias: bias, debounce: debounce, gestures: gestures)
    }

    /// A simulated bouncy button: for trying handlers, and for unit tests of them without hardware
    /// (`virtualTime: true` plays every press at once).
    public static func simulated(
        seed: UInt64 = 1, presses: Int? = nil, virtualTime: Bool = false,
        debounce: DebounceConfiguration = DebounceConfiguration(), gestures: GestureConfiguration = GestureConfiguration()
    ) -> Button {
        var button = Button(line: "0", debounce: debounce, gestures: gestures)
        button.source = .simulated(seed: seed, presses: presses, virtualTime: virtualTime)
        return button
    }

    /// The button's events (press, release and the configured gestures), as they happen.
    public var events: AsyncThrowingStream<ButtonEvent, any Error> {
        AsyncThrowingStream { continuation in
            do {
                let watch = try start { continuation.yield($0) } onEnd: { error in continuation.finish(throwing: error) }
                continuation.onTermination = { _ in watch.stop() }
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }

    /// Watches the button on a thread of its own (`DetachedThread`, a POSIX thread) and calls `handler`
    /// for each event; `onEnd` once, when the watch ends (nil error: stopped, or a simulated button ran
    /// out of presses). Call `stop()` on the result to release the line. Throws `Errno.resourceTemporarilyUnavailable`
    /// when the system cannot make another thread.
    @discardableResult
    public func start(
        _ handler: @escaping @Sendable (ButtonEvent) -> Void, onEnd: @escaping @Sendable ((any Error)?) -> Void = { _ in }
    ) throws -> ButtonWatch {
        let stopSwitch = try StopSwitch()
        let button = self
        let started = DetachedThread.start {
            do {
                try button.watch(stopSwitch: stopSwitch, handler: handler)
                onEnd(nil)
            } catch {
                onEnd(error)
            }
        }
        guard started else { throw Errno.resourceTemporarilyUnavailable }
        return ButtonWatch(stopSwitch: stopSwitch)
    }

    /// The run, on the watch's thread: the same assembly, event loop and pipeline as the CLI's, with the
    /// stop switch in place of signals (a library must leave the process's signals alone).
    private func watch(stopSwitch: StopSwitch, handler: @escaping (ButtonEvent) -> Void) throws {
        try ButtonSet.watch([self], stopSwitch: stopSwitch) { _, event in handler(event) }
    }
}

/// A running watch of a `Button`; `stop()` (from any thread) ends it and releases the line.
public struct ButtonWatch: Sendable {
    let stopSwitch: StopSwitch

    public func stop() { stopSwitch.stop() }
}
