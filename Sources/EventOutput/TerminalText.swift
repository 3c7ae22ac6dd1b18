/// Text from files, configurations, the kernel or the command line, made safe to print on a terminal:
/// the one place control characters are escaped for text output (JSON has `JSONText`).
package enum TerminalText {
    /// `text` with every control character (C0 including newline and tab, DEL, and C1) shown as an
    /// escape such as `\u{1B}`, so that no escape sequence from the input reaches the terminal and no
    /// input can fake a line of output.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
