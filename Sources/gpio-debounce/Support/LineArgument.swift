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

    /// Throws a `ValidationError` naming the first line that `lines` names twice (as written after
    /// `parse`: `17` and `017` cannot both pass, `17` and `GPIO17` are different lines to the kernel).
    static func requireDistinct(_ lines: [String], what: String = "watch") throws {
        var seen = Set<String>()
        for line in lines where !seen.insert(line).inserted {
            throw ValidationError("line \(line) is named twice: \(what) each line once.")
        }
    }
}
