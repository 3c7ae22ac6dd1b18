import ArgumentParser
import SystemPackage

/// Documented exit codes (the BSD sysexits values).
enum ExitStatus {
    static let badData = ExitCode(65)
    static let cannotOpenInput = ExitCode(66)
    static let ioError = ExitCode(74)
}

/// Prints `gpio-debounce: error: MESSAGE` to standard error and returns the exit code to throw.
func failure(_ message: String, _ code: ExitCode) -> ExitCode {
    printToStandardError("gpio-debounce: error: \(message)")
    return code
}

/// Writes a line to standard error, unbuffered.
func printToStandardError(_ line: String) {
    _ = try? FileDescriptor.standardError.writeAll((line + "\n").utf8)
}
