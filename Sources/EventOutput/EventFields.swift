/// A key and value printed after an event's standard fields.
public enum EventField: Sendable {
    case integer(StaticString, Int64)
    case text(StaticString, String)
    /// A list of numbers: a JSON array (`[17,27]`), comma-separated in text (`17,27`).
    case integers(StaticString, [Int64])

    /// The key, as written in both formats.
    var key: StaticString {
        switch self {
        case .integer(let key, _), .text(let key, _), .integers(let key, _): key
        }
    }

    /// The most bytes this field can take in a JSON line: `,"key":` and the value.
    @inline(__always)
    var maximumJSONCount: Int {
        switch self {
        case .integer(let key, _): key.utf8CodeUnitCount + 4 + 20
        case .text(let key, let value): key.utf8CodeUnitCount + 4 + ByteWriter.maximumJSONStringLength(value)
        case .integers(let key, let values): key.utf8CodeUnitCount + 6 + 21 * values.count
        }
    }

    /// Writes `,"key":value` (the value a JSON number or string).
    func putJSON(into line: inout ByteWriter) {
        line.put(",\"")
        line.put(key)
        line.put("\":")
        switch self {
        case .integer(_, let value): line.put(value)
        case .text(_, let value): line.putJSONString(value)
        case .integers(_, let values):
            line.put("[")
            putList(values, into: &line)
            line.put("]")
        }
    }

    /// The most bytes this field can take in a text line: ` key=` and the value (`TerminalText` turns
    /// a control character's one or two bytes into at most 6).
    var maximumTextCount: Int {
        switch self {
        case .integer(let key, _): key.utf8CodeUnitCount + 2 + 20
        case .text(let key, let value): key.utf8CodeUnitCount + 2 + 6 * value.utf8.count
        case .integers(let key, let values): key.utf8CodeUnitCount + 2 + 21 * values.count
        }
    }

    /// Writes ` key=value` (text made safe for a terminal, `TerminalText`).
    func putText(into line: inout ByteWriter) {
        line.put(" ")
        line.put(key)
        line.put("=")
        switch self {
        case .integer(_, let value): line.put(value)
        case .text(_, let value): line.putUTF8(TerminalText.escaped(value))
        case .integers(_, let values): putList(values, into: &line)
        }
    }

    /// `values` separated by commas.
    private func putList(_ values: [Int64], into line: inout ByteWriter) {
        for (index, value) in values.enumerated() {
            if index > 0 { line.put(",") }
            line.put(value)
        }
    }
}

/// Fields that are the same for every event of one line (its button's name, its chip, its offset),
/// formatted once in both formats when a run starts, so that an event only copies their bytes: no
/// escaping, no number formatting, no array of fields built per event.
public struct EventFields: Sendable, Hashable {
    /// `,"key":value` for each field, in order.
    public let json: [UInt8]
    /// ` key=value` for each field, in order.
    public let text: [UInt8]

    /// No fields.
    public static let none = EventFields([])

    public init(_ fields: [EventField]) {
        json = ByteWriter.bytes(maximumCount: fields.reduce(0) { $0 + $1.maximumJSONCount }) { line in
            for field in fields { field.putJSON(into: &line) }
        }
        text = ByteWriter.bytes(maximumCount: fields.reduce(0) { $0 + $1.maximumTextCount }) { line in
            for field in fields { field.putText(into: &line) }
        }
    }
}
