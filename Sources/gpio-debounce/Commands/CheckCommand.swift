#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import ConfigurationFile
import Daemon
import EventOutput
import GPIODBackend

/// Reads and checks a configuration file, exiting 65 with the file, line and key of any mistake (66 when
/// the file cannot be opened or read), and warning on stderr of keys in an old spelling. Programs of
/// `run:` actions are looked up with `programs` (this process's PATH): one that cannot be started is
/// refused, or with `programs.notesMissing` left in `missingPrograms` for the caller to note or refuse.
func loadConfiguration(_ path: String, programs: ProgramLookup = .environment) throws -> ServiceConfiguration {
    do throws(ConfigurationFileFailure) {
        return try readConfiguration(path, programs: programs)
    } catch {
        throw failure(error.message, error.code)
    }
}

/// Why a configuration file could not be used: the message (without `gpio-debounce: error:`) and the
/// exit code.
struct ConfigurationFileFailure: Error {
    var message: String
    var code: ExitCode
}

/// The configuration in the file at `path` (its deprecations said on stderr as warnings), or why not.
func readConfiguration(_ path: String, programs: ProgramLookup = .environment) throws(ConfigurationFileFailure) -> ServiceConfiguration {
    let bytes = try readConfigurationFile(path)
    do {
        let configuration = try ConfigurationLoader.load(bytes: bytes, file: path, programs: programs)
        for deprecation in configuration.deprecations { printToStandardError("gpio-debounce: warning: \(deprecation)") }
        return configuration
    } catch {
        throw ConfigurationFileFailure(message: error.description, code: ExitStatus.badData)
    }
}

/// Says on stderr, as a note, each program of `configuration` that cannot be started here, and `why`
/// that does not stop this command.
func noteMissingPrograms(_ configuration: ServiceConfiguration, _ why: String) {
    for problem in configuration.missingPrograms { printToStandardError("gpio-debounce: note: \(problem.description); \(why)") }
}

/// The file's bytes, at most one more than `ConfigurationLoader.maximumBytes` (so that a larger file,
/// or an endless one like /dev/zero, is refused without reading it all).
private func readConfigurationFile(_ path: String) throws(ConfigurationFileFailure) -> [UInt8] {
    func cannot(_ what: String, _ code: Int32) -> ConfigurationFileFailure {
        let reason = switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied (it must be readable by the user running gpio-debounce)"
        case ENOTDIR: "a part of the path is not a directory"
        case EISDIR: "it is a directory, not a file: give the YAML file, e.g. \(path)/buttons.yaml"
        default: String(cString: strerror(code))
        }
        return ConfigurationFileFailure(message: "cannot \(what) the configuration '\(path)': \(reason)", code: ExitStatus.cannotOpenInput)
    }
    guard !path.isEmpty else { throw ConfigurationFileFailure(message: "--config needs a file name", code: ExitStatus.cannotOpenInput) }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { throw cannot("open", errno) }
    defer { close(descriptor) }
    var info = stat()
    if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { throw cannot("read", EISDIR) }
    let limit = ConfigurationLoader.maximumBytes + 1
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while bytes.count < limit {
        let wanted = min(chunk.count, limit - bytes.count)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
        if count < 0 {
            if errno == EINTR { continue }
            throw cannot("read", errno)
        }
        if count == 0 { break }
        bytes += chunk[0..<count]
    }
    return bytes
}

/// `gpio-debounce check --config FILE`.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check a configuration file for `run` and say what it sets up.")

    @Option(help: ArgumentHelp("The YAML configuration file.", valueName: "file"))
    var config: String

    func run() throws {
        let configuration = try loadConfiguration(config, programs: ProgramLookup.environment.notingMissing)
        let chips = ChipInventory.read()
        let report = CheckReport(configuration, file: config, machine: try checkOnThisMachine(configuration, chips: chips), headerChip: { chips.isEmpty ? nil : chips.header })
        for line in report.lines { print(TerminalText.escaped(line)) }
        for note in report.notes { printToStandardError("gpio-debounce: note: \(note)") }
        for warning in report.warnings { printToStandardError("gpio-debounce: warning: \(warning)") }
    }

    /// What `run` checks on this machine's `chips` (`MachineCheck`), refused as `run` refuses it, except what
    /// depends on who runs it, which becomes a note: `check` may run as another user than the service
    /// (a password file or chip it may not read) and without the service's environment
    /// (`password_env`). A machine without GPIO chips is not where the configuration runs (it is
    /// being written or reviewed elsewhere): its lines are not resolved, and the files it names for
    /// the service's machine (MQTT password and CA files, the programs of `run:` actions) are noted, not refused.
    private func checkOnThisMachine(_ configuration: ServiceConfiguration, chips: ChipInventory) throws -> CheckReport.MachineFindings {
        var messages: [String] = []
        let hasChips = !chips.isEmpty
        if let missing = configuration.missingPrograms.first, hasChips { throw failure(missing.description, ExitStatus.badData) }
        for missing in configuration.missingPrograms {
            messages.append("\(missing.description); not refused on a machine without GPIO chips, but run refuses to start (exit \(ExitStatus.badData.rawValue)) until it is there")
        }
        do {
            try MachineCheck.readConfiguredFiles(configuration)
        } catch {
            if Self.dependsOnUser(error) {
                messages.append("\(error.description); not refused here, since the service may run as another user or with another environment: make sure it can")
            } else if !hasChips {
                messages.append("\(error.description); not refused on a machine without GPIO chips, but run refuses to start (exit \(ExitStatus.of(error).rawValue)) until it is there")
            } else {
                throw failure(error.description, ExitStatus.of(error))
            }
        }
        guard hasChips else {
            messages.append("line names and chips were not resolved: this machine has no GPIO chip (run resolves them, and refuses two buttons on one line, when it starts)")
            return CheckReport.MachineFindings(lines: nil, notes: messages)
        }
        do {
            return CheckReport.MachineFindings(located: try MachineCheck.locateLinesOnThisMachine(configuration, chips: chips), notes: messages)
        } catch {
            guard Self.dependsOnUser(error) else { throw failure("\(error.description) (on this machine's chips)", ExitStatus.of(error)) }
            messages.append("line names and chips were not resolved: \(error.description)")
            return CheckReport.MachineFindings(lines: nil, notes: messages)
        }
    }

    private static func dependsOnUser(_ failure: MachineCheck.Failure) -> Bool {
        switch failure {
        case .mqtt(.passwordEnvironment), .line(_, .permissionDenied): true
        case .mqtt(.passwordFile(_, _, let code)), .mqtt(.caFile(_, _, let code)), .apiKeyFile(.keyFile(_, _, let code?)): code == EACCES || code == EPERM
        default: false
        }
    }
}
