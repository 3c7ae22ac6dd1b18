import ArgumentParser
import EventSocket

/// `gpio-debounce status`: every input of the running daemon, its state and health, as a table.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print every input of the running daemon: its state, whether its chip is there, and its health (edges, bounces absorbed, events lost).",
        discussion: "Exits 0, or 69 when no daemon listens on the socket (with what to do), 77 when this user may not read it.")

    @OptionGroup var socket: SocketOption
    @OptionGroup var output: OutputOptions

    func run() throws {
        do throws(EventSocketConnection.Failure) {
            let lines = try EventSocketReading.status(path: socket.path)
            let text = output.format == .json ? lines.map { String(decoding: $0, as: UTF8.self) } : EventSocketText.statusTable(lines)
            for line in text { print(line) }
        } catch {
            throw failure(error.description, ExitStatus.of(error))
        }
    }
}
