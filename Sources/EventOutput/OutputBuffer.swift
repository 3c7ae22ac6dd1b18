#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSys
import SystemPackage

/// Bytes on their way to a file descriptor, written in large blocks (one `write(2)` per 64 KiB),
/// with the few formatting primitives the writers need. No allocation after creation.
public final class OutputBuffer {
    /// Where the bytes go. Not owned: the caller closes it.
    public let fileDescriptor: FileDescriptor
    /// Not checked for exclusive access at run time (`@exclusivity(unchecked)`): a buffer is used from
    /// one thread, no access to it overlaps another, and the check cost about 300 instructions per
    /// append, a quarter of a watched edge's whole path.
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    private let flushThreshold: Int

    /// A buffer flushing to `fileDescriptor` whenever `flushThreshold` bytes have gathered
    /// (use 0 to write at every `endLine`, as a live event stream should).
    public init(fileDescriptor: FileDescriptor, flushThreshold: Int = 64 * 1024) {
        self.fileDescriptor = fileDescriptor
        self.flushThreshold = flushThreshold
        bytes.reserveCapacity(max(min(flushThreshold, 64 * 1024), 4096) + 256)
    }

    /// Whether every line is written as it ends (`flushThreshold` 0), none kept for a later `flush`.
    public var writesEachLine: Bool { flushThreshold == 0 }

    @inlinable
    public func append(_ byte: UInt8) { appendByte(byte) }

    @usableFromInline
    func appendByte(_ byte: UInt8) { bytes.append(byte) }

    /// Appends ASCII or UTF-8 text.
    public func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes formatted before.
    public func append(_ formatted: [UInt8]) {
        bytes.append(contentsOf: formatted)
    }

    /// Appends bytes formatted before, from memory the caller owns.
    public func append(_ formatted: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: formatted)
    }

    /// Appends a string's UTF-8 bytes. (Not an overload of `append`: a string literal would pick it
    /// over `append(StaticString)`.)
    public func appendUTF8(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends `value` in decimal (`ByteWriter.put`).
    public func append(_ value: Int64) {
        appendFormatted(maximumCount: 20) { $0.put(value) }
    }

    /// Appends `value` (which must be >= 0) in decimal, left-padded with zeros to `width` digits.
    public func append(_ value: Int64, zeroPaddedTo width: Int) {
        var digits = 1
        var limit: Int64 = 10
        while value >= limit, digits < 19 {
            digits += 1
            limit = limit.multipliedReportingOverflow(by: 10).overflow ? .max : limit * 10
        }
        for _ in digits..<max(width, digits) { bytes.append(UInt8(ascii: "0")) }
        append(value)
    }

    /// Appends what `format` writes into a buffer of `maximumCount` bytes (on the stack when small),
    /// with one copy: the fast way to add a whole line.
    public func appendFormatted(maximumCount: Int, _ format: (inout ByteWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumCount) { memory in
            guard let start = memory.baseAddress else { return }
            var writer = ByteWriter(start: start, capacity: memory.count)
            format(&writer)
            bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: writer.count))
        }
    }

    /// Appends a whole line, what `format` writes into at most `maximumCount` bytes and then a newline,
    /// as `appendFormatted` and `endLine` do. A buffer that writes every line (`flushThreshold` 0) and
    /// holds nothing writes it straight from the stack: one `write(2)`, no copy into the buffer.
    public func appendLine(maximumCount: Int, _ format: (inout ByteWriter) -> Void) throws(Errno) {
        guard flushThreshold == 0, bytes.isEmpty else {
            appendFormatted(maximumCount: maximumCount, format)
            try endLine()
            return
        }
        let result: Result<Void, Errno> = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumCount + 1) { memory in
            guard let start = memory.baseAddress else { return .success(()) }
            var writer = ByteWriter(start: start, capacity: memory.count)
            format(&writer)
            writer.put(UInt8(ascii: "\n"))
            return Self.write(UnsafeRawBufferPointer(start: start, count: writer.count), to: fileDescriptor)
        }
        try result.get()
    }

    /// Hands what was appended and not written out to `body`, then drops it, keeping the memory: for a
    /// buffer that keeps its lines (a `flushThreshold` no line reaches) rather than writes them.
    package func drain(_ body: ([UInt8]) -> Void) {
        body(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Ends a line, writing out the buffer if it reached the flush threshold.
    public func endLine() throws(Errno) {
        bytes.append(UInt8(ascii: "\n"))
        if bytes.count >= flushThreshold { try flush() }
    }

    /// Writes out everything buffered (`write(2)` until done, retrying `EINTR`). Through the concrete
    /// `FileDescriptor.write(_:)`, not the generic `writeAll`, whose unspecialized body looks up type
    /// metadata in the runtime's caches on every call: that was a twentieth of a watched edge's path.
    public func flush() throws(Errno) {
        guard !bytes.isEmpty else { return }
        defer { bytes.removeAll(keepingCapacity: true) }
        let result: Result<Void, Errno> = bytes.withUnsafeBytes { Self.write($0, to: fileDescriptor) }
        try result.get()
    }

    /// Writes all of `pending` to `descriptor` (`write(2)` until done, retrying `EINTR` with LinuxSys's
    /// `retryingInterrupts`). The C function is called directly: swift-system's `FileDescriptor.write`
    /// goes through two more calls and an untyped throw, on the path of every live event line.
    private static func write(_ pending: UnsafeRawBufferPointer, to descriptor: FileDescriptor) -> Result<Void, Errno> {
        var pending = pending
        while let start = pending.baseAddress, !pending.isEmpty {
            let count = pending.count
            let written: Int
            do { written = try retryingInterrupts { systemWrite(descriptor.rawValue, start, count) } } catch { return .failure(error) }
            guard written > 0 else { return .failure(.ioError) }  // never for a non-empty write(2); no endless loop
            pending = UnsafeRawBufferPointer(rebasing: pending[written...])
        }
        return .success(())
    }
}

/// `write(2)`, under a name of its own (inside `OutputBuffer`, `write` is the buffer's method).
@inline(__always)
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
