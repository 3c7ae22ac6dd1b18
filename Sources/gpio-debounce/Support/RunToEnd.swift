#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import EventLoop
import LinuxSys

/// Runs a loop to its end, turning a failure into its message and exit code; `summary` is printed
/// either way, before the error. A long-running command first maps in the code opened since its start
/// (`ResidentCode`).
/// Stopped by SIGINT with standard error on a terminal, which has echoed `^C` where the cursor was,
/// the summary starts on a new line.
func runToEnd(_ loop: EventLoop, summary: () -> Void = {}) throws -> StopReason {
    ResidentCode.mapInIfWanted()
    do {
        let stop = try loop.run()
        if case .interrupted(SIGINT?) = stop, isatty(STDERR_FILENO) == 1 { printToStandardError("") }
        summary()
        return stop
    } catch {
        summary()
        throw failure(error.description, ExitStatus.ioError)
    }
}
