import YAMLDocument

/// The events socket's lines as text, for a person (`gpio-debounce events`, `status`): what `watch`'s
/// text looks like, read back from the JSON (through libyaml: JSON is YAML's flow style).
package enum EventSocketText {
    /// A line's fields in order, nested objects flattened (`state.total`), lists joined by commas; nil
    /// for a line that is not one JSON object.
    package static func fields(_ line: [UInt8]) -> [(key: String, value: String)]? {
        guard case .mapping(let mapping)? = try? YAMLNode.compose(String(decoding: line, as: UTF8.self), maximumNesting: 8, maximumAliasedNodes: 0) else {
            return nil
        }
        var fields: [(String, String)] = []
        flatten(mapping, prefix: "", into: &fields)
        return fields
    }

    /// One line as `watch` writes an event: its name, then `key=value` pairs, times in seconds
    /// (`time_ns` as `time=1.250000000`), the protocol's own fields (`seq`, `kind`, the input's name
    /// where the kind names it) left out. nil: not a line of the protocol.
    package static func line(_ line: [UInt8]) -> String? {
        guard let fields = fields(line), let event = fields.first(where: { $0.key == "event" })?.value else { return nil }
        let kind = fields.first { $0.key == "kind" }?.value
        var parts = [padded(event, 7)]
        for (key, value) in fields where key != "event" && key != "seq" && key != "kind" {
            if key == "input", let kind, fields.contains(where: { $0.key == kind }) { continue }
            parts.append(pair(key, value))
        }
        return parts.joined(separator: " ")
    }

    /// A `reloaded` line for a person: `reloaded: added meter; removed door, mode`.
    package static func reloaded(_ line: [UInt8]) -> String {
        let fields = fields(line) ?? []
        let changes = ["added", "removed"].compactMap { key in
            fields.first { $0.key == key && !$0.value.isEmpty }.map { "\(key) \($0.value.split(separator: ",").joined(separator: ", "))" }
        }
        return "reloaded: " + (changes.isEmpty ? "no input added or removed" : changes.joined(separator: "; "))
    }

    /// The status table: one row per `status` line (input, kind, state, availability, health).
    package static func statusTable(_ lines: [[UInt8]]) -> [String] {
        let fixed: Set<String> = ["event", "input", "kind", "available", "time_ns", "snapshot"]
        var rows = [["INPUT", "KIND", "STATE", "AVAILABLE", "EDGES", "BOUNCES", "LOST"]]
        for line in lines {
            guard let fields = fields(line) else { continue }
            let value = { (key: String) in fields.first { $0.key == key }?.value ?? "-" }
            let state = fields.filter { !fixed.contains($0.key) && !$0.key.hasPrefix("health.") }.map { pair($0.key, $0.value) }.joined(separator: " ")
            rows.append([
                value("input"), value("kind"), state.isEmpty ? "-" : state, value("available") == "true" ? "yes" : "no", value("health.edges"),
                value("health.bounces_absorbed"), value("health.lost_events"),
            ])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { padded($1, $0 == row.count - 1 ? 0 : widths[$0]) }.joined(separator: "  ")
        }
    }

    /// `text` with spaces after it up to `width` characters (no Foundation).
    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private static func pair(_ key: String, _ value: String) -> String {
        guard key.hasSuffix("_ns"), let nanoseconds = Int64(value) else { return "\(key)=\(value)" }
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let fraction = String(magnitude % 1_000_000_000)
        return "\(key.dropLast(3))=\(sign)\(magnitude / 1_000_000_000).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)"
    }

    private static func flatten(_ mapping: YAMLNode.Mapping, prefix: String, into fields: inout [(String, String)]) {
        for (keyNode, value) in mapping {
            let key = prefix + (keyNode.string ?? "")
            switch value {
            case .scalar(let scalar): fields.append((key, scalar.string))
            case .sequence(let list): fields.append((key, list.map { $0.string ?? "…" }.joined(separator: ",")))
            case .mapping(let inner): flatten(inner, prefix: key + ".", into: &fields)
            }
        }
    }
}
