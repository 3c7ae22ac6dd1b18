import ArgumentParser
import ConfigurationFile
import Daemon
import EventOutput
import GPIODBackend

/// `gpio-debounce doctor [--config FILE] [LINE…]`: what stands between this machine and a working run.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Say what stands between this machine and a working `run`, each finding with what to do.",
        discussion: """
            Looks at the kernel and libgpiod, the chips and which one offsets alone mean, permissions \
            (the gpio group, the udev rule), each line of the configuration and the LINEs given (exists, \
            direction, who holds it when busy), /dev/uinput when keys are configured, the MQTT broker (its \
            files read, a TCP connection: authentication is not checked) and the state directory \
            (writable, not held by another run). Requests no line and changes nothing. Exits 0 when run \
            would start, else with the exit code run would stop with for the first blocker.
            """)

    @Option(help: ArgumentHelp("The YAML configuration file to check against this machine.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("The chip of the LINEs (default: as watch finds them).", valueName: "chip"))
    var chip: String?

    @Argument(help: ArgumentHelp("Lines to look at besides the configuration's: offsets or names.", valueName: "line"))
    var lines: [String] = []

    @Option(help: ArgumentHelp("The state directory run would use (default: as run chooses it).", valueName: "dir"))
    var stateDir: String?

    @Option(help: "Output format: text (for people) or json (one object per finding, one per line).")
    var format: OutputFormat = .text

    func run() throws {
        let configuration = try config.map { try loadConfiguration($0) }
        let report = DoctorReport(DoctorProbes.inputs(configuration: configuration, lines: lines, lineChip: chip, stateDirectory: stateDir))
        for finding in report.findings {
            print(format == .json ? Self.json(finding) : Self.text(finding))
        }
        guard let blocker = report.firstBlocker?.blocker else {
            if format == .text { print("run would start") }
            return
        }
        let code = ExitStatus.of(blocker)
        if format == .text { print("run would not start: the first blocker above (exit \(code.rawValue))") }
        throw code
    }

    /// `ok       kernel: …`, then for a warning or blocker an indented `to do: …`.
    static func text(_ finding: DoctorFinding) -> String {
        let severity = finding.severity.rawValue.uppercased()
        let head = "\(severity)\(String(repeating: " ", count: max(1, 9 - severity.count)))\(finding.topic): \(finding.found)"
        let toDo = finding.toDo.isEmpty ? "" : "\n         to do: " + TerminalText.escaped(finding.toDo)
        return TerminalText.escaped(head) + toDo
    }

    /// `{"severity":"blocker","topic":"line","found":"…","to_do":"…","exit_code":75}` (`exit_code` for
    /// blockers only).
    static func json(_ finding: DoctorFinding) -> String {
        var fields = [
            "\"severity\":\(JSONText.quoted(finding.severity.rawValue))", "\"topic\":\(JSONText.quoted(finding.topic))",
            "\"found\":\(JSONText.quoted(finding.found))", "\"to_do\":\(JSONText.quoted(finding.toDo))",
        ]
        if let blocker = finding.blocker { fields.append("\"exit_code\":\(ExitStatus.of(blocker).rawValue)") }
        return "{" + fields.joined(separator: ",") + "}"
    }
}

extension ExitStatus {
    /// The exit code of a blocker `doctor` found: the one `run` would stop with.
    static func of(_ blocker: DoctorFinding.Blocker) -> ExitCode {
        switch blocker {
        case .gpio(let error): of(error)
        case .machine(let failure): of(failure)
        case .keptState(let error): of(error)
        case .keyboard(let error): of(error)
        }
    }
}
