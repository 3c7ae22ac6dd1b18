/// Key names and codes as in `linux/input-event-codes.h` (`KEY_ENTER` is 28, `BTN_SOUTH` is 0x130),
/// from a table generated out of that header (`scripts/generate-key-names`).
package enum KeyCode {
    /// Every known name, in the header's order.
    package static var allNames: [String] { table.map(\.name) }

    /// The code of the key called `name` exactly (`"KEY_ENTER"`), or nil.
    package static func code(named name: String) -> UInt16? {
        codesByName[name]
    }

    /// The first name the header gives `code` (`KEY_MUTE` for 113), or nil for a code it does not name.
    package static func name(of code: UInt16) -> String? {
        namesByCode[code]
    }

    /// Codes as the configuration names them, joined by `+` (`KEY_LEFTCTRL+KEY_C`); a code the header
    /// does not name as its number.
    package static func names(_ codes: [UInt16]) -> String {
        codes.map { name(of: $0) ?? "\($0)" }.joined(separator: "+")
    }

    private static let codesByName: [String: UInt16] = Dictionary(table.map { ($0.name, $0.code) }, uniquingKeysWith: { first, _ in first })
    private static let namesByCode: [UInt16: String] = Dictionary(table.map { ($0.code, $0.name) }, uniquingKeysWith: { first, _ in first })
}
