/// JSON string literals, the one place the package escapes text for JSON.
public enum JSONText {
    /// `text` as a JSON string literal: quotes and backslashes escaped, control characters as `\u00XX`.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20:
                result += "\\u00"
                result.unicodeScalars.append(hexDigits[Int(scalar.value >> 4)])
                result.unicodeScalars.append(hexDigits[Int(scalar.value & 0xF)])
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789abcdef".unicodeScalars)
}
