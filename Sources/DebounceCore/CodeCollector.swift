/// Collects key presses into codes (a PIN, say), as ESPHome's `key_collector`: keys are collected
/// until an end key (or, with no end keys, `maxLength` keys) completes a code; clear keys start over
/// and back keys delete the last key. A pure value: it reads no clock and sets no deadline (the
/// timeout is checked at the next press).
public struct CodeCollector: Sendable {
    /// The keys and lengths in force.
    public let configuration: CodeConfiguration
    /// The keys collected so far, in the order pressed.
    public private(set) var collected: [Character] = []
    /// The time of the latest press, in nanoseconds; `nil` before the first.
    private var lastPressNs: Int64?

    /// A collector with nothing collected.
    public init(_ configuration: CodeConfiguration) {
        self.configuration = configuration
    }

    /// How many keys are collected so far.
    public var length: Int { collected.count }

    /// A key pressed at `timeNs` (the debounced press's time, nanoseconds). Returns a code when the press
    /// completes one:
    /// - an end key with `minLength...maxLength` keys collected (fewer: they are dropped, and `nil`);
    /// - with no end keys, the key that makes `maxLength`.
    ///
    /// A press more than `timeoutNs` after the previous one (of any key) first drops what was collected.
    /// A clear key drops what was collected; a back key deletes the last key. A key not allowed is
    /// ignored, and so is a key past `maxLength` when end keys finish the codes.
    public mutating func press(_ key: Character, atNs timeNs: Int64) -> EnteredCode? {
        if let timeoutNs = configuration.timeoutNs, let lastPressNs, timeNs.durationNs(since: lastPressNs) > timeoutNs {
            collected.removeAll(keepingCapacity: true)
        }
        lastPressNs = timeNs
        if configuration.endKeys.contains(key) {
            defer { collected.removeAll(keepingCapacity: true) }
            guard collected.count >= configuration.minLength, collected.count <= configuration.maxLength ?? .max else { return nil }
            return EnteredCode(code: String(collected), timeNs: timeNs)
        }
        if configuration.clearKeys.contains(key) {
            collected.removeAll(keepingCapacity: true)
            return nil
        }
        if configuration.backKeys.contains(key) {
            _ = collected.popLast()
            return nil
        }
        if let allowedKeys = configuration.allowedKeys, !allowedKeys.contains(key) { return nil }
        if let maxLength = configuration.maxLength, collected.count >= maxLength { return nil }
        collected.append(key)
        guard configuration.endKeys.isEmpty, let maxLength = configuration.maxLength, collected.count >= maxLength else { return nil }
        defer { collected.removeAll(keepingCapacity: true) }
        return EnteredCode(code: String(collected), timeNs: timeNs)
    }
}
