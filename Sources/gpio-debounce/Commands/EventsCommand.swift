#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import EventSocket
import LinuxSys

/// `gpio-debounce events`: the running daemon's events, from its events socket.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the running daemon's events (gpio-debounce run), as watch prints them, from its events socket: every input's state first, then each event as it comes.",
        discussion: """
            Any number of programs can read the daemon's inputs at once this way, while the daemon holds \
            the lines (docs/socket.md has the protocol). The user needs to be in the socket's group \
            (gpio-debounce-events for the package's service) or root. Exits 0 when the daemon stops (with \
            --follow: waits for it and goes on), 69 when no daemon listens, 77 when this user may not read it.
            """)

    @OptionGroup var socket: SocketOption

    @Option(name: .customLong("input"), help: ArgumentHelp("Only this input's lines (repeat for more).", valueName: "name"))
    var inputs: [String] = []

    @OptionGroup var output: OutputOptions

    @Flag(help: "When the daemon stops or restarts, wait for it and go on (a fresh snapshot), as `tail --follow` does.")
    var follow = false

    @Option(name: [.short, .customLong("num-events")], help: "Exit after this many live lines (events and changes of state).", transform: CountArgument.parse)
    var numEvents: Int?

    func run() throws {
        TerminationSignals.unblock()  // `kill` ends it while it waits for the daemon
        do throws(EventSocketConnection.Failure) {
            try EventSocketReading.follow(
                path: socket.path, inputs: inputs, json: output.format == .json, follow: follow, limit: numEvents, print: { line in
                    Swift.print(line)
                    fflush(nil)  // each line as it comes, also into a pipe (nil: every output stream)
                },
                note: { printToStandardError("gpio-debounce: \($0)") })
        } catch {
            throw failure(error.description, ExitStatus.of(error))
        }
    }
}
