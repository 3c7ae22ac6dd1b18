/// A mistake in a configuration file: where it is (file, line, column, key) and what is allowed.
///
/// Messages quote the file's own text only in short, escaped excerpts (`ConfigurationLoader.quoted`),
/// and a file that is not recognisably a configuration is named by line number only, never quoted.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    package var file: String
    package var line: Int?
    package var column: Int?
    /// The key path, e.g. `buttons[0].hold`.
    package var key: String
    package var message: String

    package init(file: String, line: Int?, column: Int?, key: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    public var description: String {
        let place = [file, line.map(String.init), line == nil ? nil : column.map(String.init)].compactMap { $0 }.joined(separator: ":")
        return "\(place): \(key.isEmpty ? "" : "\(key): ")\(message)"
    }
}
