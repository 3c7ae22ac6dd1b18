import ArgumentParser
import EventSocket
import Inputs

/// `gpio-debounce reset NAME [--to N]`: the running daemon sets the value an input holds (each kind
/// says what, `InputKind.resetHelp`), through its control socket, and prints the `reset` event it made.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Set the value an input holds in the running daemon.",
        discussion: InputKinds.resetHelp.joined(separator: "\n") + """

            Asks through the daemon's control socket (control.sock beside its events socket), which only \
            the daemon's user and root may open. The new value reaches Home Assistant and every client of \
            the events socket, and is printed as the reset event. Exits 0; 64 when the daemon has no such \
            input or it has nothing to reset; 75 when it was stopping and did not reset it; 69 when no \
            daemon listens, 77 for another user.
            """)

    @Argument(help: "The input's name, as the configuration gives it.")
    var name: String

    @Option(name: .customLong("to"), help: ArgumentHelp("The new value (a total in pulses, a position).", valueName: "number"))
    var value: Int64?

    @OptionGroup var socket: SocketOption
    @OptionGroup var output: OutputOptions

    func run() throws {
        do throws(EventSocketConnection.Failure) {
            let answer = try EventSocketReading.reset(controlPath: socket.controlPath, input: name, to: value)
            print(output.format == .json ? String(decoding: answer, as: UTF8.self) : EventSocketText.line(answer) ?? String(decoding: answer, as: UTF8.self))
        } catch {
            throw socket.controlFailure(error, command: "reset \(name)") { failure("reset refused: \($0)", ExitStatus.usage) }
        }
    }
}
