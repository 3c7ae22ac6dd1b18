/// How a `CodeCollector` turns key presses into codes (a PIN, say), as ESPHome's `key_collector`:
/// which keys finish, clear and shorten a code, which keys it may hold, how long, and how long a pause
/// between presses may last.
public struct CodeConfiguration: Sendable, Hashable {
    /// The fewest keys a code has; an end key pressed with fewer drops them. Default 1.
    public var minLength: Int
    /// The most keys a code has; `nil`: no limit. With end keys, keys past it are ignored; with none,
    /// the key that makes this many completes the code.
    public var maxLength: Int?
    /// The keys that finish a code (not part of it). Default `#`. Empty: only `maxLength` completes a code.
    public var endKeys: [Character]
    /// The keys that drop what was collected. Default `*`.
    public var clearKeys: [Character]
    /// The keys that delete the last key collected. Default none.
    public var backKeys: [Character]
    /// The keys a code may hold; `nil`: every key that is not an end, clear or back key.
    public var allowedKeys: [Character]?
    /// A pause longer than this between two presses, in nanoseconds, drops what was collected before
    /// the second press counts (checked at that press: no deadline). `nil`: no timeout. Default 5 s.
    public var timeoutNs: Int64?

    public init(
        minLength: Int = 1, maxLength: Int? = nil, endKeys: [Character] = ["#"], clearKeys: [Character] = ["*"],
        backKeys: [Character] = [], allowedKeys: [Character]? = nil, timeoutNs: Int64? = 5_000_000_000
    ) {
        self.minLength = minLength
        self.maxLength = maxLength
        self.endKeys = endKeys
        self.clearKeys = clearKeys
        self.backKeys = backKeys
        self.allowedKeys = allowedKeys
        self.timeoutNs = timeoutNs
    }
}
