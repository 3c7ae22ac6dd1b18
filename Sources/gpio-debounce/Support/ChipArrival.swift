import Daemon
import GPIODBackend
import LinuxSys

/// `run --wait-for-chips` and `watch --wait-for-chips`: a chip that is not there yet (an expander not
/// plugged in, a driver still loading) is waited for, and the start tried again each time a device
/// file appears in (or changes in) `/dev`, instead of the command exiting 66 (and a service being
/// restarted in a loop). SIGINT and SIGTERM end the wait (`nil`: exit 0, nothing was started).
///
/// The watch on `/dev` (`FileWatch(directory:)`) is made before the second try, so a chip that appears
/// between a failed try and the wait is not missed; the wait is a `PollSet` over the watch and the
/// signal descriptor, with no timeout: nothing runs while it waits.
struct ChipArrival {
    /// What the wait says: that it waits (the failure's message, and the chip), and that the chip came.
    enum Notice {
        case waiting(message: String, chip: String)
        case arrived(chip: String)

        /// The notice as a sentence.
        var text: String {
            switch self {
            case .waiting(let message, let chip): "\(message); waiting for \(chip) to appear (SIGTERM stops the wait)"
            case .arrived(let chip): "\(chip) is there: starting"
            }
        }
    }

    /// Where device files appear.
    static let deviceDirectory = "/dev"

    let signals: SignalDescriptor
    /// Where the notices go: the log (`run`) or standard error (`watch`).
    let notify: (Notice) -> Void

    /// The daemon of `assemble()`, once it does not fail for a missing chip; its other failures are
    /// thrown with their exit codes. `nil` when a signal ended the wait.
    func assembling<T>(_ assemble: () throws(DaemonFailure) -> T) throws -> T? {
        try starting(assemble, missingChip: \.missingChip) { failure($0.description, ExitStatus.of($0)) }
    }

    /// The lines of `open()`, once it does not fail for a missing chip (`GPIOError.noSuchChip`); its
    /// other failures are thrown with their exit codes. `nil` when a signal ended the wait.
    func opening<T>(_ open: () throws(GPIOError) -> T) throws -> T? {
        try starting(open, missingChip: { if case .noSuchChip(let chip, _) = $0 { chip } else { nil } }) { failure($0.description, ExitStatus.of($0)) }
    }

    /// `start()`'s result once it does not fail with an error for which `missingChip` names a chip.
    private func starting<T, Failure: Error & CustomStringConvertible>(
        _ start: () throws(Failure) -> T, missingChip: (Failure) -> String?, fail: (Failure) -> Error
    ) throws -> T? {
        var watch: FileWatch?
        var waitingFor: String?
        while true {
            do throws(Failure) {
                let result = try start()
                if let waitingFor { notify(.arrived(chip: waitingFor)) }
                return result
            } catch {
                guard let chip = missingChip(error) else { throw fail(error) }
                guard let currentWatch = watch else {
                    // The watch first, then one more try: nothing that appears meanwhile goes unseen.
                    do { watch = try FileWatch(directory: Self.deviceDirectory) } catch {
                        throw failure("cannot wait for \(chip): \(error.description)", ExitStatus.ioError)
                    }
                    continue
                }
                if waitingFor != chip {
                    notify(.waiting(message: error.description, chip: chip))
                    waitingFor = chip
                }
                guard try waitForChange(currentWatch) else { return nil }
            }
        }
    }

    /// Blocks until `/dev` changes (true) or a stop signal arrives (false).
    private func waitForChange(_ watch: FileWatch) throws -> Bool {
        enum Token: Hashable, Sendable { case device, signals }
        var pollSet = PollSet<Token>()
        pollSet.add(watch.descriptor, token: .device)
        pollSet.add(signals.descriptor, token: .signals)
        while true {
            do { _ = try pollSet.wait(timeoutNs: nil) } catch { throw failure(error.description, ExitStatus.ioError) }
            var cursor = PollSet<Token>.ReadyCursor()
            var changed = false
            while let (token, _) = pollSet.nextReady(&cursor) {
                switch token {
                case .signals:
                    let received: SignalDescriptor.Received
                    do { received = try signals.take() } catch { throw failure(error.description, ExitStatus.ioError) }
                    if received.stopSignal != nil { return false }
                case .device:
                    watch.drain()
                    changed = true
                }
            }
            if changed { return true }
        }
    }
}
