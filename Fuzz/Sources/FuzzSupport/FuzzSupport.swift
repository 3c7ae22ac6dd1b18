#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DebounceCore
import SystemPackage
import TraceFormat

/// What the fuzz targets share: the input as a descriptor, reading a trace out, and the checks that
/// turn a wrong answer (not only a crash) into a finding.
public enum Fuzz {
    /// A descriptor that reads exactly `bytes` and then the end of the file: a pipe already holding
    /// them when they fit in one (no file, no blocking), else an unlinked temporary file.
    public static func descriptor(holding bytes: UnsafeRawBufferPointer) -> FileDescriptor {
        if let (readEnd, writeEnd) = try? FileDescriptor.pipe() {
            let capacity = fcntl(writeEnd.rawValue, 1032)  // F_GETPIPE_SZ
            if bytes.count <= Int(capacity) {
                do {
                    _ = try writeEnd.writeAll(bytes)
                    try writeEnd.close()
                    return readEnd
                } catch {
                    fatalError("fuzz harness: cannot fill a pipe: \(error)")
                }
            }
            try? readEnd.close()
            try? writeEnd.close()
        }
        guard let file = tmpfile() else { fatalError("fuzz harness: no temporary file") }
        defer { fclose(file) }
        let descriptor = FileDescriptor(rawValue: dup(fileno(file)))
        do {
            _ = try descriptor.writeAll(bytes)
            _ = try descriptor.seek(offset: 0, from: .start)
        } catch {
            fatalError("fuzz harness: cannot fill a temporary file: \(error)")
        }
        return descriptor
    }

    /// Everything a reader gave: its edges, and the error that stopped it (`nil`: it read to the end).
    public struct Outcome: Equatable, CustomStringConvertible {
        public var edges: [Edge] = []
        public var error: TraceError?

        public var description: String {
            "\(edges.count) edges \(edges.prefix(8).map { "\($0.level == .high ? 1 : 0)@\($0.timeNs)" })…, "
                + (error.map { "error: \($0)" } ?? "no error")
        }
    }

    /// Reads `source` to its end or its first error. A reader must stop: it cannot give more edges than
    /// the input has bytes, and once at the end it stays there.
    public static func readAll(_ source: some TraceSource, inputBytes: Int) -> Outcome {
        var outcome = Outcome()
        do {
            while let edge = try source.next() {
                outcome.edges.append(edge)
                require(outcome.edges.count <= inputBytes, "more edges than input bytes: the reader does not stop")
            }
            require(try source.next() == nil, "an edge after the end")
        } catch {
            outcome.error = error
            require(!error.description.isEmpty, "an error without a message")
        }
        return outcome
    }

    /// Stops the run with a crash libFuzzer keeps as a finding, saying why, unless `condition` holds.
    public static func require(_ condition: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String) {
        let holds: Bool
        do { holds = try condition() } catch { holds = false }
        if !holds { fatalError("fuzz check failed: \(message())") }
    }

    /// The longest run of bytes that are not whitespace (as VCD reads it: space, \t \n \v \f \r).
    public static func longestToken(_ bytes: UnsafeRawBufferPointer) -> Int {
        var longest = 0
        var run = 0
        for byte in bytes {
            if byte == UInt8(ascii: " ") || byte &- 9 < 5 {
                run = 0
            } else {
                run += 1
                longest = max(longest, run)
            }
        }
        return longest
    }

    /// The number of lines in `bytes` (a last line without `\n` counts).
    public static func lineCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        let newlines = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        return newlines + (bytes.last.map { $0 == UInt8(ascii: "\n") ? 0 : 1 } ?? 0)
    }

    /// The input as text (invalid UTF-8 repaired, as a `String` read from a file would be).
    public static func text(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    }
}

extension TraceError {
    /// The line a malformed-line or line-too-long error names.
    public var line: Int? {
        switch self {
        case .malformedLine(_, let line, _, _), .lineTooLong(_, let line, _): line
        default: nil
        }
    }
}
