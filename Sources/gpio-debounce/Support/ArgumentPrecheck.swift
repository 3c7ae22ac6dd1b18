import ArgumentParser
import Settings

/// What the command line needs before swift-argument-parser reads it, in one place: a misspelt
/// command gets a suggestion, and a negative duration reaches the option that would refuse it.
enum ArgumentPrecheck {
    /// The options whose value is a duration or a debounce strategy (every `<duration>` and
    /// `<strategy>` of the commands' help; CLITests checks that none is missing).
    static let durationOptions: Set<String> = [
        "--debounce", "--press", "--release", "--kernel-debounce", "--debounce-period", "--idle-timeout",
        "--shutdown-grace", "--duration", "--gap", "--scan-settle", "--scan-interval", "--settle",
    ]

    /// The options whose value is a count (`CountArgument`): a negative value reaches them too, so that
    /// `--presses -3` says a count is at least 1, not that the value is missing.
    static let countOptions: Set<String> = ["--presses", "--edges", "--num-events", "-n", "--burst"]

    /// The options whose value is a number that may be negative (`reset knob --to -5`, an encoder's
    /// position).
    static let numberOptions: Set<String> = ["--to"]

    /// The arguments (without the program's name) as the parser should read them: a duration, count or
    /// number option followed by a negative number (`--idle-timeout -1s`, `--presses -3`) becomes one argument
    /// (`--idle-timeout=-1s`), so that the option's own check says what is allowed; the parser would
    /// take `-1s` for an option and report the value as missing. Everything after `--` is left alone.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                result += arguments[index...]
                break
            }
            let next = index + 1 < arguments.endIndex ? arguments[index + 1] : nil
            if durationOptions.contains(argument) || countOptions.contains(argument) || numberOptions.contains(argument), let next, isNegativeNumber(next) {
                result.append("\(argument)=\(next)")
                index += 2
            } else {
                result.append(argument)
                index += 1
            }
        }
        return result
    }

    /// `-` then a digit or a point: `-1s`, `-.5ms` (never an option of ours).
    static func isNegativeNumber(_ text: String) -> Bool {
        let scalars = text.unicodeScalars.dropFirst()
        return text.hasPrefix("-") && scalars.first.map { ("0"..."9").contains($0) || $0 == "." } ?? false
    }

    /// Why the first argument is not a command, or nil if it is one (or an option, or absent):
    /// `unknown command 'wacth'; did you mean 'watch'?` (close names as `NearestNames.suggestions`
    /// finds line names), or with no close name the list of commands. The parser itself would say
    /// "2 unexpected arguments".
    static func unknownCommand(_ arguments: [String], commands: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !commands.contains(first) else { return nil }
        let quoted = "'\(first)'"
        let close = NearestNames.suggestions(for: first, among: commands)
        if !close.isEmpty {
            return "unknown command \(quoted); did you mean \(close.map { "'\($0)'" }.joined(separator: " or "))?"
        }
        return "unknown command \(quoted); the commands are \(commands.filter { $0 != "help" }.joined(separator: ", "))"
    }
}
