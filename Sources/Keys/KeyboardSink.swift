import DebounceCore
import EventLoop
import LinuxSys
import Logging
import Pipeline

/// Where key reports go: the virtual keyboard (`UInputDevice`), or a recorder in tests.
package protocol KeyReporter: AnyObject {
    /// Sends `changes` as one report (followed by `SYN_REPORT`).
    func report(_ changes: [KeyChange]) throws(UInputError)
    /// Removes the device; no reports after this.
    func destroy()
}

extension UInputDevice: KeyReporter {}

/// The sink that turns debounced events into key presses on a virtual keyboard, through `KeyMapping`.
/// Writes to uinput never block (the kernel takes a report at once). When the run ends, every key still
/// down comes up before the device is removed, so that no key stays pressed.
package final class KeyboardSink: Sink {
    private var mapping: KeyMapping
    private let device: any KeyReporter
    private let logger: Logger

    /// Takes ownership of `device`: `finish` removes it.
    package init(mapping: KeyMapping, device: any KeyReporter, logger: Logger) {
        self.mapping = mapping
        self.device = device
        self.logger = logger
    }

    /// Events only.
    package var consumesEdges: Bool { false }
    /// Each key report goes to the device in `consume`.
    package var writesOutputsAtOnce: Bool { true }

    package func consume(_ output: PipelineOutput, nowNs: Int64) throws(SinkError) {
        for changes in mapping.reports(for: output).reports {
            try send(changes)
        }
    }

    package func finish(atNs nowNs: Int64) throws(SinkError) {
        defer { device.destroy() }
        let changes = mapping.releaseAll()
        if !changes.isEmpty {
            logger.info("releasing \(counted(changes.count, "key")) still down as the run ends")
        }
        try send(changes)
    }

    private func send(_ changes: [KeyChange]) throws(SinkError) {
        do {
            try device.report(changes)
        } catch {
            if case .system(let failure) = error { throw SinkError("cannot write to the virtual keyboard", failure.errno) }
            throw SinkError("cannot write to the virtual keyboard: \(error.description)", .ioError)
        }
    }
}
