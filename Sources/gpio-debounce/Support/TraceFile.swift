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
enum TraceFile {
    /// The reader for `path` (`-`: the text format on standard input). A file that cannot be opened
    /// exits 66; a VCD header that is wrong (an unknown timescale, no such channel) is bad data, 65;
    /// a read that fails, 74.
    static func open(_ path: String, channel: String?) throws -> any TraceSource {
        try opening(path, lineFormat: "t_ns,level") { () throws(TraceError) -> any TraceSource in
            if path.lowercased().hasSuffix(".vcd") { return try VCDReader.open(path, channel: channel) }
            return try TraceReader.open(path)
        }
    }

    /// The same one line of `path` (a VCD channel, or the text format's `t_ns,level` lines), as a
    /// trace of lines for a replay. Exits as `open(_:channel:)` does.
    static func openLine(_ path: String, channel: String?) throws -> any TraceLinesSource {
        try opening(path, lineFormat: "t_ns,level") { () throws(TraceError) -> any TraceLinesSource in
            if path.lowercased().hasSuffix(".vcd") { return try VCDReader.open(path, channel: channel) }
            return TraceLinesReader(reader: try TraceReader.open(path))
        }
    }

    /// The reader of an encoder's `lines` in `path`: VCD channels (names or 0-based indices) of a `.vcd`
    /// file, else the text format's line numbers (checked by the command). Exits as `open` does.
    static func open(_ path: String, lines: [String]) throws -> any TraceLinesSource {
        try opening(path, lineFormat: "t_ns,line,level") { () throws(TraceError) -> any TraceLinesSource in
            if path.lowercased().hasSuffix(".vcd") { return try VCDReader.open(path, channels: lines) }
            return try TraceLinesReader.open(path, lines: lines.compactMap { Int($0) })
        }
    }

    /// `open()`s the trace at `path`, saying first which lines (`lineFormat`) to type when that is the terminal,
    /// and exiting with the trace's exit code when it cannot be opened.
    private static func opening<Trace>(_ path: String, lineFormat: String, _ open: () throws(TraceError) -> Trace) throws -> Trace {
        if path == "-", isatty(STDIN_FILENO) == 1 {
            printToStandardError("gpio-debounce: reading \(lineFormat) lines from the terminal; end with Ctrl-D")
        }
        do {
            return try open()
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
