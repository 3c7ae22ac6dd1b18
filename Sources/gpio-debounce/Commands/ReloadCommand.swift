import ArgumentParser
import EventSocket

/// `gpio-debounce reload`: the running daemon reads its configuration again, through its control
/// socket, and says what came of it.
struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Make the running daemon read its configuration again (as systemctl reload does) and say what came of it.",
        discussion: """
            Asks through the daemon's control socket (control.sock beside its events socket), which only \
            the daemon's user and root may open. Prints the inputs added and removed, and exits 0; when \
            the file does not load, prints its error and exits 65 (the daemon goes on with what it had); \
            69 when no daemon listens, 77 for another user.
            """)

    @OptionGroup var socket: SocketOption
    @OptionGroup var output: OutputOptions

    func run() throws {
        do throws(EventSocketConnection.Failure) {
            let answer = try EventSocketReading.reload(controlPath: socket.controlPath)
            print(output.format == .json ? String(decoding: answer, as: UTF8.self) : EventSocketText.reloaded(answer))
        } catch {
            throw socket.controlFailure(error, command: "reload") { failure("reload refused, the daemon goes on with the configuration it had: \($0)", ExitStatus.badData) }
        }
    }
}
