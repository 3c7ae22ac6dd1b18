/// JSON string literals: the one place the package escapes text for JSON.
package enum JSONText {
    /// Hands `append` the bytes of `text` as a JSON string literal (UTF-8, quotes included): quotes and
    /// backslashes escaped, control characters as `\u00XX`. Allocates nothing.
    @inlinable
    package static func escape(_ text: String, _ append: (UInt8) -> Void) {
        append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                append(UInt8(ascii: "\\"))
                append(byte)
            case 0..<0x20:
                for escaped in "\\u00".utf8 { append(escaped) }
                append(hexDigit(byte >> 4))
                append(hexDigit(byte & 0xF))
            default:
                append(byte)
            }
        }
        append(UInt8(ascii: "\""))
    }

    /// `text` as a JSON string literal.
    package static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        escape(text) { bytes.append($0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @inlinable
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
