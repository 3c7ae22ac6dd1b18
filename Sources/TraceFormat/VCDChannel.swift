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
    public static func tooFewChannels(_ count: Int, _ available: String, wanted: Int) -> String {
        "the VCD has \(count) 1-bit channel\(count == 1 ? "" : "s")\(count == 0 ? "" : " (\(available))"), and \(wanted) are needed (an encoder's A and B): record both lines"
    }
    public static func sameChannel(_ name: String, _ channel: String) -> String {
        "'\(name)' is channel \(channel) again: an encoder's A and B are two different channels"
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
    public static func nameTooLong(_ limit: Int) -> String {
        "a name or identifier longer than \(limit) bytes in a $var or $scope declaration"
    }
    public static func scopeTooLong(_ limit: Int) -> String {
        "$scope nested deeper than a scope path of \(limit) bytes (is $upscope missing?)"
    }
    public static func tooManyChannels(_ limit: Int) -> String { "more than \(limit) variables declared in the header" }
    public static func endlessToken(_ limit: Int) -> String {
        "more than \(limit) bytes without a space or line break (is this a VCD file?)"
    }
    public static let nulByte = "a NUL byte: a VCD file is text (is this a VCD file?)"
}
