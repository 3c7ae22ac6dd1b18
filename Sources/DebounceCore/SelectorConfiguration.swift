/// How a selector switch's lines are read (`SelectorDecoder`): a rotary selector with a line per
/// position, a binary, Gray or BCD coded switch, a bank of DIP switches.
public struct SelectorConfiguration: Sendable, Hashable {
    /// How the lines make a value.
    public var code: SelectorCode
    /// How many lines the switch has (1 to 31); line 0 is bit 0 of a reading.
    public var lineCount: Int
    /// How long a reading must hold before it is reported, in nanoseconds: longer than the lines'
    /// bounce and than the gap while a rotary switch moves between positions (or while a coded
    /// switch's lines change one after another), so that neither reports anything.
    public var settleNs: Int64
    /// The highest valid value, if any: a reading that makes a higher one is reported as invalid (a
    /// 10-position binary switch on 4 lines: 9).
    public var highestValue: Int?

    /// The settle time when the configuration gives none: 20 ms.
    public static let defaultSettleNs: Int64 = 20_000_000

    public init(code: SelectorCode, lineCount: Int, settleNs: Int64 = SelectorConfiguration.defaultSettleNs, highestValue: Int? = nil) {
        self.code = code
        self.lineCount = lineCount
        self.settleNs = settleNs
        self.highestValue = highestValue
    }

    /// The value `activeLines` make, or `nil` when they make no valid one (the code's rule, then
    /// `highestValue`).
    public func value(ofActiveLines activeLines: UInt32) -> Int? {
        guard let value = code.value(ofActiveLines: activeLines, lineCount: lineCount) else { return nil }
        if let highestValue, value > highestValue { return nil }
        return value
    }
}
