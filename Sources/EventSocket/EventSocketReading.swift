#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import EventOutput

/// What `gpio-debounce events` and `status` do with the events socket, apart from their options.
package enum EventSocketReading {
    /// How long `follow` waits before connecting again: from 0.25 s, doubling to 5 s.
    static let firstRetryNs: Int64 = 250_000_000
    static let longestRetryNs: Int64 = 5_000_000_000

    /// Reads the daemon's lines at `path` and hands each to `print` (JSON as it came, or text,
    /// `EventSocketText.line`): the snapshot, then live lines; only `inputs`' when given. Stops after
    /// `limit` live lines, or at the end of the stream; with `follow`, connects again after the stream
    /// ends or while no daemon listens (waiting, with a note to `note` each time) and prints a fresh
    /// snapshot. Throws when the socket cannot be read (without `follow`: when no daemon listens).
    package static func follow(
        path: String, inputs: [String], json: Bool, follow: Bool, limit: Int?, print: (String) -> Void, note: (String) -> Void
    ) throws(EventSocketConnection.Failure) {
        var live = 0
        var retryNs = firstRetryNs
        while true {
            let connection: EventSocketConnection
            do {
                connection = try EventSocketConnection(path: path)
            } catch {
                guard follow, case .noDaemon = error else { throw error }
                note("\(error); trying again in \(retryNs / 1_000_000) ms")
                pause(retryNs)
                retryNs = min(retryNs * 2, longestRetryNs)
                continue
            }
            retryNs = firstRetryNs
            if !inputs.isEmpty {
                try connection.send(EventSocketRequest.subscribe(inputs: Set(inputs), events: nil).line)
            }
            while let line = try connection.nextLine() {
                let event = EventSocketLine.eventName(line)
                if event == "hello" { continue }
                if event == "error" {
                    throw .refused(message(of: line))
                }
                // The snapshot comes before the subscription is read: its other inputs' lines are left out here.
                if !inputs.isEmpty, !isLive(line), let input = EventSocketText.fields(line)?.first(where: { $0.key == "input" })?.value, !inputs.contains(input) {
                    continue
                }
                print(json ? String(decoding: line, as: UTF8.self) : EventSocketText.line(line) ?? String(decoding: line, as: UTF8.self))
                if isLive(line) {
                    live += 1
                    if let limit, live >= limit { return }
                }
            }
            guard follow else { return }
            note("the daemon's stream ended (it stopped or restarted); connecting again")
        }
    }

    /// Asks the daemon at `path` for every input's state and health: the `status` lines, in its order.
    package static func status(path: String) throws(EventSocketConnection.Failure) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        return try ask(.status, at: path) { event, line in
            if event == "status" { lines.append(line) }
            return event == "status_end" ? lines : nil
        }
    }

    /// Asks the daemon whose control socket is at `path` to read its configuration again (as SIGHUP)
    /// and waits for the answer: the `reloaded` line (the inputs added and removed). Throws `refused`
    /// with the configuration's error when the daemon refused it (it goes on as it was).
    package static func reload(controlPath path: String) throws(EventSocketConnection.Failure) -> [UInt8] {
        try ask(.reload, at: path) { event, line throws(EventSocketConnection.Failure) in
            switch event {
            case "reloaded": return line
            case "reload_refused", "error": throw .refused(message(of: line))
            default: return nil
            }
        }
    }

    /// Asks the daemon whose control socket is at `path` to set input `input`'s value to `value` (nil:
    /// its own reset value) and waits for the answer: the `reset` event it made. Throws `refused` with
    /// the daemon's reason (no such input, nothing to reset), `stopping` when it was stopping.
    package static func reset(controlPath path: String, input: String, to value: Int64?) throws(EventSocketConnection.Failure) -> [UInt8] {
        try ask(.reset(input: input, to: value), at: path) { event, line throws(EventSocketConnection.Failure) in
            switch event {
            case "reset": return line
            case "error": throw .refused(message(of: line))
            case "stopping": throw .stopping(message(of: line))
            default: return nil
            }
        }
    }

    /// Connects to the socket at `path`, sends `request` and reads lines until `answer`, given each
    /// line's `event` name and the line, returns what was awaited (nil: read on) or throws.
    /// Throws `ended` when the daemon closes the connection first.
    private static func ask<Answer>(
        _ request: EventSocketRequest, at path: String,
        _ answer: (_ event: String, _ line: [UInt8]) throws(EventSocketConnection.Failure) -> Answer?
    ) throws(EventSocketConnection.Failure) -> Answer {
        let connection = try EventSocketConnection(path: path)
        try connection.send(request.line)
        while let line = try connection.nextLine() {
            if let awaited = try answer(EventSocketLine.eventName(line), line) { return awaited }
        }
        throw .ended(path)
    }

    /// An `error` or refusal line's `message`, or the whole line when it has none.
    static func message(of line: [UInt8]) -> String {
        EventSocketText.fields(line)?.first { $0.key == "message" }?.value ?? String(decoding: line, as: UTF8.self)
    }

    /// Whether `line` is a live line (it has a `seq`), not a snapshot's.
    static func isLive(_ line: [UInt8]) -> Bool {
        let key = Array(#","seq":"#.utf8)
        return line.indices.contains { line[$0...].starts(with: key) }
    }

    private static func pause(_ nanoseconds: Int64) {
        var time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&time, &remaining) != 0, errno == EINTR { time = remaining }
    }
}
