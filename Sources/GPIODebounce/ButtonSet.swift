import Assembly
import DebounceCore
import EventLoop
import GPIODBackend
import LinuxSys
import Pipeline
import Simulation
import SystemPackage

/// Several buttons watched together: one thread and one event loop for all of them (one `ppoll`, one
/// line request per chip), where separate `Button`s would take a thread and a loop each.
///
/// ```swift
/// let buttons = ButtonSet([Button(line: 17), Button(line: 27, gestures: GestureConfiguration(holdNs: 1_000_000_000))])
/// for try await (index, event) in buttons.events {
///     print("button \(index):", event.kind)
/// }
/// ```
///
/// All the buttons are real lines, or all are simulated (`Button.simulated`, in real time unless every
/// one asks for virtual time); a mix throws `ButtonSetError.mixedSources`.
public struct ButtonSet: Sendable {
    public var buttons: [Button]

    public init(_ buttons: [Button]) {
        self.buttons = buttons
    }

    /// Every button's events, each with the index of its button in `buttons`, as they happen. Ends
    /// (releasing the lines) when the iteration ends or its task is cancelled; errors end it too.
    public var events: AsyncThrowingStream<(button: Int, event: ButtonEvent), any Error> {
        AsyncThrowingStream { continuation in
            do {
                let watch = try start { continuation.yield(($0, $1)) } onEnd: { error in continuation.finish(throwing: error) }
                continuation.onTermination = { _ in watch.stop() }
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }

    /// Watches every button on one thread of its own (`DetachedThread`) and calls `handler` with the
    /// button's index and the event; `onEnd` once, when the watch ends (nil: stopped, or the simulated
    /// buttons ran out of presses). Throws `Errno.resourceTemporarilyUnavailable` when the system cannot
    /// make another thread.
    @discardableResult
    public func start(
        _ handler: @escaping @Sendable (Int, ButtonEvent) -> Void, onEnd: @escaping @Sendable ((any Error)?) -> Void = { _ in }
    ) throws -> ButtonWatch {
        let stopSwitch = try StopSwitch()
        let buttons = self.buttons
        let started = DetachedThread.start {
            do {
                try Self.watch(buttons, stopSwitch: stopSwitch, handler: handler)
                onEnd(nil)
            } catch {
                onEnd(error)
            }
        }
        guard started else { throw Errno.resourceTemporarilyUnavailable }
        return ButtonWatch(stopSwitch: stopSwitch)
    }

    /// The run, on the watch's thread: `RunAssembly`'s input for the buttons, each line through its
    /// button's stages, the events to `handler`.
    static func watch(_ buttons: [Button], stopSwitch: StopSwitch, handler: @escaping (Int, ButtonEvent) -> Void) throws {
        let assembly = try input(of: buttons)
        let sink = CallbackSink { output in
            if case .event(let source, let event) = output { handler(source.lineIndex, event) }
        }
        let plans = buttons.map { LinePlan(debounce: $0.debounce, gestures: $0.gestures) }
        _ = try assembly.loop(plan: PipelinePlan(lines: plans), sinks: [sink], stop: .stopSwitch(stopSwitch)).run()
    }

    /// Real lines (each found as `Button(line:)` says: its chip, else the header's chip or wherever
    /// the named line is, all in one reading of the chips, `ChipInventory`), or simulated bouncy buttons.
    private static func input(of buttons: [Button]) throws -> RunAssembly {
        var simulated: [BouncyButton] = []
        var virtualTime = true
        for button in buttons {
            guard case .simulated(let seed, let presses, let virtual) = button.source else { continue }
            simulated.append(BouncyButton(seed: seed, activeLevel: button.debounce.activeLevel, presses: presses))
            virtualTime = virtualTime && virtual
        }
        if !simulated.isEmpty {
            guard simulated.count == buttons.count else { throw ButtonSetError.mixedSources }
            return RunAssembly.simulated(SimulatedLines(buttons: simulated), names: simulated.indices.map(String.init), virtualTime: virtualTime)
        }
        guard !buttons.isEmpty else { return try RunAssembly.pins([]) }
        let chips = ChipInventory.read()
        var selections: [LineSelection] = []
        for case .gpio(let chip, let line, let bias, let kernelDebounceNs) in buttons.map(\.source) {
            let (gpioChip, offsets) = try chips.locate(chip: chip, lines: [line])
            selections.append(LineSelection(chip: gpioChip, offset: offsets[0], bias: bias, kernelDebounceNs: kernelDebounceNs))
        }
        return try RunAssembly.pins(selections)
    }
}

/// Why a `ButtonSet` cannot start.
public enum ButtonSetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Real and simulated buttons in one set: one loop runs on one clock, either the kernel's or a
    /// simulation's.
    case mixedSources

    public var description: String {
        switch self {
        case .mixedSources: "a ButtonSet's buttons must all be real lines or all simulated: watch them in two sets"
        }
    }
}
