import ArgumentParser
import Settings

/// `--socket PATH`: the daemon's events socket.
struct SocketOption: ParsableArguments {
    @Option(help: ArgumentHelp("The daemon's events socket (a simulation logs its own).", valueName: "path"))
    var socket: String = EventSocketSettings.defaultPath

    var path: String { socket }
}
