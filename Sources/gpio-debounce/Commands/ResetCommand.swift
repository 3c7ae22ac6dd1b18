import ArgumentParser
import EventSocket

/// `gpio-debounce reset NAME [--to N]`: the running daemon sets a counter's total or an encoder's
/// position, through its control socket, and prints the `reset` event it made.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Set a counter's total or an encoder's position in the running daemon.",
        discussion: """
            Asks through the daemon's control socket (control.sock beside its events socket), which only \
            the daemon's user and root may open. Without --to, a counter starts again from 0 and an \
            encoder goes to its reset_to: (0 when it has none); an encoder's position is clamped into its \
            min...max. The new value is kept as a pulse's or a detent's would be (in the state directory for a \
            counter, and for an encoder with restore: true), reaches Home \
            Assistant and every client of the events socket, and is printed as the reset event. Exits 0; \
            64 when the daemon has no such input or it has nothing to reset (a button, a contact); 75 when \
            it was stopping and did not reset it; 69 when no daemon listens, 77 for another user.
            """)

    @Argument(help: "The input: a counter's or an encoder's name, as the configuration gives it.")
    var name: String

    @Option(name: .customLong("to"), help: ArgumentHelp("The new total, in pulses, or position.", valueName: "number"))
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
