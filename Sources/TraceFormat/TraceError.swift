#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// Why a trace could not be read. Each description names the source and, for bad data, the line.
public enum TraceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened.
    case cannotOpen(path: String, errno: Errno)
    /// Reading failed part-way.
    case readFailed(source: String, errno: Errno)
    /// A line is not `t_ns,level`, a comment, a blank line or the header.
    case malformedLine(source: String, line: Int, problem: String, text: String)
    /// A line is longer than any `t_ns,level` line can be.
    case lineTooLong(source: String, line: Int, limitBytes: Int)
    /// The trace has no data line, so not even an initial level.
    case noData(source: String)
    /// More than `limit` blank or comment lines in a row, ending at `line`: an endless stream of them
    /// (`yes '' |`) would otherwise be read for ever without a single edge.
    case tooManySkippedLines(source: String, line: Int, limit: Int)
    /// A trace of several lines gives no initial level for `line` (`line 1`, `channel 'D1'`) before
    /// the first edge of another line, or none at all.
    case noInitialLevel(source: String, line: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let errno):
            "cannot open '\(path)': \(errno.description)"
        case .readFailed(let source, let errno):
            "cannot read \(source): \(errno.description)"
        case .malformedLine(let source, let line, let problem, let text):
            "\(source):\(line): \(problem), in \"\(text)\"" + Self.formatHint(source)
        case .lineTooLong(let source, let line, let limitBytes):
            "\(source):\(line): line longer than \(limitBytes) bytes; each line must be t_ns,level (nanoseconds, then 0 or 1)"
        case .tooManySkippedLines(let source, let line, let limit):
            "\(source):\(line): more than \(limit) blank or comment lines in a row: this is not a trace (lines of t_ns,level)"
        case .noInitialLevel(let source, let line):
            "\(source) gives no initial level for \(line) before the first edge: a trace of several lines begins with each line's initial level"
        case .noData(let source):
            Self.isVCD(source)
                ? "\(source) has no value for the chosen channel: nothing to read"
                : "\(source) has no data lines: a trace is lines of t_ns,level, the first giving the initial level"
        }
    }

    /// Whether `source` names a VCD file (read by `VCDReader`), whose errors explain themselves.
    private static func isVCD(_ source: String) -> Bool { source.lowercased().hasSuffix(".vcd") }

    /// What a text trace's lines must look like; nothing for VCD.
    private static func formatHint(_ source: String) -> String {
        isVCD(source) ? "" : "; each line must be t_ns,level (nanoseconds, then 0 or 1), or t_ns,line,level in a trace of several lines"
    }
}

extension FileDescriptor {
    /// Opens `path` for a trace reader: read-only, and not a directory (which `open(2)` allows and
    /// only the first `read(2)` would refuse), with a failure as `TraceError.cannotOpen`.
    static func openTrace(_ path: String) throws(TraceError) -> FileDescriptor {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(FilePath(path), .readOnly)
        } catch let errno as Errno {
            throw .cannotOpen(path: path, errno: errno)
        } catch {
            throw .cannotOpen(path: path, errno: .ioError)
        }
        if isDirectory(descriptor.rawValue) {
            try? descriptor.close()
            throw .cannotOpen(path: path, errno: .isDirectory)
        }
        return descriptor
    }

    /// `read(2)` into `buffer` for a trace reader (retrying `EINTR`), with a failure as the reader's
    /// `TraceError.readFailed` naming `source`. Returns the bytes read; 0 at the end of the file.
    func readTrace(into buffer: UnsafeMutableRawBufferPointer, source: String) throws(TraceError) -> Int {
        do {
            return try read(into: buffer)
        } catch let errno as Errno {
            throw .readFailed(source: source, errno: errno)
        } catch {
            throw .readFailed(source: source, errno: .ioError)
        }
    }
}

/// Whether the open file `descriptor` is a directory.
private func isDirectory(_ descriptor: Int32) -> Bool {
    var status = stat()
    return fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
}
