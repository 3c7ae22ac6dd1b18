#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DebounceCore
import EventLoop
import EventOutput
import InputModel
import LineInput
import LinuxSys
import Logging
import Pipeline
import Recording
import Settings
import SystemPackage

/// The events socket: every program on the machine that may open it gets the daemon's inputs, as
/// newline-delimited JSON (docs/socket.md). On connect a `hello`, then each input's state (the
/// snapshot), then every event and change of state as it happens, each with a sequence number of the
/// daemon's start. Made from the inputs' descriptions (`InputPresenter`): it names no kind.
///
/// One descriptor for the loop (an `EpollSet` of the listening socket and the clients); nothing per
/// edge, and per output only the inputs' states kept while no client listens. A client that reads
/// slower than events come loses what does not fit its queue and is told so; it never delays the
/// loop or another client.
package final class EventSocketSink: Sink {
    /// The socket's path.
    package let path: String
    /// The control socket's, beside it (`EventSocketSettings.controlPath`): mode 0600, for reloads.
    package let controlPath: String
    let listener: OwnedDescriptor
    let controlListener: OwnedDescriptor
    let watch: EpollSet
    var clients: [UInt64: EventSocketClient] = [:]
    /// The epoll tokens: 0 the events socket, 1 the control socket, from 2 the clients.
    var nextToken: UInt64 = 2
    /// Whether a client's reload (SIGHUP to this process) waits for the daemon.
    var reloadAsked = false
    /// The resets the control clients asked for, not yet taken by the loop (`takeCommands`), each with
    /// its input and the client (by token) that asked.
    var resetsAsked: [(command: PipelineCommand, input: Int, token: UInt64)] = []
    /// The resets the loop took in this wakeup: the clients waiting, in order, for each input's
    /// answer, the `reset` line its command made (`answerReset`).
    var resetsTaken: [Int: [UInt64]] = [:]
    /// Whether the next `adopt` tells the clients of a reload: not when it takes the configuration
    /// back after a reload that failed (`reloadRefused(_:rollingBack:)`).
    private var announcesAdoption = true
    /// Whether the listening sockets are out of the epoll set: taking a client failed (out of
    /// descriptors); watched again when a client leaves, or at `resumeListeningNs`.
    var listeningPaused = false
    @exclusivity(unchecked) var resumeListeningNs: Int64?  // read at every wakeup (`nextDeadlineNs`)
    /// Each input by its `InputDescription.input`, and their order.
    var inputs: [Int: EventSocketInput] = [:]
    var order: [Int] = []
    /// The number of the last live line (events, states, reloads) sent.
    var sequence = 0
    var nowNs: Int64 = 0
    let version: String
    /// The most clients connected at once, both sockets together: one more is told so and closed.
    let maximumClients: Int
    let logger: Logger
    /// A directory made for the socket alone, removed with it (a simulation's).
    private let ownDirectory: String?
    /// Each event's line as `run --format json` prints it: the printer of the inputs (`adopt`) writes
    /// into `printed`, which keeps the lines for the clients and writes nothing.
    private var printer: EventPrinter
    private let printed = OutputBuffer(fileDescriptor: FileDescriptor(rawValue: -1), flushThreshold: .max)

    /// Listens at `path` (`EventSocketListener`: `mode`, `group` or else `defaultGroup` if it exists;
    /// its directory made when `makesDirectory`) for clients of `inputs`, and at the control path beside
    /// it (mode 0600: the daemon's own user and root); `version` is told in every `hello`. `ownDirectory`:
    /// a directory of the socket's own, removed at the end of the run; `maximumClients`: how many
    /// clients it takes at once.
    package init(
        path: String, mode: UInt32 = 0o660, group: String? = nil, defaultGroup: String? = nil, makesDirectory: Bool = false, ownDirectory: String? = nil, inputs: [any InputPresenter], version: String,
        maximumClients: Int = defaultMaximumClients, logger: Logger
    ) throws(EventSocketError) {
        self.path = path
        self.maximumClients = maximumClients
        self.version = version
        self.logger = logger
        self.ownDirectory = ownDirectory
        let controlPath = EventSocketSettings.controlPath(beside: path)
        self.controlPath = controlPath
        printer = Self.printer(of: inputs, into: printed)
        func giveUp(_ made: [String]) {
            for path in made { unlink(path) }
            if let ownDirectory { rmdir(ownDirectory) }
        }
        // The control socket first (once the events socket is there, both are), after the events
        // socket's path is known to be free: an error names the path the user gave.
        do {
            try EventSocketListener.checkFree(path)
            controlListener = try EventSocketListener.listen(at: controlPath, mode: 0o600, group: nil, defaultGroup: nil, makesDirectory: makesDirectory)
        } catch {
            giveUp([])
            throw error
        }
        do {
            listener = try EventSocketListener.listen(at: path, mode: mode, group: group, defaultGroup: defaultGroup, makesDirectory: false)
        } catch {
            giveUp([controlPath])
            throw error
        }
        do {
            watch = try EpollSet()
            try watch.watch(listener.descriptor, write: false, token: 0)
            try watch.watch(controlListener.descriptor, write: false, token: 1)
            descriptorList = [watch.descriptor]
        } catch {
            giveUp([path, controlPath])
            throw .cannotMake(path: path, error)
        }
        adopt(inputs)
    }

    /// A directory of its own for a simulation's socket (`mkdtemp` under `$TMPDIR` or /tmp), so that a
    /// simulation never touches the service's socket: the socket's path in it.
    package static func simulationPath() throws(EventSocketError) -> (directory: String, path: String) {
        let suffix = "/gpio-debounce-socket.XXXXXX/control.sock"  // the longer of its two sockets' names
        // A $TMPDIR too deep for a socket's path (107 bytes) is passed over for /tmp.
        let base = (getenv("TMPDIR").map { String(cString: $0) }).flatMap { $0.isEmpty || $0.utf8.count + suffix.utf8.count > UnixSocket.maximumPathBytes ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/gpio-debounce-socket.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap(mkdtemp) }) else {
            throw .cannotMake(path: base, SystemError("mkdtemp", Errno(rawValue: errno)))
        }
        let directory = String(cString: made)
        return (directory, directory + "/events.sock")
    }

    /// Takes the inputs of the next configuration (a reload): the kept ones (same name and kind) keep
    /// their states; clients are told what was added and removed.
    package func adopt(_ presenters: [any InputPresenter]) {
        let before = order.compactMap { inputs[$0] }
        var next: [Int: EventSocketInput] = [:]
        for presenter in presenters {
            var input = EventSocketInput(presenter)
            if let kept = before.first(where: { $0.name == input.name && $0.kind == input.kind }) {
                for (channel, payload) in kept.states { if let payload { _ = input.apply(InputUpdate(channel: channel, payload: payload, delivery: .state)) } }
            }
            next[presenter.description.input] = input
        }
        inputs = next
        order = presenters.map(\.description.input)
        printer = Self.printer(of: presenters, into: printed)
        let announces = announcesAdoption
        announcesAdoption = true
        guard !before.isEmpty, announces else { return }
        let added = presenters.map(\.description.name).filter { name in !before.contains { $0.name == name } }
        let removed = before.map(\.name).filter { name in !presenters.contains { $0.description.name == name } }
        sequence += 1
        let line = EventSocketLine.reloaded(added: added, removed: removed, seq: sequence)
        broadcast(line, input: nil, event: "reloaded")
        answerReload(line)
    }

    /// The reload a client asked for was refused (the configuration does not load: `message`); the
    /// daemon goes on with the inputs it has. `rollingBack`: it failed after the run before was taken
    /// apart, and the next `adopt` takes that run's configuration back: no `reloaded` for it.
    package func reloadRefused(_ message: String, rollingBack: Bool = false) {
        if rollingBack { announcesAdoption = false }
        answerReload(EventSocketLine.reloadRefused(message))
    }

    private func answerReload(_ line: [UInt8]) {
        reloadAsked = false
        for (token, client) in clients where client.awaitsReload {
            client.awaitsReload = false
            client.enqueue(line)
            flush(client, token: token)
        }
    }

    /// A JSON printer of `presenters`' events (`EventPrinter`, as `run`'s) into `buffer`.
    private static func printer(of presenters: [any InputPresenter], into buffer: OutputBuffer) -> EventPrinter {
        let lineCount = (presenters.flatMap(\.description.lines).max() ?? -1) + 1
        return EventPrinter(writer: EventWriter(format: .json, output: buffer), inputs: presenters, lineCount: lineCount)
    }

    package var consumesEdges: Bool { false }

    package var descriptors: [FileDescriptor] { descriptorList }
    /// The epoll descriptor, made with the sink.
    package var keepsDescriptorsOpen: Bool { true }
    /// `descriptors`, made once: the loop asks for it at every wakeup.
    private let descriptorList: [FileDescriptor]

    package func start(linesPressed: [Bool?], levels: [Level], atNs nowNs: Int64) {
        self.nowNs = nowNs
        for index in order {
            guard let presenter = inputs[index]?.presenter else { continue }
            for update in presenter.start(linesPressed: linesPressed) { take(update, of: index) }
        }
    }

    package func consume(_ output: PipelineOutput, nowNs: Int64) throws(SinkError) {
        guard let input = output.source.map({ Int($0.input) }), let presenter = inputs[input]?.presenter else { return }
        self.nowNs = nowNs
        if !clients.isEmpty {
            try? printer.consume(output, nowNs: nowNs)
            sendPrinted(of: input, adding: [])
        }
        for update in presenter.updates(for: output) { take(update, of: input) }
    }

    package func consume(code: EnteredCode, of source: OutputSource, nowNs: Int64) throws(SinkError) {
        let input = Int(source.input)
        guard let presenter = inputs[input]?.presenter else { return }
        self.nowNs = nowNs
        if !clients.isEmpty {
            try? printer.consume(code: code, of: source, nowNs: nowNs)
            sendPrinted(of: input, adding: presenter.sharedFields(for: code))
        }
        for update in presenter.updates(for: code) { take(update, of: input) }
    }

    /// Sends what the printer wrote for input `index`'s output, each line with the input's name and
    /// kind, `fields` and its number.
    private func sendPrinted(of index: Int, adding fields: [(String, JSONValue)]) {
        printed.drain { bytes in
            guard let input = inputs[index] else { return }
            // The event's name only for a client that chose its events.
            let named = clients.values.contains { $0.events != nil }
            var start = bytes.startIndex
            while let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let payload = bytes[start..<end]
                sequence += 1
                let line = EventSocketLine.event(payload, of: input, adding: fields, seq: sequence)
                broadcast(line, input: input.name, event: named ? EventSocketLine.eventName(payload) : "")
                if !resetsTaken.isEmpty { answerReset(of: index, with: line) }
                start = end + 1
            }
        }
    }

    package func availabilityChanged(_ change: ChipAvailability, atNs nowNs: Int64) {
        self.nowNs = nowNs
        for index in order {
            guard var input = inputs[index] else { continue }
            let lines = Set(input.presenter.description.lines).intersection(change.lines)
            guard !lines.isEmpty else { continue }
            let was = input.isAvailable
            if change.isAvailable { input.awayLines.subtract(lines) } else { input.awayLines.formUnion(lines) }
            inputs[index] = input
            if input.isAvailable != was { sendState(of: index) }
        }
    }

    /// An update of input `index`: a state is kept, and its change sent (its events go as the printer
    /// writes them, `sendPrinted`).
    private func take(_ update: InputUpdate, of index: Int) {
        guard update.delivery != .event, inputs[index]?.apply(update) == true else { return }  // in place: no copy of the input
        sendState(of: index)
    }

    private func sendState(of index: Int) {
        guard !clients.isEmpty, let input = inputs[index] else { return }
        sequence += 1
        broadcast(EventSocketLine.state(input, timeNs: nowNs, seq: sequence), input: input.name, event: "state")
    }

    /// Queues `line` for every client that subscribed to it: sent at the end of the wakeup (`advance`),
    /// one `send` a client for all of the wakeup's lines.
    private func broadcast(_ line: [UInt8], input: String?, event: String) {
        for client in clients.values where client.greeted && !client.isControl && client.wants(input: input, event: event) { client.enqueue(line) }
    }

    package func descriptorReady(_ index: Int, events: PollEvents) {
        for ready in watch.take() {
            if ready.token <= 1 {
                acceptClients(control: ready.token == 1)
                continue
            }
            guard let client = clients[ready.token] else { continue }
            if ready.readable || ready.failed { read(client, token: ready.token) }
            if ready.writable, clients[ready.token] != nil { flush(client, token: ready.token) }
        }
    }

    package var nextDeadlineNs: Int64? { resumeListeningNs }

    package var inspectionDueNs: Int64? { !clients.isEmpty && clients.values.contains(where: \.wantsStatus) ? .min : nil }

    /// Answers the status requests: each input's state and health (`ButtonPipeline.health(input:)`).
    package func inspect(_ pipeline: ButtonPipeline, atNs nowNs: Int64) {
        for (token, client) in clients where client.wantsStatus {
            client.wantsStatus = false
            for index in order {
                guard let input = inputs[index] else { continue }
                client.enqueue(EventSocketLine.status(input, health: pipeline.health(input: index, atNs: nowNs).json, timeNs: nowNs))
            }
            client.enqueue(EventSocketLine.statusEnd(inputs: order.count))
            flush(client, token: token)
        }
    }

    /// The wakeup's lines go out: each client with lines waiting is sent what its socket takes.
    package func advance(toNs nowNs: Int64) throws(SinkError) {
        self.nowNs = nowNs
        if let resumeNs = resumeListeningNs, nowNs >= resumeNs { resumeListening() }
        guard !clients.isEmpty else { return }  // every wakeup: nothing to do while nobody listens
        if !resetsAsked.isEmpty || !resetsTaken.isEmpty { refuseUnansweredResets() }
        greetNewClients()
        for (token, client) in clients where client.hasPending { flush(client, token: token) }
    }

    /// The run ends: every client's stream ends (what was queued is sent as far as it goes), and the
    /// socket is removed.
    package func finish(atNs nowNs: Int64) throws(SinkError) {
        self.nowNs = nowNs
        greetNewClients()
        for token in Array(clients.keys) {
            try? clients[token]?.send()
            close(token)
        }
        closeListener()
    }

    private(set) var isListening = true

    private func closeListener() {
        guard isListening else { return }
        isListening = false
        listener.close()
        controlListener.close()
        unlink(path)
        unlink(controlPath)
        if let ownDirectory { rmdir(ownDirectory) }
    }

    deinit { closeListener() }
}
