/// A mistake in a configuration file: where it is (file, line, column, key) and what is allowed.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    /// The key path, e.g. `buttons[0].hold`.
    public var key: String
    public var message: String

    public var description: String {
        let place = [file, line.map(String.init), column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        return "\(place): \(key.isEmpty ? "" : "\(key): ")\(message)"
    }
}
