/// The line number a simulated button reports (in events, JSON's integer `line`, and actions'
/// `GPIO_LINE`): the line the user named, so that a simulated run reads like the real one.
package enum SimulatedLineNumber {
    /// `line` as the user wrote it: an offset as given (`17`); a name `GPIO<n>` as `n`, the offset it
    /// has on every Raspberry Pi's header chip, which the simulation stands in for (`GPIO27` → 27);
    /// any other name, which has no offset without its chip, as its position `index` among the lines.
    package static func of(_ line: String, index: Int) -> Int {
        if let offset = Int(line), offset >= 0 { return offset }
        if line.hasPrefix("GPIO"), let offset = Int(line.dropFirst(4)), offset >= 0, line.dropFirst(4).allSatisfy(\.isASCII) { return offset }
        return index
    }
}
