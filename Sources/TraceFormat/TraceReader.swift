#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DebounceCore
import SystemPackage

/// Streams a recorded trace in the replay text format, one record at a time, in bounded memory
/// (one 1 MiB buffer, however long the trace).
///
/// The format: lines `t_ns,level`, `t_ns` a whole number of nanoseconds (a sign allowed), `level` 0 or 1.
/// The first data line gives the initial level and emits nothing; every later one is an edge.
/// Blank lines and lines starting with `#` are ignored, and so is a header `t_ns,level` before the
/// first data line. Spaces and tabs around fields, a `\r` line end (CRLF files) and a UTF-8 byte-order
/// mark at the start of the file (as spreadsheet programs save CSV) are tolerated.
///
/// **Several lines** (an encoder's A and B): with `readsLineColumn`, a line may be `t_ns,line,level`,
/// `line` a whole number from 0 to `maximumLine` (`t_ns,level` is line 0; the header may be
/// `t_ns,line,level`), and `lastRecordLine` says which line the record last returned is of; each
/// line's first data line is its initial level (`TraceLinesReader`). Without it, a line column is
/// refused with a message saying how to replay such a trace.
///
/// **Hostile input** ends with an error naming the line, in bounded memory: a line over
/// `maximumLineBytes` (wherever it falls, with or without a newline), a NUL byte, a time beyond
/// `Int64`, more than `maximumSkippedLines` blank or comment lines in a row (an endless `yes '' |`).
/// Endless valid data streams in bounded memory: `replay` follows it, `analyze` stops at its edge limit.
public final class TraceReader {
    /// How the trace is named in error messages: its path, or `<stdin>`.
    public let sourceName: String
    /// The 1-based number of the line last read.
    @exclusivity(unchecked) public private(set) var lineNumber = 0

    private let fileDescriptor: FileDescriptor
    private let ownsFileDescriptor: Bool
    private let buffer: UnsafeMutableRawBufferPointer
    // The reading state is unchecked for exclusive access: a reader is used by one caller at a time,
    // and a dynamic check on every access of every byte's line cost more than the parsing.
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEndOfFile = false
    @exclusivity(unchecked) private var sawData = false

    /// The longest line accepted: far more than any `t_ns,level` needs. A longer line (a file with no
    /// line breaks, an endless stream of one line) stops the reader after this many bytes.
    public static let maximumLineBytes = 4096

    /// The most blank or comment lines in a row: far more than any recording writes (a comment per loss
    /// of events, a header), so an endless stream of them ends with an error instead of never ending.
    public static let maximumSkippedLines = 1 << 20

    /// Whether a `t_ns,line,level` line is read (a trace of several lines), or refused.
    public let readsLineColumn: Bool
    /// The line column of the record `next()` last returned: 0 for a `t_ns,level` line.
    @exclusivity(unchecked) public private(set) var lastRecordLine = 0
    /// The problem reported for a line column when `readsLineColumn` is off.
    public static let lineColumnRefused = "a line column (t_ns,line,level): this trace holds several lines; replay it with --encoder A,B"
    /// The largest line number a line column may hold.
    public static let maximumLine = 63

    /// Blank or comment lines read since the last data line.
    @exclusivity(unchecked) private var skippedLines = 0

    /// The problem reported for a line holding a NUL byte.
    public static let nulByte = "a NUL byte: this is binary data, not a text trace"

    /// A reader of `fileDescriptor`, closed when the reader goes away if `ownsFileDescriptor`.
    public init(
        fileDescriptor: FileDescriptor, sourceName: String, ownsFileDescriptor: Bool, bufferBytes: Int = 1 << 20, readsLineColumn: Bool = false
    ) {
        self.readsLineColumn = readsLineColumn
        self.fileDescriptor = fileDescriptor
        self.sourceName = sourceName
        self.ownsFileDescriptor = ownsFileDescriptor
        self.buffer = .allocate(byteCount: max(bufferBytes, Self.maximumLineBytes + 1), alignment: 16)
    }

    /// Opens `path` for reading (`-` is standard input), reading a line column if `readsLineColumn`.
    public static func open(_ path: String, readsLineColumn: Bool = false) throws(TraceError) -> TraceReader {
        if path == "-" {
            return TraceReader(fileDescriptor: .standardInput, sourceName: "<stdin>", ownsFileDescriptor: false, readsLineColumn: readsLineColumn)
        }
        return TraceReader(fileDescriptor: try .openTrace(path), sourceName: path, ownsFileDescriptor: true, readsLineColumn: readsLineColumn)
    }

    deinit {
        buffer.deallocate()
        if ownsFileDescriptor { try? fileDescriptor.close() }
    }

    /// The next data line as an edge (the first one is the initial level), or `nil` at the end.
    public func next() throws(TraceError) -> Edge? {
        if let edge = nextBuffered() { return edge }
        while true {
            let base = buffer.baseAddress!
            if let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start) {
                let lineEnd = base.distance(to: UnsafeMutableRawPointer(newline))
                lineNumber += 1
                // The limit holds wherever the line falls in the buffer, not only when it straddles a refill.
                if lineEnd - start > Self.maximumLineBytes {
                    throw .lineTooLong(source: sourceName, line: lineNumber, limitBytes: Self.maximumLineBytes)
                }
                let record = try parse(from: start, to: lineEnd)
                start = lineEnd + 1
                if let record { return record }
                try skipped()
                continue
            }
            if atEndOfFile {
                guard start < end else { return nil }
                lineNumber += 1
                if end - start > Self.maximumLineBytes {
                    throw .lineTooLong(source: sourceName, line: lineNumber, limitBytes: Self.maximumLineBytes)
                }
                let record = try parse(from: start, to: end)
                start = end
                if let record { return record }
                try skipped()
                continue
            }
            try refill()
        }
    }

    /// The next line when it is a plain `t_ns,level` line already in the buffer (`PlainTraceLine`, nearly
    /// every line of a trace), read in place without looking for its end first; `nil` for anything else,
    /// which `next()` then reads. Never reads input, never fails.
    @inline(__always)
    func nextBuffered() -> Edge? {
        guard end - start >= PlainTraceLine.minimumBytes, let (edge, length) = PlainTraceLine.parse(buffer.baseAddress! + start) else { return nil }
        start += length
        lineNumber += 1
        lastRecordLine = 0
        sawData = true
        skippedLines = 0
        return edge
    }

    /// Reads plain lines already in the buffer (as `nextBuffered()` does, one after another) into
    /// `records[index...]`, each as a record of `line`, until `records` is full or the next line is not
    /// plain; returns the index after the last record read. The reading state is kept in locals and
    /// written back once: a replay's loop over nearly all of its lines.
    func readBuffered(into records: UnsafeMutableBufferPointer<(line: Int, edge: Edge)>, from index: Int, line: Int) -> Int {
        let base = UnsafeRawPointer(buffer.baseAddress!)
        var position = start
        var count = index
        while count < records.count, end - position >= PlainTraceLine.minimumBytes, let (edge, length) = PlainTraceLine.parse(base + position) {
            records[count] = (line, edge)
            count += 1
            position += length
        }
        guard count > index else { return count }
        start = position
        lineNumber += count - index
        lastRecordLine = 0
        sawData = true
        skippedLines = 0
        return count
    }

    /// Counts a line that held no data, and stops an endless run of them.
    private func skipped() throws(TraceError) {
        skippedLines += 1
        if skippedLines > Self.maximumSkippedLines {
            throw .tooManySkippedLines(source: sourceName, line: lineNumber, limit: Self.maximumSkippedLines)
        }
    }

    /// Moves the partial line to the front of the buffer and reads more after it.
    private func refill() throws(TraceError) {
        if end - start > Self.maximumLineBytes {
            throw .lineTooLong(source: sourceName, line: lineNumber + 1, limitBytes: Self.maximumLineBytes)
        }
        if start > 0 {
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: end - start)
            end -= start
            start = 0
        }
        let count = try fileDescriptor.readTrace(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]), source: sourceName)
        if count == 0 { atEndOfFile = true }
        end += count
    }

    /// Parses the bytes of one line (without its `\n`): an edge, or `nil` for a line to skip.
    private func parse(from lineStart: Int, to lineEnd: Int) throws(TraceError) -> Edge? {
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[lineStart..<lineEnd])
        var low = lineNumber == 1 && Self.startsWithByteOrderMark(bytes) ? 3 : 0
        var high = bytes.count
        while high > low, Self.isBlank(bytes[high - 1]) { high -= 1 }
        while low < high, Self.isBlank(bytes[low]) { low += 1 }
        if low == high || bytes[low] == UInt8(ascii: "#") { return nil }

        var index = low
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var magnitude: Int64 = 0
        let digitsStart = index
        while index < high, bytes[index] &- UInt8(ascii: "0") < 10 {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(bytes[index] &- UInt8(ascii: "0")))
            if overflow1 || overflow2 { throw malformed("t_ns is out of range", bytes, low, high) }
            magnitude = sum
            index += 1
        }
        if index == digitsStart {
            if !sawData, Self.isHeader(bytes, low, high, lineColumn: readsLineColumn) { return nil }
            if !sawData, Self.isHeader(bytes, low, high, lineColumn: true) { throw malformed(Self.lineColumnRefused, bytes, low, high) }
            throw malformed("t_ns is not a whole number of nanoseconds", bytes, low, high)
        }
        while index < high, Self.isBlank(bytes[index]) { index += 1 }
        guard index < high, bytes[index] == UInt8(ascii: ",") else {
            throw malformed("expected a comma after t_ns", bytes, low, high)
        }
        index += 1
        while index < high, Self.isBlank(bytes[index]) { index += 1 }
        if index + 1 == high, bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1") {
            lastRecordLine = 0
        } else {
            index = try lineColumn(bytes, at: index, low, high)
        }
        sawData = true
        skippedLines = 0
        return Edge(level: bytes[index] == UInt8(ascii: "0") ? .low : .high, timeNs: negative ? -magnitude : magnitude)
    }

    /// Reads `line,level` from `index` (after the first comma) into `lastRecordLine`; returns the
    /// level's index. Throws for a line that is neither `t_ns,level` nor `t_ns,line,level`, and for a
    /// line column when `readsLineColumn` is off.
    private func lineColumn(_ bytes: UnsafeRawBufferPointer, at start: Int, _ low: Int, _ high: Int) throws(TraceError) -> Int {
        var index = start
        var line = 0
        while index < high, bytes[index] &- UInt8(ascii: "0") < 10 {
            line = min(line * 10 + Int(bytes[index] &- UInt8(ascii: "0")), Self.maximumLine + 1)
            index += 1
        }
        let digitsEnd = index
        while index < high, Self.isBlank(bytes[index]) { index += 1 }
        guard digitsEnd > start, index < high, bytes[index] == UInt8(ascii: ",") else {
            throw malformed("level must be 0 or 1", bytes, low, high)
        }
        guard readsLineColumn else {
            throw malformed(Self.lineColumnRefused, bytes, low, high)
        }
        guard line <= Self.maximumLine else {
            throw malformed("line must be a whole number from 0 to \(Self.maximumLine)", bytes, low, high)
        }
        index += 1
        while index < high, Self.isBlank(bytes[index]) { index += 1 }
        guard index + 1 == high, bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1") else {
            throw malformed("level must be 0 or 1", bytes, low, high)
        }
        lastRecordLine = line
        return index
    }

    /// The error for a line that is not `t_ns,level`; for a line holding a NUL byte, that it is binary
    /// data (a NUL is never part of a valid line, so the check costs nothing on good data).
    private func malformed(_ problem: String, _ bytes: UnsafeRawBufferPointer, _ low: Int, _ high: Int) -> TraceError {
        let shown = UnsafeRawBufferPointer(rebasing: bytes[low..<min(high, low + 80)])
        let line = UnsafeRawBufferPointer(rebasing: bytes[low..<high])
        let hasNUL = !line.isEmpty && memchr(line.baseAddress!, 0, line.count) != nil
        return .malformedLine(
            source: sourceName, line: lineNumber, problem: hasNUL ? Self.nulByte : problem,
            text: String(decoding: shown, as: UTF8.self) + (high - low > 80 ? "…" : ""))
    }

    /// Whether the line starts with UTF-8's byte-order mark (EF BB BF), which spreadsheet programs
    /// write at the start of a CSV file: on the first line it is skipped.
    private static func startsWithByteOrderMark(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    @inline(__always)
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// `t_ns,level`, or with a line column `t_ns,line,level` too.
    private static func isHeader(_ bytes: UnsafeRawBufferPointer, _ low: Int, _ high: Int, lineColumn: Bool) -> Bool {
        let text = UnsafeRawBufferPointer(rebasing: bytes[low..<high]).filter { !isBlank($0) }
        return text.elementsEqual("t_ns,level".utf8) || (lineColumn && text.elementsEqual("t_ns,line,level".utf8))
    }
}
