import DebounceCore

/// What the MQTT sink knows of one matrix keypad (`keypads:` in the configuration): its name (a topic
/// level), its keys (each a run line, row by row), which of them its events may name, and whether
/// it collects codes. Its key presses and codes go to one Home Assistant `event` entity on
/// `<base>/<keypad>/event` (`MQTTSink+Keypads.swift`).
///
/// A code is a secret: on a keypad with `code:` the keys a code is made of are not published (their
/// presses would spell it) and a code's digits are published only with `publish_code: true`.
package struct MQTTKeypad: Sendable, Hashable {
    /// The keypad's name from the configuration, used as a topic level.
    package var name: String
    /// Each key's character, row by row (`KeypadSettings.layout` flattened).
    package var keys: [Character]
    /// Each key's run line (`keys`' order): what `PipelineOutput.event`'s `line` carries.
    package var lineIndices: [Int]
    /// Whether each key's presses are published (`keys`' order).
    package var publishesKey: [Bool]
    /// Whether it collects codes (`code:`): `code` is one of its event types.
    package var collectsCodes: Bool
    /// Whether a code's event carries the code itself (`publish_code: true`), not only its length.
    package var publishesCode: Bool
    /// Its input (`OutputSource.input` of its codes); nil: its index among the sink's keypads.
    package var input: Int?

    /// A keypad whose keys are `keys` on run lines `lineIndices` (row by row). `namesKey` says which
    /// keys its events may name (`KeypadSettings.namesKey`: on a keypad with a code, its end, clear
    /// and back keys); with `publishesCode` every key is published, the code's own ones included.
    package init(
        name: String, keys: [Character], lineIndices: [Int], collectsCodes: Bool, publishesCode: Bool, input: Int? = nil, namesKey: (Character) -> Bool
    ) {
        self.input = input
        self.name = name
        self.keys = keys
        self.lineIndices = lineIndices
        self.publishesKey = keys.map { publishesCode || namesKey($0) }
        self.collectsCodes = collectsCodes
        self.publishesCode = publishesCode
    }

    /// The `event_type` of an entered code.
    package static let codeEventType = "code"

    /// The `event_type`s of its Home Assistant `event` entity: each published key's character (each
    /// once, row by row), then `code` when it collects codes.
    package var eventTypes: [String] {
        var seen: Set<Character> = []
        var types = zip(keys, publishesKey).compactMap { key, published in published && seen.insert(key).inserted ? String(key) : nil }
        if collectsCodes { types.append(Self.codeEventType) }
        return types
    }

    /// A key's press: `{"event_type":"5","time_ns":…}` (`time_ns` the press's debounced time, in
    /// nanoseconds of `CLOCK_MONOTONIC`); `nil` for a key whose presses are not published.
    package func pressPayload(key index: Int, timeNs: Int64) -> [UInt8]? {
        guard keys.indices.contains(index), publishesKey[index] else { return nil }
        return Array(JSONValue.object([("event_type", .string(String(keys[index]))), ("time_ns", .integer(Int(timeNs)))]).text.utf8)
    }

    /// An entered code: `{"event_type":"code","length":4,"time_ns":…}`, with `"code":"1234"` after
    /// the length only when the keypad publishes codes.
    package func codePayload(_ entered: EnteredCode) -> [UInt8] {
        var pairs: [(String, JSONValue)] = [("event_type", .string(Self.codeEventType)), ("length", .integer(entered.code.count))]
        if publishesCode { pairs.append(("code", .string(entered.code))) }
        pairs.append(("time_ns", .integer(Int(entered.timeNs))))
        return Array(JSONValue.object(pairs).text.utf8)
    }
}
