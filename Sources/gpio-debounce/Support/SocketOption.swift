import ArgumentParser
import EventSocket
import Settings

/// `--socket PATH`: the daemon's events socket.
struct SocketOption: ParsableArguments {
    @Option(help: ArgumentHelp("The daemon's events socket (a simulation logs its own).", valueName: "path"))
    var socket: String = EventSocketSettings.defaultPath

    var path: String { socket }

    /// The control socket beside it (`reload`, `reset`).
    var controlPath: String { EventSocketSettings.controlPath(beside: socket) }

    /// What `command` (`reload`, `reset NAME`) exits with when the control socket failed: the daemon's
    /// refusal as `refused` words it, another user told to ask as root (77), the rest as the
    /// connection says (69: no daemon).
    func controlFailure(_ error: EventSocketConnection.Failure, command: String, refused: (String) -> ExitCode) -> ExitCode {
        switch error {
        case .refused(let message): refused(message)
        case .permissionDenied: failure("only the daemon's user and root may use its control socket \(controlPath): sudo gpio-debounce \(command)", ExitStatus.of(error))
        default: failure(error.description, ExitStatus.of(error))
        }
    }
}
