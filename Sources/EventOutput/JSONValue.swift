/// A small JSON value (Home Assistant's discovery payloads, a keypad's events), written with keys in the order given (strings
/// escaped by `JSONText`, the package's one JSON escaper).
package enum JSONValue: Sendable, Hashable {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (a: JSONValue, b: JSONValue) -> Bool { a.text == b.text }
    package func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// The compact JSON text.
    package var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .string(let value): out += JSONText.quoted(value)
        case .integer(let value): out += String(value)
        case .bool(let value): out += value ? "true" : "false"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { out += "," }
                out += JSONText.quoted(key)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }
}
