extension CodeConfiguration {
    /// Whether `key` can be part of a code: allowed (`allowedKeys`, nil: any), and neither an end, a
    /// clear nor a back key.
    public func collects(_ key: Character) -> Bool {
        if endKeys.contains(key) || clearKeys.contains(key) || backKeys.contains(key) { return false }
        return allowedKeys?.contains(key) ?? true
    }
}
