import DebounceCore
import SystemPackage

/// One variable declared in a VCD header (`$var type size identifier reference [bit-select] $end`).
public struct VCDChannel: Sendable, Hashable, CustomStringConvertible {
    /// The reference name with its bit-select if any: `D0`, `button`, `data[3]`.
    public var name: String
    /// The enclosing `$scope` names joined with `.`: `libsigrok`, `top.sub`, or empty.
    public var scope: String
    /// The declared type: `wire`, `reg`, `integer`, `real`…
    public var type: String
    /// The declared width in bits.
    public var width: Int
    /// The identifier code value changes use: `!`, `"`, `#`…
    public var identifier: String

    public init(name: String, scope: String, type: String, width: Int, identifier: String) {
        self.name = name
        self.scope = scope
        self.type = type
        self.width = width
        self.identifier = identifier
    }

    /// The name with its scope: `libsigrok.D0`.
    public var fullName: String { scope.isEmpty ? name : scope + "." + name }

    /// Whether the channel can be read as a GPIO line: one bit, and not a real, event or string.
    public var isOneBit: Bool {
        width == 1 && !["real", "realtime", "event", "string"].contains(type)
    }

    public var description: String { fullName }
}

/// The `problem` texts of the `TraceError.malformedLine` errors `VCDReader` throws (VCD needs no
/// error cases of its own: every problem is located at a line of the file).
public enum VCDProblem {
    public static let notVCD =
        "expected a VCD header keyword such as $timescale, $scope, $var or $enddefinitions (is this a VCD file?)"
    public static let truncatedHeader = "the file ends before $enddefinitions: the VCD header is incomplete"
    public static let valuesInHeader = "value changes before $enddefinitions: the VCD header is incomplete"
    public static func unterminated(_ keyword: String) -> String { "the file ends inside \(keyword) (no $end)" }
    public static func unknownTimescale(_ text: String) -> String {
        "unknown timescale '\(text)': expected 1, 10 or 100 followed by s, ms, us, ns, ps or fs"
    }
    public static let badVar = "a variable must be declared as $var type size identifier name $end"
    public static let noChannels = "the VCD declares no 1-bit channel ($var wire 1 <id> <name> $end)"
    public static func chooseChannel(_ available: String) -> String {
        "the VCD has several 1-bit channels; choose one with --channel NAME or --channel INDEX (0-based): \(available)"
    }
    public static func unknownChannel(_ name: String, _ available: String) -> String {
        "no channel '\(name)' in the VCD; its 1-bit channels are: \(available) (or give a 0-based index)"
    }
    public static func notOneBit(_ name: String, width: Int, type: String) -> String {
        "channel '\(name)' is a \(type) of \(width) bits; only a 1-bit channel can be read as a GPIO line"
    }
    public static func ambiguousChannel(_ name: String, _ candidates: String) -> String {
        "channel name '\(name)' is ambiguous; give one of: \(candidates)"
    }
    public static func noValue(_ name: String) -> String {
        "the file ends without any 0 or 1 value for channel '\(name)', so not even an initial level"
    }
    public static let badTime = "a time must be # followed by a whole number of timescale units"
    public static let timeOutOfRange = "time is out of range (beyond 2^63-1 nanoseconds)"
    public static func timeBackwards(_ time: UInt64, after previous: UInt64) -> String {
        "time goes backwards (#\(time) after #\(previous))"
    }
    public static let badVector = "a vector or real value change must be b<bits> <id> or r<number> <id>"
    public static let badBit = "the value of a 1-bit channel must be 0, 1, x or z"
    public static let unexpectedToken =
        "expected #time, a value change such as 1! or b101 !, or $dumpvars/$dumpall/$dumpon/$dumpoff/$comment/$end"
    public static let tokenTooLong = "a name, identifier or time longer than the read buffer"
}

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
/// **x and z:** the unknown values `x`, `z` (and `u`, `w`, `-`, any case) are skipped: they neither set
/// nor change the level, so the level holds its last 0 or 1 and the next 0 or 1 is compared with
/// that. The weak levels `l` and `h` read as 0 and 1.
public final class VCDReader: TraceSource {
    /// How the dump is named in error messages: its path, or `<stdin>`.
    public let sourceName: String
    /// The channel asked for: a name, a 0-based index among the 1-bit channels, or `nil` for the only one.
    public let requestedChannel: String?
    /// The 1-based line of the last token read.
    public private(set) var lineNumber = 0
    /// Every variable the header declares, in order (empty until the header is read).
    public private(set) var channels: [VCDChannel] = []
    /// The channel being read (`nil` until the header is read).
    public private(set) var channel: VCDChannel?
    /// The timescale, normalised, such as `1 us` (`1 ns` until the header is read, or if it has none).
    public private(set) var timescale = "1 ns"
    /// The last `#time` read, in nanoseconds: after the end, the end of the capture (sigrok writes one).
    public private(set) var latestTimeNs: Int64?

    /// The smallest read buffer: tokens needed whole (names, identifiers, times) must fit in it.
    public static let minimumBufferBytes = 64

    private let fileDescriptor: FileDescriptor
    private let ownsFileDescriptor: Bool
    private let buffer: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var atEndOfFile = false
    private var line = 1

    // The current token: buffer[tokenStart..<tokenEnd], or, if it was longer than the buffer, its
    // first bytes in `prefix` (and its last byte in `longTokenLastByte`).
    private var tokenStart = 0
    private var tokenEnd = 0
    private var tokenIsLong = false
    private let longTokenPrefix: UnsafeMutableRawBufferPointer
    private var prefixCount = 0
    private var longTokenLastByte: UInt8 = 0

    private var headerRead = false
    private var chosenIdentifier: [UInt8] = []
    private var multiplier: UInt64 = 1  // nanoseconds = ticks * multiplier / divisor
    private var divisor: UInt64 = 1
    private var latestTicks: UInt64?
    private var currentNs: Int64 = 0
    private var level: Level?

    /// A reader of `fileDescriptor`, closed when the reader goes away if `ownsFileDescriptor`.
    /// The header is read by `readHeader()` or the first `next()`.
    public init(
        fileDescriptor: FileDescriptor, sourceName: String, ownsFileDescriptor: Bool, channel: String?,
        bufferBytes: Int = 1 << 20
    ) {
        self.fileDescriptor = fileDescriptor
        self.sourceName = sourceName
        self.ownsFileDescriptor = ownsFileDescriptor
        self.requestedChannel = channel
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
            do {
                let descriptor = try FileDescriptor.open(FilePath(path), .readOnly)
                reader = VCDReader(fileDescriptor: descriptor, sourceName: path, ownsFileDescriptor: true, channel: channel)
            } catch let errno as Errno {
                throw .cannotOpen(path: path, errno: errno)
            } catch {
                throw .cannotOpen(path: path, errno: .ioError)
            }
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
                guard isVector, isChosen(token) else { continue }
                guard let value = Self.bitValue(lastBit) else { throw malformed(VCDProblem.badBit) }
                if let value, let edge = apply(value) { return edge }
            default:
                guard let value = Self.bitValue(first) else { throw malformed(VCDProblem.unexpectedToken) }
                let matches: Bool
                if tokenCount == 1 {
                    guard try nextToken() else { return try endOfFile() }
                    matches = isChosen(token)
                } else {
                    matches = isChosen(UnsafeRawBufferPointer(rebasing: token[1...]))
                }
                if matches, let value, let edge = apply(value) { return edge }
            }
        }
        return try endOfFile()
    }

    /// A 0 or 1 of the channel: the initial level, an edge, or nothing for a repeated value.
    @inline(__always)
    private func apply(_ value: Level) -> Edge? {
        if level == value { return nil }
        level = value
        return Edge(level: value, timeNs: currentNs)
    }

    private func endOfFile() throws(TraceError) -> Edge? {
        if level == nil {
            throw .malformedLine(
                source: sourceName, line: max(lineNumber, 1), problem: VCDProblem.noValue(channel?.fullName ?? "?"),
                text: "")
        }
        return nil
    }

    /// `nil` for a byte that is no bit value; `.some(nil)` for an unknown value (x, z, u, w, -).
    private static func bitValue(_ byte: UInt8) -> Level?? {
        switch byte {
        case UInt8(ascii: "0"), UInt8(ascii: "l"), UInt8(ascii: "L"): return .some(.low)
        case UInt8(ascii: "1"), UInt8(ascii: "h"), UInt8(ascii: "H"): return .some(.high)
        case UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "z"), UInt8(ascii: "Z"), UInt8(ascii: "u"), UInt8(ascii: "U"),
            UInt8(ascii: "w"), UInt8(ascii: "W"), UInt8(ascii: "-"):
            return .some(nil)
        default: return nil
        }
    }

    private func isChosen(_ identifier: UnsafeRawBufferPointer) -> Bool {
        guard !tokenIsLong, identifier.count == chosenIdentifier.count else { return false }
        for index in 0..<identifier.count where identifier[index] != chosenIdentifier[index] { return false }
        return true
    }

    /// `#ticks`: checks the order and converts to nanoseconds.
    private func readTime() throws(TraceError) {
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

    // MARK: Header

    /// Reads the header and chooses the channel, if not done yet (`open` and the first `next()` call it).
    public func readHeader() throws(TraceError) {
        guard !headerRead else { return }
        var scopes: [String] = []
        var first = true
        while true {
            guard try nextToken() else { throw malformed(VCDProblem.truncatedHeader, text: "") }
            if first {
                first = false
                if skipByteOrderMark(), tokenCount == 0 { continue }
            }
            if tokenIs("$enddefinitions") {
                try skipBlock("$enddefinitions")
                break
            } else if tokenIs("$timescale") {
                try readTimescale()
            } else if tokenIs("$scope") {
                let words = try blockWords("$scope", limit: 3)
                scopes.append(words.count >= 2 ? words[1] : words.first ?? "")
            } else if tokenIs("$upscope") {
                try skipBlock("$upscope")
                _ = scopes.popLast()
            } else if tokenIs("$var") {
                let words = try blockWords("$var", limit: 8)
                guard words.count >= 4, let width = Int(words[1]), width > 0 else { throw malformed(VCDProblem.badVar) }
                channels.append(
                    VCDChannel(
                        name: words[3...].joined(), scope: scopes.joined(separator: "."), type: words[0], width: width,
                        identifier: words[2]))
            } else if tokenIs("$dumpvars") || tokenIs("$dumpall") || tokenIs("$dumpon") || tokenIs("$dumpoff")
                || token[0] == UInt8(ascii: "#")
            {
                throw malformed(VCDProblem.valuesInHeader)
            } else if token[0] == UInt8(ascii: "$"), !tokenIs("$end") {
                // $comment, $date, $version, and extensions such as $timezero or $attrbegin.
                try skipBlock(tokenText)
            } else {
                throw malformed(VCDProblem.notVCD)
            }
        }
        let chosen = try choose()
        channel = chosen
        chosenIdentifier = Array(chosen.identifier.utf8)
        headerRead = true
    }

    /// Skips a UTF-8 byte order mark at the start of the current token; whether there was one.
    private func skipByteOrderMark() -> Bool {
        let bytes = token
        guard !tokenIsLong, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return false }
        tokenStart += 3
        return true
    }

    private var tokenCount: Int { tokenIsLong ? Int.max : tokenEnd - tokenStart }

    /// The words of a block up to its `$end` (at most `limit`, or it is malformed).
    private func blockWords(_ keyword: String, limit: Int) throws(TraceError) -> [String] {
        var words: [String] = []
        while true {
            guard try nextToken() else { throw malformed(VCDProblem.unterminated(keyword), text: "") }
            if tokenIs("$end") { return words }
            if tokenIsLong { throw malformed(VCDProblem.tokenTooLong) }
            guard words.count < limit else {
                throw malformed(keyword == "$var" ? VCDProblem.badVar : VCDProblem.unterminated(keyword))
            }
            words.append(tokenText)
        }
    }

    private func skipBlock(_ keyword: String) throws(TraceError) {
        while true {
            guard try nextToken() else { throw malformed(VCDProblem.unterminated(keyword), text: "") }
            if tokenIs("$end") { return }
        }
    }

    private func readTimescale() throws(TraceError) {
        let keywordLine = lineNumber
        var text: [UInt8] = []
        while true {
            guard try nextToken() else { throw malformed(VCDProblem.unterminated("$timescale"), text: "") }
            if tokenIs("$end") { break }
            let bytes = token
            if text.count < 32 { text.append(contentsOf: bytes.prefix(32 - text.count)) }
        }
        var index = 0
        var factor: UInt64 = 0
        while index < text.count, text[index] &- UInt8(ascii: "0") < 10, factor < 1000 {
            factor = factor * 10 + UInt64(text[index] &- UInt8(ascii: "0"))
            index += 1
        }
        let unit = String(decoding: text[index...], as: UTF8.self)
        let exponent: Int? =
            switch unit {
            case "s": 0
            case "ms": -3
            case "us": -6
            case "ns": -9
            case "ps": -12
            case "fs": -15
            default: nil
            }
        guard factor == 1 || factor == 10 || factor == 100, let exponent else {
            throw malformed(
                VCDProblem.unknownTimescale(String(decoding: text, as: UTF8.self)), text: "$timescale", line: keywordLine)
        }
        var power: UInt64 = 1
        for _ in 0..<abs(exponent + 9) { power *= 10 }
        if exponent + 9 >= 0 {
            multiplier = factor * power
            divisor = 1
        } else {
            multiplier = factor
            divisor = power
        }
        timescale = "\(factor) \(unit)"
    }

    /// The channel asked for, or an error naming the available ones.
    private func choose() throws(TraceError) -> VCDChannel {
        let oneBit = channels.filter(\.isOneBit)
        guard let wanted = requestedChannel else {
            if oneBit.count == 1 { return oneBit[0] }
            throw malformed(
                oneBit.isEmpty ? VCDProblem.noChannels : VCDProblem.chooseChannel(Self.list(oneBit)), text: "$enddefinitions")
        }
        let matches = channels.filter {
            $0.name == wanted || $0.fullName == wanted || $0.name.prefix(while: { $0 != "[" }) == wanted
        }
        if !matches.isEmpty {
            let usable = matches.filter(\.isOneBit)
            guard let chosen = usable.first else {
                throw malformed(
                    VCDProblem.notOneBit(wanted, width: matches[0].width, type: matches[0].type), text: "$enddefinitions")
            }
            if usable.contains(where: { $0.identifier != chosen.identifier }) {
                throw malformed(
                    VCDProblem.ambiguousChannel(wanted, usable.map(\.fullName).joined(separator: ", ")), text: "$enddefinitions")
            }
            return chosen
        }
        if let index = Int(wanted), index >= 0, index < oneBit.count { return oneBit[index] }
        throw malformed(
            oneBit.isEmpty ? VCDProblem.noChannels : VCDProblem.unknownChannel(wanted, Self.list(oneBit)),
            text: "$enddefinitions")
    }

    /// The channels' names (with their scopes if names repeat), at most 64 of them.
    private static func list(_ channels: [VCDChannel]) -> String {
        let unique = Set(channels.map(\.name)).count == channels.count
        var names = channels.prefix(64).map { unique ? $0.name : $0.fullName }
        if channels.count > 64 { names.append("… (\(channels.count) in all)") }
        return names.joined(separator: ", ")
    }

    // MARK: Tokens

    /// The current token's bytes (its first 80 if it was longer than the buffer). Valid until the next token.
    private var token: UnsafeRawBufferPointer {
        tokenIsLong
            ? UnsafeRawBufferPointer(rebasing: longTokenPrefix[0..<prefixCount])
            : UnsafeRawBufferPointer(rebasing: buffer[tokenStart..<tokenEnd])
    }

    private var tokenText: String {
        let bytes = token
        let shown = String(decoding: bytes.prefix(80), as: UTF8.self)
        return tokenIsLong || bytes.count > 80 ? shown + "…" : shown
    }

    private func tokenIs(_ text: StaticString) -> Bool {
        guard !tokenIsLong else { return false }
        let bytes = token
        return text.withUTF8Buffer { expected in
            guard expected.count == bytes.count else { return false }
            for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
            return true
        }
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte &- 9 < 5  // space, \t \n \v \f \r
    }

    /// Moves to the next whitespace-separated token; `false` at the end of the file.
    private func nextToken() throws(TraceError) -> Bool {
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

    /// The token fills the whole buffer: keeps its first bytes for messages and discards the rest.
    private func skipLongToken() throws(TraceError) {
        prefixCount = min(longTokenPrefix.count, end)
        longTokenPrefix.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<prefixCount]))
        longTokenLastByte = buffer[end - 1]
        tokenIsLong = true
        while true {
            start = 0
            end = 0
            try refill()
            var index = 0
            while index < end, !Self.isSpace(buffer[index]) { index += 1 }
            if index > 0 { longTokenLastByte = buffer[index - 1] }
            if index < end || atEndOfFile {
                start = index
                return
            }
        }
    }

    /// Reads more after `end`.
    private func refill() throws(TraceError) {
        let count = try fileDescriptor.readTrace(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]), source: sourceName)
        if count == 0 { atEndOfFile = true }
        end += count
    }

    private func malformed(_ problem: String, text: String? = nil, line: Int? = nil) -> TraceError {
        .malformedLine(source: sourceName, line: max(line ?? lineNumber, 1), problem: problem, text: text ?? tokenText)
    }
}
