#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import EventLoop
import EventOutput
import TraceFormat

/// Opens a recorded trace in whichever format it is: VCD (a `.vcd` name) or the `t_ns,level` text format.
enum TraceInput {
    /// The reader for `path` (`-`: the text format on standard input). A file that cannot be opened
    /// exits 66; a VCD header that is wrong (an unknown timescale, no such channel) is bad data, 65;
    /// a read that fails, 74.
    static func open(_ path: String, channel: String?) throws -> any TraceSource {
        if path == "-", isatty(STDIN_FILENO) == 1 {
            printToStandardError("gpio-debounce: reading t_ns,level lines from the terminal; end with Ctrl-D")
        }
        do {
            if path.lowercased().hasSuffix(".vcd") { return try VCDReader.open(path, channel: channel) }
            return try TraceReader.open(path)
        } catch {
            throw failure(error.description, exitStatus(of: error))
        }
    }

    /// The reader of an encoder's `lines` in `path`: VCD channels (names or 0-based indices) of a `.vcd`
    /// file, else the text format's line numbers (checked by the command). Exits as `open` does.
    static func open(_ path: String, lines: [String]) throws -> any TraceLinesSource {
        if path == "-", isatty(STDIN_FILENO) == 1 {
            printToStandardError("gpio-debounce: reading t_ns,line,level lines from the terminal; end with Ctrl-D")
        }
        do {
            if path.lowercased().hasSuffix(".vcd") { return try VCDReader.open(path, channels: lines) }
            return try TraceLinesReader.open(path, lines: lines.compactMap { Int($0) })
        } catch {
            throw failure(error.description, exitStatus(of: error))
        }
    }

    /// Runs a replay's `loop` to the trace's end. When it fails, flushes the events decided before the
    /// failure and exits with the trace's error (`traceFailure`, exit 65 for bad data) or an I/O error (74).
    static func run(_ loop: EventLoop, output: OutputBuffer, traceFailure: () -> TraceError?) throws {
        do {
            _ = try loop.run()
        } catch {
            try? output.flush()
            if let traceError = traceFailure() { throw failure(traceError.description, exitStatus(of: traceError)) }
            throw failure(error.description, ExitStatus.ioError)
        }
    }

    /// The exit code for a trace that cannot be read: 66 cannot open, 74 a read failed, 65 bad data.
    static func exitStatus(of error: TraceError) -> ExitCode {
        switch error {
        case .cannotOpen: ExitStatus.cannotOpenInput
        case .readFailed: ExitStatus.ioError
        case .malformedLine, .lineTooLong, .noData, .tooManySkippedLines, .noInitialLevel: ExitStatus.badData
        }
    }
}
