import ArgumentParser
import ConfigurationFile

/// Lines named on the command line (`watch 17 GPIO27`, `--encoder 17,27`, `record 17`), checked as
/// the configuration file checks `line:` (`LineSpelling`): an offset from 0 to 65535 without
/// leading zeros, or a line name; and each line named once.
enum LineArgument {
    /// `text` as the line it names (the `transform:` of a line argument), or a `ValidationError`
    /// saying what a line is.
    static func parse(_ text: String) throws -> String {
        do { return try LineSpelling.line(text) } catch { throw ValidationError(error.description) }
    }

    /// A comma-separated list (`A,B`, `ROWS`, `COLUMNS`) as its parts, as written (a space
    /// after a comma dropped; an empty part kept, for the caller to refuse).
    static func parts(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map { String($0.trimmingPrefix(" ")) }
    }

    /// A comma-separated list of lines (`--encoder 17,27`), each checked as `parse` checks one.
    static func parseList(_ text: String) throws -> [String] {
        try parts(text).map(parse)
    }

    /// Throws a `ValidationError` naming the first line that `lines` names twice (as written after
    /// `parse`: `17` and `017` cannot both pass, `17` and `GPIO17` are different lines to the kernel).
    static func requireDistinct(_ lines: [String], what: String = "watch") throws {
        var seen = Set<String>()
        for line in lines where !seen.insert(line).inserted {
            throw ValidationError("line \(line) is named twice: \(what) each line once.")
        }
    }
}
