import ArgumentParser
import Daemon
import EventLoop
import EventOutput
import GPIODBackend
import LineInput
import LinuxSys
import SystemPackage

// A command's failure: its message on standard error and its exit code (ExitStatus), and the calls
// into the modules whose typed errors become one.

/// Prints `gpio-debounce: error: MESSAGE` to standard error and returns the exit code to throw.
func failure(_ message: String, _ code: ExitCode) -> ExitCode {
    printToStandardError("gpio-debounce: error: \(message)")
    return code
}

/// Writes a line to standard error, unbuffered, with control characters escaped (a message may quote
/// a file, a configuration or an argument).
func printToStandardError(_ line: String) {
    _ = try? FileDescriptor.standardError.writeAll((TerminalText.escaped(line) + "\n").utf8)
}

/// SIGINT and SIGTERM as the loop's signal descriptor, and the signals of `requests` (the daemon's
/// SIGHUP for a reload and SIGUSR1 for a report).
func signalDescriptor(requests: Set<SignalDescriptor.Request> = []) throws -> SignalDescriptor {
    do { return try SignalDescriptor(requests: requests) } catch { throw failure(error.description, ExitStatus.ioError) }
}

/// Opens the lines, or fails with the error's message and exit code.
func opening<T>(_ body: () throws(GPIOError) -> T) throws -> T {
    do { return try body() } catch { throw failure(error.description, ExitStatus.of(error)) }
}

/// Checks a configuration on this machine (`MachineCheck`), or fails with the message and exit code.
@discardableResult
func checking<T>(_ body: () throws(MachineCheck.Failure) -> T) throws -> T {
    do { return try body() } catch { throw failure(error.description, ExitStatus.of(error)) }
}

/// Assembles the daemon (`DaemonAssembly`), or fails with the message and exit code.
func assembling<T>(_ body: () throws(DaemonFailure) -> T) throws -> T {
    do { return try body() } catch { throw failure(error.description, ExitStatus.of(error)) }
}

/// Starts a loop (which reads the lines' initial levels), or fails with the message and exit code 74.
func makeLoop(_ body: () throws(LineError) -> EventLoop) throws -> EventLoop {
    do { return try body() } catch { throw failure(error.description, ExitStatus.ioError) }
}
