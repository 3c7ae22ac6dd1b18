import EventOutput

/// The lines of the events socket's protocol, each one JSON object and a newline (docs/socket.md).
enum EventSocketLine {
    /// `{"event":"hello","version":"0.5.0","pid":812,"sequence":41,"inputs":3,"time_ns":…}`: the first
    /// line a client gets; `sequence` is the last live line's number so far, `inputs` how many state
    /// lines (the snapshot) follow.
    static func hello(version: String, pid: Int32, sequence: Int, inputs: Int, timeNs: Int64) -> [UInt8] {
        line(#"{"event":"hello","version":\#(JSONText.quoted(version)),"pid":\#(pid),"sequence":\#(sequence),"inputs":\#(inputs),"time_ns":\#(timeNs)}"#)
    }

    /// An input's state: `{"event":"state","input":"door","kind":"sensor","available":true,"state":"on",…}`,
    /// each of its state channels by name (a word as a JSON string, a number or object as it is), then
    /// `"snapshot":true` for a line of a snapshot, or the live line's `seq`.
    static func state(_ input: EventSocketInput, timeNs: Int64, seq: Int?) -> [UInt8] {
        var bytes = fields(of: input, event: #"{"event":"state""#, timeNs: timeNs)
        if let seq {
            bytes += #","seq":"#.utf8
            appendDecimal(Int64(seq), to: &bytes)
            bytes += "}\n".utf8
        } else {
            bytes += #","snapshot":true}"#.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// An event as `run --format json` prints it (`payload`, one JSON object), with `fields`, the
    /// input's name and kind and the live line's `seq` added at its end.
    static func event(_ payload: ArraySlice<UInt8>, of input: EventSocketInput, adding fields: [(String, JSONValue)] = [], seq: Int) -> [UInt8] {
        guard payload.last == UInt8(ascii: "}"), payload.count > 2 else { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + input.identity.count + 24)
        bytes += payload[payload.startIndex..<payload.endIndex - 1]  // not dropLast(): Sequence's, a copy through a ring buffer
        for (key, value) in fields { bytes += ",\(JSONText.quoted(key)):\(value.text)".utf8 }
        bytes += input.identity
        bytes += #","seq":"#.utf8
        appendDecimal(Int64(seq), to: &bytes)
        bytes += "}\n".utf8
        return bytes
    }

    /// The name of the event `payload` is (`{"event":"press",…`), for a client's subscription.
    static func eventName(_ payload: some Collection<UInt8>) -> String {
        let prefix = Array(#"{"event":""#.utf8)
        guard payload.starts(with: prefix) else { return "" }
        let name = payload.dropFirst(prefix.count).prefix { $0 != UInt8(ascii: "\"") }
        return String(decoding: name, as: UTF8.self)
    }

    /// `{"event":"lost","count":N}`: N lines did not fit in a client's queue and were not sent to it.
    static func lost(_ count: Int) -> [UInt8] { line(#"{"event":"lost","count":\#(count)}"#) }

    /// `{"event":"reload_refused","message":"…"}`: the answer to a reload the configuration refused;
    /// the daemon goes on with the one it had.
    static func reloadRefused(_ message: String) -> [UInt8] { line(#"{"event":"reload_refused","message":\#(JSONText.quoted(message))}"#) }

    /// `{"event":"error","message":"…"}`: a request the daemon could not take, and why.
    static func error(_ message: String) -> [UInt8] { line(#"{"event":"error","message":\#(JSONText.quoted(message))}"#) }

    /// The answer to a request the daemon did not carry out because it is stopping.
    static func stopping(_ message: String) -> [UInt8] { line(#"{"event":"stopping","message":\#(JSONText.quoted(message))}"#) }

    /// `{"event":"reloaded","added":[…],"removed":[…],"seq":N}`: the daemon read its configuration again.
    static func reloaded(added: [String], removed: [String], seq: Int) -> [UInt8] {
        let list = { (names: [String]) in "[" + names.map(JSONText.quoted).joined(separator: ",") + "]" }
        return line(#"{"event":"reloaded","added":\#(list(added)),"removed":\#(list(removed)),"seq":\#(seq)}"#)
    }

    /// An input in a status answer: its state line's fields, then its health (`InputHealth.json`).
    static func status(_ input: EventSocketInput, health: [UInt8], timeNs: Int64) -> [UInt8] {
        fields(of: input, event: #"{"event":"status""#, timeNs: timeNs) + #","health":"#.utf8 + health + "}\n".utf8
    }

    /// An input's state line up to its time, without the closing brace: `event` (its opening), the
    /// input's name and kind, availability and states, `time_ns`.
    private static func fields(of input: EventSocketInput, event: String, timeNs: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160)
        bytes += event.utf8
        bytes += input.identity
        bytes += (input.isAvailable ? #","available":true"# : #","available":false"#).utf8
        input.appendStates(to: &bytes)
        bytes += #","time_ns":"#.utf8
        appendDecimal(timeNs, to: &bytes)
        return bytes
    }

    /// Appends `value` in decimal.
    private static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    /// `{"event":"status_end","inputs":N}`: the status answer is complete.
    static func statusEnd(inputs: Int) -> [UInt8] { line(#"{"event":"status_end","inputs":\#(inputs)}"#) }

    private static func line(_ text: String) -> [UInt8] { Array(text.utf8) + [UInt8(ascii: "\n")] }
}
