import ArgumentParser
import LinuxSys
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The `gpio-debounce` command: its subcommands, and the checks made before the parser reads the
/// arguments (`ArgumentPrecheck`). The library module `GPIODebounce` (the `Button` face) is another thing.
@main
struct GPIODebounceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpio-debounce",
        abstract: "Turn the noisy edges of a GPIO button into clean, exactly-timed press and release events.",
        discussion: """
            Exit codes: 0 success (also when stopped by SIGINT or SIGTERM), 64 bad command line, 65 bad input \
            data, 66 an input (file, chip, line) cannot be opened, 69 unsupported by the kernel or this build, \
            74 read or write error, 75 line busy, 77 permission denied.
            """,
        // `--version`: the version and the libgpiod this binary was built with (Support/Version.swift).
        version: Version.text,
        subcommands: [WatchCommand.self, RunCommand.self, CheckCommand.self, DoctorCommand.self, ListCommand.self, RecordCommand.self, AnalyzeCommand.self, ReplayCommand.self, DemoCommand.self, GenerateCommand.self, EventsCommand.self, StatusCommand.self, ReloadCommand.self, ResetCommand.self]
    )

    /// Runs the command; a failed write to standard output makes it exit 74 (see
    /// `reportStandardOutputErrorsAtExit`).
    static func main() {
        reportStandardOutputErrorsAtExit()
        let arguments = Array(CommandLine.arguments.dropFirst())
        let commands = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        if let unknown = ArgumentPrecheck.unknownCommand(arguments, commands: commands) {
            printToStandardError("gpio-debounce: error: \(unknown)")
            printToStandardError("Usage: gpio-debounce <subcommand>; see 'gpio-debounce --help'.")
            Glibc.exit(ExitStatus.usage.rawValue)
        }
        if let command = arguments.first, ["run", "watch", "record"].contains(command) {
            // Their code in memory before any line is requested; `runToEnd` adds what is opened later.
            ResidentCode.isWanted = true
            ResidentCode.mapInIfWanted()
        }
        main(ArgumentPrecheck.joiningNegativeValues(arguments))
    }
}
