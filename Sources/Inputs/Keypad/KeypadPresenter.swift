import DebounceCore
import EventOutput
import InputModel
import Pipeline

/// A matrix keypad as the outside sees it: on `event`, each key press as `{"event_type":"5","time_ns":…}`
/// and each entered code as `{"event_type":"code","length":4,"time_ns":…}`; one event entity whose
/// types are its published keys and `code`. A keypad's releases, holds and repeats are not shown.
///
/// A code is a secret: on a keypad with `code:` the keys a code is made of are not shown (their
/// presses would spell it), and a code's digits only with `publish_code: true`.
package struct KeypadPresenter: InputPresenter {
    package let description: InputDescription
    /// Each key's character, row by row (`KeypadSettings.layout` flattened).
    package let keys: [Character]
    /// Each key's run line (`keys`' order).
    package let lineIndices: [Int]
    /// Where each key's line is, for its actions' environment (`keys`' order; empty: nowhere, as for
    /// `--remove-discovery`): the chip's name and the offset its line has in the run.
    package let places: [(chip: String, offset: Int)]
    /// Whether each key's presses are shown (`keys`' order).
    package let publishesKey: [Bool]
    /// Whether the printer names each key (`keys`' order): not a key a code is made of, which it
    /// prints as `?`, `publish_code` or not.
    package let namesKey: [Bool]
    /// Its event types: each shown key's character (each once, row by row), then `code` when it collects codes.
    package let eventTypes: [String]
    /// Whether a code's event carries the code itself (`publish_code: true`), not only its length.
    package let publishesCode: Bool

    /// The `event_type` of an entered code.
    package static let codeEventType = "code"

    /// Keypad `name` (input `input`) whose keys are `keys` on run lines `lineIndices` (row by row).
    /// `namesKey` says which keys its events may name (`KeypadSettings.namesKey`: on a keypad with a
    /// code, its end, clear and back keys); with `publishesCode` every key is shown, the code's own
    /// ones included. `places`: where each key's line is.
    package init(
        name: String, input: Int, keys: [Character], lineIndices: [Int], places: [(chip: String, offset: Int)] = [], collectsCodes: Bool, publishesCode: Bool,
        namesKey: (Character) -> Bool
    ) {
        self.keys = keys
        self.lineIndices = lineIndices
        self.places = places
        self.namesKey = keys.map(namesKey)
        self.publishesKey = keys.map { publishesCode || namesKey($0) }
        self.publishesCode = publishesCode
        var seen: Set<Character> = []
        var types = zip(keys, publishesKey).compactMap { key, published in published && seen.insert(key).inserted ? String(key) : nil }
        if collectsCodes { types.append(Self.codeEventType) }
        self.eventTypes = types
        let events = EntityDescription(
            key: "event", channel: "event", value: .events(types: types.map { EventType($0) }, template: nil, typeTemplate: nil), icon: "mdi:dialpad")
        self.description = InputDescription(name: name, kind: "keypad", input: input, lines: lineIndices, entities: [events])
    }

    /// Each key's presses are followed by the keypad's name and the key (`?` for a code's), its codes
    /// by its name.
    package var printed: PrintedFields {
        let keyFields = zip(lineIndices, zip(keys, namesKey)).map { line, key in (line, EventFields.key(key.1 ? String(key.0) : "?", keypad: description.name)) }
        return PrintedFields(lines: keyFields, input: .keypad(description.name))
    }

    package func start(linesPressed: [Bool?]) -> [InputUpdate] { [] }

    package func updates(for output: PipelineOutput) -> [InputUpdate] {
        switch output {
        case .event(let source, let event) where event.kind == .press:
            guard let key = lineIndices.firstIndex(of: source.lineIndex), let payload = pressPayload(key: key, timeNs: event.timeNs) else { return [] }
            return [InputUpdate(channel: "event", payload: payload, delivery: .event, eventType: String(keys[key]))]
        default:
            return []
        }
    }

    package func updates(for code: EnteredCode) -> [InputUpdate] {
        [InputUpdate(channel: "event", payload: codePayload(code), delivery: .event, eventType: Self.codeEventType)]
    }

    /// A key's press: `{"event_type":"5","time_ns":…}` (`time_ns` the press's debounced time, in
    /// nanoseconds of `CLOCK_MONOTONIC`); nil for a key whose presses are not shown.
    package func pressPayload(key index: Int, timeNs: Int64) -> [UInt8]? {
        guard keys.indices.contains(index), publishesKey[index] else { return nil }
        return Array(JSONValue.object([("event_type", .string(String(keys[index]))), ("time_ns", .integer(Int(timeNs)))]).text.utf8)
    }

    /// An entered code: `{"event_type":"code","length":4,"time_ns":…}`, with `"code":"1234"` after
    /// the length only when the keypad publishes codes.
    package func sharedFields(for code: EnteredCode) -> [(String, JSONValue)] {
        publishesCode ? [("code", .string(code.code))] : []
    }

    package func codePayload(_ entered: EnteredCode) -> [UInt8] {
        var pairs: [(String, JSONValue)] = [("event_type", .string(Self.codeEventType)), ("length", .integer(entered.code.count))]
        if publishesCode { pairs.append(("code", .string(entered.code))) }
        pairs.append(("time_ns", .integer(Int(entered.timeNs))))
        return Array(JSONValue.object(pairs).text.utf8)
    }
}

extension EventFields {
    /// A keypad's key's fields: `,"keypad":"door","key":"5"` (`?` for a key a code is made of, which
    /// events do not name: `KeypadSettings.namesKey`).
    package static func key(_ key: String, keypad: String) -> EventFields {
        EventFields([.text("keypad", keypad), .text("key", key)])
    }

    /// A keypad's fields, after a code's standard fields: `,"keypad":"door"`.
    package static func keypad(_ name: String) -> EventFields {
        EventFields([.text("keypad", name)])
    }
}
