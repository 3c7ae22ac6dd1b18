#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Pipeline

/// What a client of the events or control socket asks, one JSON line a request
/// (`EventSocketRequest`): read a byte at a time as it comes, answered in the wakeup that completes it.
extension EventSocketSink {
    /// The most clients connected at once by default, both sockets together (each request is some
    /// work of the loop's; a client's queue up to 256 KiB).
    package static let defaultMaximumClients = 512

    func takeRequestByte(_ byte: UInt8, of client: EventSocketClient, token: UInt64) {
        guard !client.closesWhenSent else { return }
        guard byte == UInt8(ascii: "\n") else {
            client.request.append(byte)
            if client.request.count >= EventSocketRequest.maximumLineBytes {
                client.enqueue(EventSocketLine.error("a request line has at most \(EventSocketRequest.maximumLineBytes) bytes: closing"))
                client.closesWhenSent = true
                flush(client, token: token)
            }
            return
        }
        let line = String(decoding: client.request, as: UTF8.self)
        client.request.removeAll(keepingCapacity: true)
        guard !line.allSatisfy(\.isWhitespace) else { return }
        do throws(EventSocketRequest.Refusal) {
            switch try EventSocketRequest.parse(line) {
            case .status:
                client.wantsStatus = true
            case .health:
                try requireControl(client)
                client.wantsStatus = true
            case .reload:
                try requireControl(client)
                client.awaitsReload = true
                if !reloadAsked {
                    reloadAsked = true
                    logger.notice("control socket: a reload asked by \(client.who)")
                    kill(getpid(), SIGHUP)  // the loop's signal descriptor takes it, as `systemctl reload`'s
                }
            case .reset(let name, let value):
                try requireControl(client)
                try askReset(of: name, to: value, by: client, token: token)
            case .subscribe where client.isControl:
                throw EventSocketRequest.Refusal(message: "the control socket sends no events: read them from \(path)")
            case .subscribe(let names, let events):
                let known = Set(order.compactMap { inputs[$0]?.name })
                if let names, let unknown = names.subtracting(known).sorted().first { throw unknownInput(unknown) }
                (client.inputs, client.events) = (names, events)
            }
        } catch {
            client.enqueue(EventSocketLine.error(error.message))
            flush(client, token: token)
        }
    }

    /// Refuses a request of the control socket's that came through the events socket.
    func requireControl(_ client: EventSocketClient) throws(EventSocketRequest.Refusal) {
        guard client.isControl else {
            throw EventSocketRequest.Refusal(message: "reload, reset and health are asked on the control socket \(controlPath), which only the daemon's user and root may open")
        }
    }

    /// Queues the reset of input `name` to `value` (or its own reset value) for the loop, with `client`
    /// waiting for its answer; refuses an unknown input, or one with no value to set.
    private func askReset(of name: String, to value: Int64?, by client: EventSocketClient, token: UInt64) throws(EventSocketRequest.Refusal) {
        guard let index = order.first(where: { inputs[$0]?.name == name }), let input = inputs[index] else {
            throw unknownInput(name)
        }
        guard let standard = input.presenter.resetValue else {
            let resettable = order.compactMap { inputs[$0] }.filter { $0.presenter.resetValue != nil }.map(\.name)
            throw EventSocketRequest.Refusal(
                message: "\(name) is a \(input.kind), which has nothing to reset"
                    + (resettable.isEmpty ? ", nor has any other input of this run" : ": the inputs that can be reset are \(resettable.joined(separator: ", "))"))
        }
        let target = value ?? standard
        logger.notice("control socket: \(name) reset to \(target), asked by \(client.who)")
        resetsAsked.append((.reset(input: index, to: target), index, token))
        client.resetsAwaited += 1
    }

    /// The refusal of a request that names no input of this run, listing the inputs there are.
    private func unknownInput(_ name: String) -> EventSocketRequest.Refusal {
        EventSocketRequest.Refusal(message: "no input named \"\(name)\": the inputs are \(order.compactMap { inputs[$0]?.name }.joined(separator: ", "))")
    }

    package var takesCommands: Bool { true }

    /// The resets asked since the last call, in order; their clients then wait for the lines the
    /// commands make, which the loop hands on before anything else of the wakeup's end.
    package func takeCommands() -> [PipelineCommand] {
        guard !resetsAsked.isEmpty else { return [] }
        defer { resetsAsked.removeAll() }
        for asked in resetsAsked { resetsTaken[asked.input, default: []].append(asked.token) }
        return resetsAsked.map(\.command)
    }

    /// Answers the first client waiting for a reset of input `index` with `line`, the `reset` line its
    /// command made (one line per command, in the order they were taken).
    func answerReset(of index: Int, with line: [UInt8]) {
        guard var tokens = resetsTaken[index], !tokens.isEmpty else { return }
        let token = tokens.removeFirst()
        resetsTaken[index] = tokens.isEmpty ? nil : tokens
        answer(token, with: line)
    }

    /// Tells the clients whose reset made no line in their wakeup why: the daemon is stopping (the loop
    /// took no command), or the input has nothing to reset in this run.
    func refuseUnansweredResets() {
        for asked in resetsAsked {
            answer(asked.token, with: EventSocketLine.stopping("the daemon is stopping: \(inputs[asked.input]?.name ?? "the input") was not reset"))
        }
        resetsAsked.removeAll()
        for (index, tokens) in resetsTaken {
            for token in tokens { answer(token, with: EventSocketLine.error("\(inputs[index]?.name ?? "the input") has nothing to reset in this run")) }
        }
        resetsTaken.removeAll()
    }

    /// Sends client `token`, if it is still there, the answer to one of its resets.
    private func answer(_ token: UInt64, with line: [UInt8]) {
        guard let client = clients[token] else { return }
        client.resetsAwaited -= 1
        client.enqueue(line)
        flush(client, token: token)
    }
}
