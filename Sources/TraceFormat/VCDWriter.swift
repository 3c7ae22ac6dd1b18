import DebounceCore
import EventOutput
import SystemPackage

/// Writes 1-bit signals (such as the raw line and the debounced state) as a Value Change Dump
/// (IEEE 1364 VCD) that GTKWave, PulseView/sigrok-cli and `VCDReader` read:
///
/// ```
/// $version gpio-debounce $end
/// $timescale 1 ns $end
/// $scope module gpio_debounce $end
/// $var wire 1 ! raw $end
/// $var wire 1 " pressed $end
/// $upscope $end
/// $enddefinitions $end
/// #0
/// $dumpvars
/// 1!
/// 0"
/// $end
/// #1500
/// 0!
/// ```
///
/// Times are nanoseconds minus `originNs` (VCD times cannot be negative); each time is written once,
/// before the changes at it, and times must not decrease. No `$date`, so equal input gives equal files.
public struct VCDWriter {
    public let output: OutputBuffer
    /// The signals' names as written (whitespace and non-ASCII replaced by `_`).
    public let signals: [String]
    /// Subtracted from every time: the VCD's time 0, in nanoseconds.
    public let originNs: Int64
    /// Each signal's current level.
    public private(set) var levels: [Level]
    /// The last time written, in nanoseconds (before subtracting `originNs`).
    public private(set) var latestTimeNs: Int64
    private let identifiers: [String]

    /// Writes the header and the initial levels (in `$dumpvars`, at `startNs`) of `signals`, one
    /// 1-bit wire each. Throws `Errno.invalidArgument` if `startNs` is before `originNs`.
    public init(
        output: OutputBuffer, signals: [String], initialLevels: [Level], startNs: Int64, originNs: Int64 = 0,
        comment: String? = nil
    ) throws(Errno) {
        precondition(!signals.isEmpty && signals.count == initialLevels.count, "one initial level per signal")
        self.output = output
        self.signals = signals.enumerated().map { Self.sanitizedName($1, index: $0) }
        self.originNs = originNs
        self.levels = initialLevels
        self.identifiers = signals.indices.map(Self.identifier)
        self.latestTimeNs = startNs
        let start = try Self.vcdTime(startNs, originNs: originNs)

        output.append("$version gpio-debounce $end")
        try output.endLine()
        if let comment { try Self.writeComment(comment, to: output) }
        output.append("$timescale 1 ns $end")
        try output.endLine()
        output.append("$scope module gpio_debounce $end")
        try output.endLine()
        for (index, name) in self.signals.enumerated() {
            output.append("$var wire 1 ")
            output.appendUTF8(identifiers[index])
            output.append(" ")
            output.appendUTF8(name)
            output.append(" $end")
            try output.endLine()
        }
        output.append("$upscope $end")
        try output.endLine()
        output.append("$enddefinitions $end")
        try output.endLine()
        output.append("#")
        output.append(start)
        try output.endLine()
        output.append("$dumpvars")
        try output.endLine()
        for (index, level) in initialLevels.enumerated() { try writeValue(level, of: index) }
        output.append("$end")
        try output.endLine()
    }

    /// Sets `signal` (an index into `signals`) to `level` at `timeNs`. Writes the time only if it
    /// differs from the last one, and nothing if the signal already has that level. Throws
    /// `Errno.invalidArgument` if `timeNs` is before the last time written.
    public mutating func change(signal: Int, to level: Level, atNs timeNs: Int64) throws(Errno) {
        precondition(signals.indices.contains(signal), "no signal \(signal)")
        guard levels[signal] != level else { return }
        try advance(to: timeNs)
        levels[signal] = level
        try writeValue(level, of: signal)
    }

    /// Writes a `$comment ... $end` block (e.g. where the kernel lost events), at the current position.
    public func comment(_ text: String) throws(Errno) {
        try Self.writeComment(text, to: output)
    }

    /// `$comment TEXT $end` on a line of its own; a `$` in the text could end the block early
    /// (`$end`), so each one is written as `_`.
    private static func writeComment(_ text: String, to output: OutputBuffer) throws(Errno) {
        output.append("$comment ")
        output.appendUTF8(String(decoding: text.utf8.map { $0 == UInt8(ascii: "$") ? UInt8(ascii: "_") : $0 }, as: UTF8.self))
        output.append(" $end")
        try output.endLine()
    }

    /// Ends the dump at `timeNs` (a final time line marks the capture's length, as sigrok writes one)
    /// and flushes the output. Throws `Errno.invalidArgument` if `timeNs` is before the last time written.
    public mutating func finish(atNs timeNs: Int64) throws(Errno) {
        try advance(to: timeNs)
        try output.flush()
    }

    /// The identifier code of signal `index`: `!`, `"`, … `~`, then two characters, and so on.
    public static func identifier(_ index: Int) -> String {
        precondition(index >= 0)
        var code: [UInt8] = []
        var rest = index
        repeat {
            code.append(UInt8(33 + rest % 94))
            rest = rest / 94 - 1
        } while rest >= 0
        return String(decoding: code, as: UTF8.self)
    }

    private mutating func advance(to timeNs: Int64) throws(Errno) {
        guard timeNs >= latestTimeNs else { throw .invalidArgument }
        guard timeNs > latestTimeNs else { return }
        let time = try Self.vcdTime(timeNs, originNs: originNs)
        latestTimeNs = timeNs
        output.append("#")
        output.append(time)
        try output.endLine()
    }

    private func writeValue(_ level: Level, of signal: Int) throws(Errno) {
        output.append(level == .low ? UInt8(ascii: "0") : UInt8(ascii: "1"))
        output.appendUTF8(identifiers[signal])
        try output.endLine()
    }

    private static func vcdTime(_ timeNs: Int64, originNs: Int64) throws(Errno) -> Int64 {
        let (time, overflow) = timeNs.subtractingReportingOverflow(originNs)
        guard !overflow, time >= 0 else { throw .invalidArgument }
        return time
    }

    /// A VCD reference name: printable ASCII without whitespace, `$` or `#` at the start; never empty.
    private static func sanitizedName(_ name: String, index: Int) -> String {
        let bytes = name.utf8.map { $0 > 32 && $0 < 127 ? $0 : UInt8(ascii: "_") }
        guard let first = bytes.first else { return "signal\(index)" }
        if first == UInt8(ascii: "$") || first == UInt8(ascii: "#") { return "_" + String(decoding: bytes.dropFirst(), as: UTF8.self) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
