/// How a user writes a GPIO line, in the configuration (`line:`) and on the command line (`watch 17`):
/// an offset, a plain whole number from 0 to `ConfigurationLoader.maximumOffset`, or a line name of at
/// most `ConfigurationLoader.maximumKernelNameBytes` bytes (the kernel's limit), like `GPIO17`.
/// One check for both places, so that the command line refuses what the file refuses.
package enum LineSpelling {
    /// What every refusal ends with: which lines are allowed.
    package static let allowed =
        "a line is an offset from 0 to \(ConfigurationLoader.maximumOffset) (below the chip's line count) or a line name like GPIO17"

    /// `text` as the line it names: an offset without leading zeros (`"17"`), or the name as written.
    /// Throws the reason it names no line, ending with `allowed`: leading zeros (YAML may read them as
    /// octal), an offset past the maximum, a sign, a number in another notation (`0x11`, `17abc`,
    /// `1e3`), a name longer than the kernel's limit, or nothing at all.
    package static func line(_ text: String) throws(Refusal) -> String {
        guard !text.isEmpty else { throw Refusal("a line cannot be empty: \(allowed)") }
        let digits = text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        if digits {
            guard text == "0" || !text.hasPrefix("0") else {
                throw Refusal("write the offset without leading zeros (YAML may read \(ConfigurationLoader.quoted(text)) as octal); \(allowed)")
            }
            guard let offset = Int(text), offset <= ConfigurationLoader.maximumOffset else {
                throw Refusal("offset \(ConfigurationLoader.quoted(text)) is out of range: \(allowed)")
            }
            return String(offset)
        }
        if let sign = text.first, sign == "-" || sign == "+" {
            let rest = text.dropFirst()
            if !rest.isEmpty, rest.allSatisfy({ $0.isASCII && $0.isNumber }) || Double(rest) != nil {
                throw Refusal(sign == "-" ? "an offset cannot be negative: \(allowed)" : "write the offset without a sign: \(allowed)")
            }
        }
        if let first = text.unicodeScalars.first, ("0"..."9").contains(first),
            text.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit || "xXoObB._eE+-".unicodeScalars.contains($0) })
        {
            throw Refusal("\(ConfigurationLoader.quoted(text)) is not a plain whole number: \(allowed)")
        }
        guard text.utf8.count <= ConfigurationLoader.maximumKernelNameBytes else {
            throw Refusal(
                "a line name has at most \(ConfigurationLoader.maximumKernelNameBytes) bytes (the kernel's limit): \(ConfigurationLoader.quoted(text)) is longer; \(allowed)")
        }
        return text
    }

    /// Why a text names no line: a sentence for the user, ending with what is allowed.
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }
}
