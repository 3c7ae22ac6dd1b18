#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LinuxSys
import SystemPackage

/// The clients of the events and control sockets: taken as they connect (no more than
/// `maximumClients`, and none while out of descriptors), greeted, read, sent what they take, and
/// closed.
extension EventSocketSink {
    /// Takes the clients waiting on the events socket, or on the control socket (`control`: they get
    /// the `hello` and answers, no events).
    func acceptClients(control: Bool) {
        while true {
            let socket: OwnedDescriptor?
            do { socket = try UnixSocket.accept(control ? controlListener.descriptor : listener.descriptor) } catch {
                // Out of descriptors (EMFILE, ENFILE): the waiting clients stay queued in the kernel, and
                // the listeners unwatched (the loop would wake for them at once, again and again) until
                // a client leaves or a second has passed.
                logger.warning("events socket: \(error); taking no client until one leaves")
                pauseListening()
                return
            }
            guard let socket else { return }
            guard clients.count < maximumClients else {
                let refusal = EventSocketLine.error("the daemon has \(maximumClients) clients, the most it takes: try again when one has left")
                _ = try? refusal.withUnsafeBytes { bytes throws(Errno) in try UnixSocket.send(bytes, to: socket.descriptor) }
                socket.close()
                continue
            }
            let client = EventSocketClient(socket: socket)
            client.isControl = control
            let token = nextToken
            nextToken += 1
            do { try watch.watch(socket.descriptor, write: false, token: token) } catch {
                logger.warning("events socket: \(error)")
                continue
            }
            clients[token] = client
            logger.debug("\(control ? "control" : "events") socket: \(client.who) connected (\(clients.count) connected)")
        }
    }

    /// Greets the clients accepted in this wakeup, at its time: a `hello`, then on the events socket
    /// every input's state (after this wakeup's events, which they were not sent).
    func greetNewClients() {
        for client in clients.values where !client.greeted {
            // `inputs`: how many state lines follow (none for a control client).
            var greeting = EventSocketLine.hello(version: version, pid: getpid(), sequence: sequence, inputs: client.isControl ? 0 : order.count, timeNs: nowNs)
            if !client.isControl { for index in order { if let input = inputs[index] { greeting += EventSocketLine.state(input, timeNs: nowNs, seq: nil) } } }
            client.prepend(greeting)
            client.greeted = true
        }
    }

    func pauseListening() {
        guard !listeningPaused else { return }
        listeningPaused = true
        resumeListeningNs = nowNs.adding(durationNs: 1_000_000_000)
        watch.remove(listener.descriptor)
        watch.remove(controlListener.descriptor)
    }

    func resumeListening() {
        guard listeningPaused, isListening else { return }
        listeningPaused = false
        resumeListeningNs = nil
        try? watch.watch(listener.descriptor, write: false, token: 0)
        try? watch.watch(controlListener.descriptor, write: false, token: 1)
    }

    /// Reads what `client` sent: each whole line a request. Its end of stream means it sends nothing
    /// more (`endRequests`), or, once it said so, that it has gone.
    func read(_ client: EventSocketClient, token: UInt64) {
        var buffer = [UInt8](repeating: 0, count: 1024)
        while clients[token] != nil {
            let count: Int?
            do { count = try buffer.withUnsafeMutableBytes { bytes throws(Errno) in try UnixSocket.receive(bytes, from: client.socket.descriptor) } } catch {
                close(token)
                return
            }
            guard let count else { return }
            guard count > 0 else {
                if client.requestsEnded { close(token) } else { endRequests(client, token: token) }
                return
            }
            for byte in buffer[..<count] { takeRequestByte(byte, of: client, token: token) }
        }
    }

    /// A client that will send nothing more (`shutdown(SHUT_WR)`, `nc -N`, a pipe into `socat`): it is
    /// no longer watched for reading (its end of stream would wake the loop again and again). An events
    /// client goes on getting events until it has gone; a control client is closed once what it asked
    /// for is answered and sent.
    func endRequests(_ client: EventSocketClient, token: UInt64) {
        client.requestsEnded = true
        if client.isControl { client.closesWhenSent = true }
        do { try watch.watch(client.socket.descriptor, read: false, write: client.hasPending, token: token) } catch {
            close(token)
            return
        }
        flush(client, token: token)
    }

    /// Sends what `client` takes now; watches it for writing while more waits; closes it when it has
    /// gone, or when it is to be closed and has nothing more coming.
    func flush(_ client: EventSocketClient, token: UInt64) {
        guard client.greeted else { return }  // sent at the end of the wakeup, after its greeting
        do {
            try client.send()
            if client.closesWhenSent, !client.hasPending, !client.awaitsAnswer {
                close(token)
                return
            }
            try watch.watch(client.socket.descriptor, read: !client.requestsEnded, write: client.hasPending, token: token)
        } catch {
            close(token)
        }
    }

    func close(_ token: UInt64) {
        guard let client = clients.removeValue(forKey: token) else { return }
        watch.remove(client.socket.descriptor)
        client.socket.close()
        logger.debug("events socket: a client left (\(clients.count) connected)")
        resumeListening()
    }
}
