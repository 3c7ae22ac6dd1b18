import Daemon
import LinuxSys
import Logging

/// `run --wait-for-chips`: a configuration whose chip is not there yet is assembled again each time a
/// device file appears in (or changes in) `/dev`, instead of the run exiting 66 and its service being
/// restarted in a loop. SIGINT and SIGTERM end the wait (`nil`: exit 0, nothing was started).
///
/// The watch on `/dev` (`FileWatch(directory:)`) is made before the second try, so a chip that appears
/// between a failed try and the wait is not missed; the wait is a `PollSet` over the watch and the
/// signal descriptor, with no timeout: nothing runs while it waits.
struct ChipArrival {
    /// Where device files appear.
    static let deviceDirectory = "/dev"

    let signals: SignalDescriptor
    let logger: Logger

    /// `assemble()`'s result, once it does not fail for a missing chip; its other failures are thrown.
    /// `nil` when a signal ended the wait.
    func assembling<T>(_ assemble: () throws(DaemonFailure) -> T) throws -> T? {
        var watch: FileWatch?
        var waitingFor: String?
        while true {
            do {
                let result = try assemble()
                if let waitingFor { logger.info("\(waitingFor) is there: starting") }
                return result
            } catch {
                guard let chip = error.missingChip else { throw failure(error.description, ExitStatus.of(error)) }
                guard let currentWatch = watch else {
                    // The watch first, then one more try: nothing that appears meanwhile goes unseen.
                    do { watch = try FileWatch(directory: Self.deviceDirectory) } catch {
                        throw failure("cannot wait for \(chip): \(error.description)", ExitStatus.ioError)
                    }
                    continue
                }
                if waitingFor != chip {
                    logger.warning("\(error.description); waiting for \(chip) to appear (SIGTERM stops the wait)")
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
