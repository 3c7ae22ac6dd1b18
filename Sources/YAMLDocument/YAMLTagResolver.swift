/// YAML 1.1's implicit types for plain scalars, in the order they are tried: bool (`on`, `no`, `True`),
/// int (`017`, `0x1F`, `1_000`, `1:30`), float (`1.5`, `.inf`), merge (`<<`), null (`~`, `null`, the
/// empty scalar), timestamp (`2001-12-14`), value (`=`); anything else is a string. These are the
/// rules PyYAML and Yams resolve with; they decide which mapping keys are equal (`on` is a bool, so
/// it equals `!!bool on` but not `"on"`).
package enum YAMLTagResolver {
    package static let prefix = "tag:yaml.org,2002:"
    package static let str = prefix + "str"

    /// The tag a plain scalar without an explicit tag resolves to.
    package static func tag(ofPlain text: String) -> String {
        let bytes = Array(text.utf8)
        let name =
            if isBool(text) { "bool" }
            else if isInt(bytes) { "int" }
            else if isFloat(bytes) { "float" }
            else if text == "<<" { "merge" }
            else if ["", "~", "null", "Null", "NULL"].contains(text) { "null" }
            else if isTimestamp(bytes) { "timestamp" }
            else if text == "=" { "value" }
            else { "str" }
        return prefix + name
    }

    static func isBool(_ text: String) -> Bool {
        ["yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF"].contains(text)
    }

    /// `[-+]?0b[01_]+`, `[-+]?0o?[0-7_]+`, `[-+]?(0|[1-9][0-9_]*)`, `[-+]?0x[0-9a-fA-F_]+`, or
    /// `[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+` (base 60).
    static func isInt(_ bytes: [UInt8]) -> Bool {
        var scan = Scan(bytes)
        scan.sign()
        let start = scan.position
        if scan.literal("0b") { return scan.run(of: "01_") && scan.atEnd }
        if scan.literal("0x") { return scan.run(of: "0123456789abcdefABCDEF_") && scan.atEnd }
        scan.position = start
        if scan.literal("0") {
            if scan.atEnd { return true }
            _ = scan.literal("o")
            return scan.run(of: "01234567_") && scan.atEnd
        }
        guard scan.run(of: "123456789", atMost: 1) else { return false }
        _ = scan.run(of: "0123456789_")
        return scan.atEnd || (scan.sexagesimalGroups() && scan.atEnd)
    }

    /// `[-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?`, `\.[0-9_]+([eE][-+][0-9]+)?`,
    /// `[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*`, `[-+]?\.(inf|Inf|INF)`, or `\.(nan|NaN|NAN)`.
    static func isFloat(_ bytes: [UInt8]) -> Bool {
        var scan = Scan(bytes)
        if scan.literal("."), scan.run(of: "0123456789_") {
            let end = scan.position
            if scan.atEnd { return true }
            scan.position = end
            return scan.literal("e") || scan.literal("E") ? (scan.literal("+") || scan.literal("-")) && scan.run(of: "0123456789") && scan.atEnd : false
        }
        scan.position = 0
        if [".nan", ".NaN", ".NAN"].contains(where: { $0.utf8.elementsEqual(bytes) }) { return true }
        scan.sign()
        if [".inf", ".Inf", ".INF"].contains(where: { scan.literal($0) }) { return scan.atEnd }
        guard scan.run(of: "0123456789", atMost: 1) else { return false }
        _ = scan.run(of: "0123456789_")
        if scan.peek == UInt8(ascii: ":") {
            guard scan.sexagesimalGroups(), scan.literal(".") else { return false }
            _ = scan.run(of: "0123456789_")
            return scan.atEnd
        }
        if scan.literal(".") { _ = scan.run(of: "0123456789_") }
        if scan.literal("e") || scan.literal("E") {
            _ = scan.literal("+") || scan.literal("-")
            guard scan.run(of: "0123456789") else { return false }
        }
        return scan.atEnd
    }

    /// `YYYY-MM-DD`, or `YYYY-M-D` then `T`, `t` or blanks, `h:mm:ss`, an optional fraction and an
    /// optional zone (`Z`, `+1`, `-05:00`, after optional blanks).
    static func isTimestamp(_ bytes: [UInt8]) -> Bool {
        var scan = Scan(bytes)
        guard scan.digits(4, 4), scan.literal("-"), scan.digits(1, 2), scan.literal("-"), scan.digits(1, 2) else { return false }
        if scan.atEnd { return bytes.count == 10 }
        guard scan.literal("T") || scan.literal("t") || scan.run(of: " \t") else { return false }
        guard scan.digits(1, 2), scan.literal(":"), scan.digits(2, 2), scan.literal(":"), scan.digits(2, 2) else { return false }
        if scan.literal(".") { _ = scan.run(of: "0123456789") }
        let beforeZone = scan.position
        _ = scan.run(of: " \t")
        if scan.literal("Z") {
            return scan.atEnd
        } else if scan.literal("+") || scan.literal("-") {
            guard scan.digits(1, 2) else { return false }
            if scan.literal(":") { guard scan.digits(2, 2) else { return false } }
            return scan.atEnd
        }
        scan.position = beforeZone
        return scan.atEnd
    }

    /// A cursor over ASCII patterns: each step consumes what it matches and says whether it did.
    struct Scan {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }
        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func literal(_ text: String) -> Bool {
            guard bytes[position...].starts(with: text.utf8) else { return false }
            position += text.utf8.count
            return true
        }

        mutating func sign() { _ = literal("+") || literal("-") }

        /// At least one byte from `set`, at most `atMost`.
        mutating func run(of set: String, atMost: Int = .max) -> Bool {
            let start = position
            while position - start < atMost, let byte = peek, set.utf8.contains(byte) { position += 1 }
            return position > start
        }

        /// From `least` to `most` decimal digits, and then no further digit.
        mutating func digits(_ least: Int, _ most: Int) -> Bool {
            let start = position
            guard run(of: "0123456789", atMost: most), position - start >= least else { return false }
            return !(peek.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false)
        }

        /// One or more `:[0-5]?[0-9]`.
        mutating func sexagesimalGroups() -> Bool {
            var count = 0
            while literal(":") {
                let start = position
                _ = run(of: "0123456789", atMost: 2)
                let length = position - start
                guard length == 1 || (length == 2 && bytes[start] <= UInt8(ascii: "5")) else { return false }
                count += 1
            }
            return count > 0
        }
    }
}
