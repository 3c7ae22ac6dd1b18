#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DebounceCore
import SystemPackage

/// Streams one 1-bit channel of a Value Change Dump (IEEE 1364 VCD, as written by logic analyzers,
/// sigrok-cli and PulseView, simulators and GTKWave) as edges, in bounded memory (one buffer, 1 MiB
/// by default, however long the dump).
///
/// The header: `$timescale` (1, 10 or 100 of s, ms, us, ns, ps, fs, on one line or spread over
/// several; 1 ns when absent), `$scope`/`$upscope`, `$var`, `$enddefinitions`; `$comment`, `$date`,
/// `$version` and any other `$keyword … $end` blocks are skipped. The channel is chosen by name
/// (the `$var` reference name such as `D0`, with a bit-select such as `data[3]`, or with its scope,
/// `libsigrok.D0`), else by 0-based index among the 1-bit variables, or is the only 1-bit variable.
///
/// The value changes: `#time`, scalar changes `0!` `1!` (a space before the identifier is tolerated),
/// vector changes `b1 !` (the last bit counts for a 1-bit channel), real and string changes (skipped),
/// several on a line or one per line; `$dumpvars`, `$dumpall`, `$dumpon`, `$dumpoff` and `$end` are
/// transparent and `$comment … $end` is skipped. Changes before the first `#time` are at time 0.
/// Times must not decrease; they are converted to nanoseconds (rounding down for ps and fs).
///
/// The first 0 or 1 of the channel is the initial level (the first edge returned); every later value
/// that differs from the current level is an edge, and a repeated value is none.
///
/// **Several channels** (an encoder's A and B, `init(…channels:…)`): `nextLineEdge()` returns the
/// changes of all of them in the file's order, each with the index of its channel in the list asked
/// for; each channel's first 0 or 1 is its initial level.
///
/// **x and z:** the unknown values `x`, `z` (and `u`, `w`, `-`, any case) are skipped: they neither set
/// nor change the level, so the level holds its last 0 or 1 and the next 0 or 1 is compared with
/// that. The weak levels `l` and `h` read as 0 and 1.
///
/// **Hostile input** ends with an error naming the line, in bounded memory and time however long the
/// input: a NUL byte (binary data, a stream of zeros), a token over `maximumTokenBytes` (16 MiB) with
/// no space or line break, a header word over `maximumNameBytes`, more than `maximumChannels`
/// variables, a scope path over `maximumScopeBytes`. A device or pipe that streams valid value changes
/// for ever (only ever of other channels, say) is read for as long as it streams, in bounded memory, as
/// `replay` follows a live trace; no limit on the changes between two edges is imposed, since a long
/// capture with a busy clock channel beside a quiet button is valid. (`/dev/zero` is a NUL byte.)
public final class VCDReader: TraceSource {
    /// How the dump is named in error messages: its path, or `<stdin>`.
    public let sourceName: String
    /// The channel asked for: a name, a 0-based index among the 1-bit channels, or `nil` for the only
    /// one (or the first of `requestedChannels`).
    public let requestedChannel: String?
    /// The channels asked for, when several are read (names or 0-based indices); empty for one.
    public let requestedChannels: [String]
    /// The 1-based line of the last token read.
    public private(set) var lineNumber = 0
    /// Every variable the header declares, in order (empty until the header is read).
    public internal(set) var channels: [VCDChannel] = []
    /// The channel being read (`nil` until the header is read): the first when several are.
    public internal(set) var channel: VCDChannel?
    /// The channels being read, in the order asked for (empty until the header is read).
    public internal(set) var chosenChannels: [VCDChannel] = []
    /// The timescale, normalised, such as `1 us` (`1 ns` until the header is read, or if it has none).
    public internal(set) var timescale = "1 ns"
    /// The last `#time` read, in nanoseconds: after the end, the end of the capture (sigrok writes one).
    public private(set) var latestTimeNs: Int64?

    /// The smallest read buffer: tokens needed whole (names, identifiers, times) must fit in it.
    public static let minimumBufferBytes = 64

    /// The longest token (a run of bytes without a space or line break) read, however large the
    /// buffer: a longer one (a file of one endless word, a stream of zeros) stops the reader with an
    /// error after this many bytes. Far more than any value change needs (a 16-million-bit vector).
    public static let maximumTokenBytes = 1 << 24

    /// The longest word in a `$var` or `$scope` declaration (a type, identifier, name or bit-select).
    public static let maximumNameBytes = 256

    /// The most variables a header may declare, and the longest scope path (`top.sub.…`): with the
    /// limit on names, the header is read in bounded memory, whatever it holds.
    public static let maximumChannels = 65_536
    public static let maximumScopeBytes = 1024

    let fileDescriptor: FileDescriptor
    let ownsFileDescriptor: Bool
    let buffer: UnsafeMutableRawBufferPointer
    var start = 0
    var end = 0
    var atEndOfFile = false
    var line = 1
    /// Whether a NUL byte has been read: from then on every token is checked for one.
    var readNUL = false

    // The current token: buffer[tokenStart..<tokenEnd], or, if it was longer than the buffer, its
    // first bytes in `prefix` (and its last byte in `longTokenLastByte`).
    var tokenStart = 0
    var tokenEnd = 0
    var tokenIsLong = false
    let longTokenPrefix: UnsafeMutableRawBufferPointer
    var prefixCount = 0
    var longTokenLastByte: UInt8 = 0

    var headerRead = false
    /// The identifier of each channel as the file spells it, byte for byte (`channels[i].identifier`
    /// is that as a `String`, where bytes that are not UTF-8 would read as U+FFFD).
    var identifierBytes: [[UInt8]] = []
    /// The chosen channels' identifiers, in the order asked for.
    var chosenIdentifiers: [[UInt8]] = []
    var multiplier: UInt64 = 1  // nanoseconds = ticks * multiplier / divisor
    var divisor: UInt64 = 1
    var latestTicks: UInt64?
    var currentNs: Int64 = 0
    /// Each chosen channel's level (`nil` before its first 0 or 1).
    var levels: [Level?] = []

    /// A reader of `fileDescriptor`, closed when the reader goes away if `ownsFileDescriptor`.
    /// The header is read by `readHeader()` or the first `next()`.
    public convenience init(
        fileDescriptor: FileDescriptor, sourceName: String, ownsFileDescriptor: Bool, channel: String?,
        bufferBytes: Int = 1 << 20
    ) {
        self.init(fileDescriptor: fileDescriptor, sourceName: sourceName, ownsFileDescriptor: ownsFileDescriptor, channels: [], single: channel, bufferBytes: bufferBytes)
    }

    /// A reader of the channels `channels` (names or 0-based indices among the 1-bit channels, at
    /// least two, each a different channel) of `fileDescriptor`, for `nextLineEdge()`.
    public convenience init(
        fileDescriptor: FileDescriptor, sourceName: String, ownsFileDescriptor: Bool, channels: [String], bufferBytes: Int = 1 << 20
    ) {
        self.init(
            fileDescriptor: fileDescriptor, sourceName: sourceName, ownsFileDescriptor: ownsFileDescriptor, channels: channels,
            single: channels.first, bufferBytes: bufferBytes)
    }

    private init(
        fileDescriptor: FileDescriptor, sourceName: String, ownsFileDescriptor: Bool, channels: [String], single: String?, bufferBytes: Int
    ) {
        self.fileDescriptor = fileDescriptor
        self.sourceName = sourceName
        self.ownsFileDescriptor = ownsFileDescriptor
        self.requestedChannel = single
        self.requestedChannels = channels
        self.buffer = .allocate(byteCount: max(bufferBytes, Self.minimumBufferBytes), alignment: 16)
        self.longTokenPrefix = .allocate(byteCount: 80, alignment: 1)
    }

    /// Opens `path` (`-` is standard input) and reads its header, choosing `channel` (a name, a 0-based
    /// index among the 1-bit channels, or `nil` for the only one).
    public static func open(_ path: String, channel: String?) throws(TraceError) -> VCDReader {
        let reader: VCDReader
        if path == "-" {
            reader = VCDReader(fileDescriptor: .standardInput, sourceName: "<stdin>", ownsFileDescriptor: false, channel: channel)
        } else {
            reader = VCDReader(fileDescriptor: try .openTrace(path), sourceName: path, ownsFileDescriptor: true, channel: channel)
        }
        try reader.readHeader()
        return reader
    }

    /// Opens `path` (`-` is standard input) and reads its header, choosing `channels` (names or
    /// 0-based indices, each a different channel), for `nextLineEdge()`.
    public static func open(_ path: String, channels: [String]) throws(TraceError) -> VCDReader {
        let reader: VCDReader
        if path == "-" {
            reader = VCDReader(fileDescriptor: .standardInput, sourceName: "<stdin>", ownsFileDescriptor: false, channels: channels)
        } else {
            reader = VCDReader(fileDescriptor: try .openTrace(path), sourceName: path, ownsFileDescriptor: true, channels: channels)
        }
        try reader.readHeader()
        return reader
    }

    deinit {
        buffer.deallocate()
        longTokenPrefix.deallocate()
        if ownsFileDescriptor { try? fileDescriptor.close() }
    }

    // MARK: Value changes

    /// The next edge of the channel (the first one is the initial level), or `nil` at the end.
    public func next() throws(TraceError) -> Edge? {
        try nextChange()?.edge
    }

    /// The next edge of any chosen channel, with its index among them (each channel's first is its
    /// initial level), or `nil` at the end.
    func nextChange() throws(TraceError) -> (channel: Int, edge: Edge)? {
        if !headerRead { try readHeader() }
        while try nextToken() {
            let first = token[0]
            switch first {
            case UInt8(ascii: "#"):
                try readTime()
            case UInt8(ascii: "$"):
                if tokenIs("$dumpvars") || tokenIs("$dumpall") || tokenIs("$dumpon") || tokenIs("$dumpoff")
                    || tokenIs("$end")
                {
                    continue
                }
                if tokenIs("$comment") {
                    while try nextToken(), !tokenIs("$end") {}
                    continue
                }
                throw malformed(VCDProblem.unexpectedToken)
            case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "r"), UInt8(ascii: "R"), UInt8(ascii: "s"),
                UInt8(ascii: "S"):
                let isVector = first | 0x20 == UInt8(ascii: "b")
                let count = tokenCount
                let lastBit = tokenIsLong ? longTokenLastByte : token[token.count - 1]
                guard count > 1 || first | 0x20 == UInt8(ascii: "s") else { throw malformed(VCDProblem.badVector) }
                // The identifier is the next token, whatever it looks like (`#` and `$` are identifiers too).
                guard try nextToken() else { return try endOfFile() }
                guard isVector, let chosen = chosenIndex(token) else { continue }
                guard let value = Self.bitValue(lastBit) else { throw malformed(VCDProblem.badBit) }
                if let value, let edge = apply(value, chosen) { return (chosen, edge) }
            default:
                guard let value = Self.bitValue(first) else { throw malformed(VCDProblem.unexpectedToken) }
                let chosen: Int?
                if tokenCount == 1 {
                    guard try nextToken() else { return try endOfFile() }
                    chosen = chosenIndex(token)
                } else {
                    chosen = chosenIndex(UnsafeRawBufferPointer(rebasing: token[1...]))
                }
                if let chosen, let value, let edge = apply(value, chosen) { return (chosen, edge) }
            }
        }
        return try endOfFile()
    }

    /// A 0 or 1 of chosen channel `index`: the initial level, an edge, or nothing for a repeated value.
    @inline(__always)
    func apply(_ value: Level, _ index: Int) -> Edge? {
        if levels[index] == value { return nil }
        levels[index] = value
        return Edge(level: value, timeNs: currentNs)
    }

    func endOfFile() throws(TraceError) -> (channel: Int, edge: Edge)? {
        if let missing = levels.firstIndex(of: nil) {
            let name = missing < chosenChannels.count ? chosenChannels[missing].fullName : "?"
            throw .malformedLine(source: sourceName, line: max(lineNumber, 1), problem: VCDProblem.noValue(name), text: "")
        }
        return nil
    }

    /// `nil` for a byte that is no bit value; `.some(nil)` for an unknown value (x, z, u, w, -).
    static func bitValue(_ byte: UInt8) -> Level?? {
        switch byte {
        case UInt8(ascii: "0"), UInt8(ascii: "l"), UInt8(ascii: "L"): return .some(.low)
        case UInt8(ascii: "1"), UInt8(ascii: "h"), UInt8(ascii: "H"): return .some(.high)
        case UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "z"), UInt8(ascii: "Z"), UInt8(ascii: "u"), UInt8(ascii: "U"),
            UInt8(ascii: "w"), UInt8(ascii: "W"), UInt8(ascii: "-"):
            return .some(nil)
        default: return nil
        }
    }

    /// The index among the chosen channels of the one `identifier` names, or `nil`.
    @inline(__always)
    func chosenIndex(_ identifier: UnsafeRawBufferPointer) -> Int? {
        guard !tokenIsLong else { return nil }
        for (chosen, expected) in chosenIdentifiers.enumerated() where Self.equal(identifier, expected) { return chosen }
        return nil
    }

    @inline(__always)
    static func equal(_ identifier: UnsafeRawBufferPointer, _ expected: [UInt8]) -> Bool {
        guard identifier.count == expected.count else { return false }
        for index in 0..<identifier.count where identifier[index] != expected[index] { return false }
        return true
    }

    /// `#ticks`: checks the order and converts to nanoseconds.
    func readTime() throws(TraceError) {
        if tokenIsLong { throw malformed(VCDProblem.timeOutOfRange) }
        let bytes = token
        guard bytes.count > 1 else { throw malformed(VCDProblem.badTime) }
        var ticks: UInt64 = 0
        for index in 1..<bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { throw malformed(VCDProblem.badTime) }
            let (times10, overflow1) = ticks.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { throw malformed(VCDProblem.timeOutOfRange) }
            ticks = sum
        }
        if let latestTicks, ticks < latestTicks {
            throw malformed(VCDProblem.timeBackwards(ticks, after: latestTicks))
        }
        let (high, low) = ticks.multipliedFullWidth(by: multiplier)
        guard high < divisor else { throw malformed(VCDProblem.timeOutOfRange) }
        let nanoseconds = divisor.dividingFullWidth((high, low)).quotient
        guard nanoseconds <= UInt64(Int64.max) else { throw malformed(VCDProblem.timeOutOfRange) }
        latestTicks = ticks
        currentNs = Int64(nanoseconds)
        latestTimeNs = currentNs
    }

    // MARK: Tokens

    /// The current token's bytes (its first 80 if it was longer than the buffer). Valid until the next token.
    var token: UnsafeRawBufferPointer {
        tokenIsLong
            ? UnsafeRawBufferPointer(rebasing: longTokenPrefix[0..<prefixCount])
            : UnsafeRawBufferPointer(rebasing: buffer[tokenStart..<tokenEnd])
    }

    var tokenText: String {
        let bytes = token
        let shown = String(decoding: bytes.prefix(80), as: UTF8.self)
        return tokenIsLong || bytes.count > 80 ? shown + "…" : shown
    }

    func tokenIs(_ text: StaticString) -> Bool {
        guard !tokenIsLong else { return false }
        let bytes = token
        return text.withUTF8Buffer { expected in
            guard expected.count == bytes.count else { return false }
            for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
            return true
        }
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte &- 9 < 5  // space, \t \n \v \f \r
    }

    /// Moves to the next whitespace-separated token; `false` at the end of the file.
    func nextToken() throws(TraceError) -> Bool {
        tokenIsLong = false
        while true {
            while start < end {
                let byte = buffer[start]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                } else if !Self.isSpace(byte) {
                    break
                }
                start += 1
            }
            if start < end { break }
            if atEndOfFile { return false }
            start = 0
            end = 0
            try refill()
        }
        lineNumber = line
        var index = start + 1
        while true {
            while index < end, !Self.isSpace(buffer[index]) { index += 1 }
            if index < end || atEndOfFile {
                tokenStart = start
                tokenEnd = index
                start = index
                try checkForNUL(UnsafeRawBufferPointer(rebasing: buffer[tokenStart..<tokenEnd]))
                if tokenEnd - tokenStart > Self.maximumTokenBytes {
                    throw malformed(VCDProblem.endlessToken(Self.maximumTokenBytes))
                }
                return true
            }
            if start > 0 {
                let count = end - start
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: count)
                index -= start
                start = 0
                end = count
            }
            if end == buffer.count {
                try skipLongToken()
                return true
            }
            try refill()
        }
    }

    /// The token fills the whole buffer: keeps its first bytes for messages and discards the rest, up
    /// to `maximumTokenBytes` in all.
    func skipLongToken() throws(TraceError) {
        try checkForNUL(UnsafeRawBufferPointer(rebasing: buffer[0..<end]))
        prefixCount = min(longTokenPrefix.count, end)
        longTokenPrefix.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<prefixCount]))
        longTokenLastByte = buffer[end - 1]
        tokenIsLong = true
        var length = end
        while true {
            start = 0
            end = 0
            try refill()
            var index = 0
            while index < end, !Self.isSpace(buffer[index]) { index += 1 }
            try checkForNUL(UnsafeRawBufferPointer(rebasing: buffer[0..<index]))
            if index > 0 { longTokenLastByte = buffer[index - 1] }
            length += index
            if length > Self.maximumTokenBytes { throw malformed(VCDProblem.endlessToken(Self.maximumTokenBytes)) }
            if index < end || atEndOfFile {
                start = index
                return
            }
        }
    }

    /// A VCD is text: a NUL byte in a token (binary data, a stream of zeros) is an error at once.
    /// Costs nothing until `refill` has read a NUL.
    @inline(__always)
    func checkForNUL(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
        if readNUL, !bytes.isEmpty, memchr(bytes.baseAddress!, 0, bytes.count) != nil {
            throw malformed(VCDProblem.nulByte)
        }
    }

    /// Reads more after `end`.
    func refill() throws(TraceError) {
        let count = try fileDescriptor.readTrace(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]), source: sourceName)
        if count == 0 { atEndOfFile = true }
        if !readNUL, count > 0, memchr(buffer.baseAddress! + end, 0, count) != nil { readNUL = true }
        end += count
    }

    func malformed(_ problem: String, text: String? = nil, line: Int? = nil) -> TraceError {
        .malformedLine(source: sourceName, line: max(line ?? lineNumber, 1), problem: problem, text: text ?? tokenText)
    }
}
