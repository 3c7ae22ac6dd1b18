#if canImport(Glibc)
import Glibc
#endif
import DebounceCore
import EventLoop
import InputModel
import Inputs
import LineInput
import LinuxSys
import Logging
import Pipeline
import Simulation
import Testing

@testable import EventSocket

/// The sink with real sockets: what a client gets on connecting, live, after a subscription, when it
/// reads too slowly, and at the end; driven as the loop drives it (`descriptorReady`, `consume`).
@Suite struct EventSocketSinkTests {
    static let bell = ButtonPresenter(name: "bell", input: 0, chip: "sim", line: 17, lineIndex: 0, gestures: [.press])
    static let door = ButtonPresenter(name: "door", input: 1, chip: "sim", line: 18, lineIndex: 1, gestures: [.press])

    /// A sink on a socket of its own, removed with it.
    static func sink(_ presenters: [any InputPresenter] = [bell, door]) throws -> EventSocketSink {
        let place = try EventSocketSink.simulationPath()
        return try EventSocketSink(path: place.path, ownDirectory: place.directory, inputs: presenters, version: "test", logger: Logger(label: "test"))
    }

    static func press(_ input: Int, atNs timeNs: Int64) -> PipelineOutput {
        .event(OutputSource(input: input, line: input), ButtonEvent(kind: .press, timeNs: timeNs, onsetNs: timeNs))
    }

    static func release(_ input: Int, atNs timeNs: Int64) -> PipelineOutput {
        .event(OutputSource(input: input, line: input), ButtonEvent(kind: .release, timeNs: timeNs, onsetNs: timeNs))
    }

    /// Connects a client and lets the sink take it in, in a wakeup at `nowNs` (its greeting is sent at the wakeup's end).
    static func connect(_ sink: EventSocketSink, atNs nowNs: Int64 = 10) throws -> EventSocketConnection {
        let connection = try EventSocketConnection(path: sink.path)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        try sink.advance(toNs: nowNs)
        return connection
    }

    static func next(_ connection: EventSocketConnection) throws -> String {
        String(decoding: try connection.nextLine() ?? [], as: UTF8.self)
    }

    @Test func aClientGetsHelloTheSnapshotThenEachEventAndStateInOrder() throws {
        let sink = try Self.sink()
        sink.start(linesPressed: [false, true], levels: [.high, .low], atNs: 10)
        let client = try Self.connect(sink)
        #expect(try Self.next(client).hasPrefix(#"{"event":"hello","version":"test","pid":"#))
        #expect(try Self.next(client) == #"{"event":"state","input":"bell","kind":"button","available":true,"state":"released","time_ns":10,"snapshot":true}"#)
        #expect(try Self.next(client) == #"{"event":"state","input":"door","kind":"button","available":true,"state":"pressed","time_ns":10,"snapshot":true}"#)
        try sink.consume(Self.press(0, atNs: 20), nowNs: 21)
        try sink.advance(toNs: 21)
        #expect(try Self.next(client) == #"{"event":"press","time_ns":20,"onset_ns":20,"button":"bell","chip":"sim","line":17,"input":"bell","kind":"button","seq":1}"#)
        #expect(try Self.next(client) == #"{"event":"state","input":"bell","kind":"button","available":true,"state":"pressed","time_ns":21,"seq":2}"#)
        sink.availabilityChanged(ChipAvailability(chip: "sim", lines: [1], isAvailable: false), atNs: 30)
        try sink.advance(toNs: 30)
        #expect(try Self.next(client).contains(#""input":"door","kind":"button","available":false"#))
        try sink.finish(atNs: 40)
        #expect(try client.nextLine() == nil, "the stream ends with the run")
    }

    @Test func aLaterClientsSnapshotIsTheStateNowWithNoSequenceOfItsOwn() throws {
        let sink = try Self.sink()
        sink.start(linesPressed: [false, false], levels: [.high, .high], atNs: 0)
        try sink.consume(Self.press(1, atNs: 5), nowNs: 5)
        let client = try Self.connect(sink)
        #expect(try Self.next(client).contains(#""sequence":0,"inputs":2"#), "nobody listened: no line was numbered")
        _ = try Self.next(client)
        #expect(try Self.next(client).contains(#""input":"door","kind":"button","available":true,"state":"pressed""#))
    }

    /// A client accepted in a wakeup is greeted at its end, at its time: `hello`, then the states after
    /// that wakeup's events (which it is not sent), then the live lines after them.
    @Test func aClientIsGreetedAtTheEndOfItsWakeupWithTheStateAfterItsEvents() throws {
        let sink = try Self.sink()
        sink.start(linesPressed: [false, false], levels: [.high, .high], atNs: 0)
        let first = try Self.connect(sink, atNs: 1)
        let second = try EventSocketConnection(path: sink.path)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        try sink.consume(Self.press(0, atNs: 20), nowNs: 21)
        try sink.advance(toNs: 21)
        #expect(try Self.next(second).hasSuffix(#""sequence":2,"inputs":2,"time_ns":21}"#), "after the press and its state, at the wakeup's time")
        #expect(try Self.next(second) == #"{"event":"state","input":"bell","kind":"button","available":true,"state":"pressed","time_ns":21,"snapshot":true}"#)
        _ = try Self.next(second)
        try sink.consume(Self.release(0, atNs: 30), nowNs: 30)
        try sink.advance(toNs: 30)
        #expect(try Self.next(second).hasPrefix(#"{"event":"release","time_ns":30"#) && (try Self.next(second)).contains(#""seq":4"#))
        for _ in 0..<3 { _ = try Self.next(first) }
        #expect(try Self.next(first).contains(#""event":"press""#), "the client of before got the press")
    }

    @Test func aSubscriptionKeepsOnlyItsInputsAndEvents() throws {
        let sink = try Self.sink()
        sink.start(linesPressed: [false, false], levels: [.high, .high], atNs: 0)
        let client = try Self.connect(sink)
        for _ in 0..<3 { _ = try Self.next(client) }
        try client.send(#"{"request":"subscribe","inputs":["door"],"events":["release"]}"#)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        try sink.consume(Self.press(0, atNs: 1), nowNs: 1)
        try sink.consume(Self.press(1, atNs: 2), nowNs: 2)
        try sink.consume(Self.release(1, atNs: 3), nowNs: 3)
        try sink.advance(toNs: 3)
        let line = try Self.next(client)
        #expect(line.hasPrefix(#"{"event":"release","time_ns":3"#) && line.hasSuffix(#""seq":5}"#), "\(line)")
        try client.send(#"{"request":"subscribe","inputs":["window"]}"#)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        #expect(try Self.next(client) == #"{"event":"error","message":"no input named \"window\": the inputs are bell, door"}"#)
    }

    /// A client that reads what is there without waiting.
    final class Reader {
        let socket: OwnedDescriptor
        private var partial: [UInt8] = []
        private(set) var lines: [String] = []

        init(_ sink: EventSocketSink) throws {
            socket = try UnixSocket.connect(to: sink.path)
            _ = fcntl(socket.descriptor.rawValue, F_SETFL, O_NONBLOCK)
            sink.descriptorReady(0, events: PollEvents(rawValue: 1))
            try sink.advance(toNs: 0)
        }

        /// Reads all that is there now: whether anything was.
        @discardableResult
        func drain() throws -> Bool {
            var buffer = [UInt8](repeating: 0, count: 65536)
            var any = false
            while let count = try buffer.withUnsafeMutableBytes({ try UnixSocket.receive($0, from: socket.descriptor) }), count > 0 {
                any = true
                for byte in buffer[..<count] {
                    if byte == UInt8(ascii: "\n") {
                        lines.append(String(decoding: partial, as: UTF8.self))
                        partial.removeAll()
                    } else {
                        partial.append(byte)
                    }
                }
            }
            return any
        }

        /// The sequence numbers of its live lines.
        var numbers: [Int] { lines.compactMap(Self.number) }

        /// A live line's sequence number.
        static func number(_ line: String) -> Int? { line.split(separator: "\"seq\":").dropFirst().last.flatMap { Int($0.dropLast()) } }

        /// Sends a request line.
        func send(_ request: String) throws {
            let bytes = Array((request + "\n").utf8)
            _ = try bytes.withUnsafeBytes { try UnixSocket.send($0, to: socket.descriptor) }
        }
    }

    /// Lets the sink send what waits and the readers read it, until neither has more.
    static func pump(_ sink: EventSocketSink, _ readers: [Reader]) throws {
        var moved = true
        while moved {
            sink.descriptorReady(0, events: PollEvents(rawValue: 1))
            moved = false
            for reader in readers where try reader.drain() { moved = true }
        }
    }

    @Test func aClientThatDoesNotReadLosesWhatDoesNotFitAndIsToldHowMuchWhileTheOthersGetEverything() throws {
        let sink = try Self.sink()
        sink.start(linesPressed: [false, false], levels: [.high, .high], atNs: 0)
        let slow = try Reader(sink)
        let readers = try (0..<10).map { _ in try Reader(sink) }
        // 5,000 presses and releases (20,000 lines with their states): far more than the slow client's
        // queue and socket buffer hold; the others read as they come.
        for index in 0..<5_000 {
            let timeNs = Int64(index) * 2
            try sink.consume(Self.press(index % 2, atNs: timeNs), nowNs: timeNs)
            try sink.consume(Self.release(index % 2, atNs: timeNs + 1), nowNs: timeNs + 1)
            try sink.advance(toNs: timeNs + 1)
            if index % 50 == 49 { try Self.pump(sink, readers) }
        }
        try Self.pump(sink, readers)
        for reader in readers {
            #expect(reader.lines.count == 3 + 20_000, "hello, 2 states, then every line")
            #expect(reader.numbers == Array(1...20_000), "every line, in order")
        }
        // The slow one reads at last: what fitted, one `lost` with the count of what did not, then what came after.
        try Self.pump(sink, [slow])
        try sink.consume(Self.press(0, atNs: 50_000), nowNs: 50_000)
        try sink.advance(toNs: 50_000)
        try Self.pump(sink, [slow])
        let lost = slow.lines.filter { $0.hasPrefix(#"{"event":"lost""#) }
        #expect(lost.count == 1)
        let lostCount = lost.first.flatMap { Int($0.split(separator: ":").last?.dropLast() ?? "") } ?? 0
        #expect(slow.numbers.count + lostCount == 20_002, "every line sent or counted lost: \(slow.numbers.count) + \(lostCount)")
        #expect(slow.numbers == slow.numbers.sorted() && Set(slow.numbers).count == slow.numbers.count, "in order, none twice")
        #expect(slow.numbers.last == 20_002 && slow.lines.last?.hasPrefix(#"{"event":"state""#) == true, "the newest came after the loss")
        #expect(slow.lines.count < 3000, "its queue is bounded (\(slow.lines.count) lines)")
    }

    /// Property, over random streams of events, subscriptions and reading schedules (seeded): every
    /// client's live lines are the daemon's lines of its inputs, in order, none twice, and what it did
    /// not get is exactly what its `lost` lines count.
    @Test(arguments: 1...12)
    func everyClientGetsItsInputsLinesInOrderOrIsToldHowManyItLost(seed: Int) throws {
        var random = SplitMix64(seed: UInt64(seed))
        let sink = try Self.sink()
        sink.start(linesPressed: [false, false], levels: [.high, .high], atNs: 0)
        let truth = try Reader(sink)
        let names = ["bell", "door"]
        var clients: [(reader: Reader, inputs: Set<String>, readsOneIn: Int)] = []
        for _ in 0..<4 {
            let reader = try Reader(sink)
            let inputs: Set<String> = Bool.random(using: &random) ? Set(names) : [names[Int.random(in: 0...1, using: &random)]]
            try reader.send(EventSocketRequest.subscribe(inputs: inputs, events: nil).line)
            clients.append((reader, inputs, [1, 3, 40, 10_000][Int.random(in: 0...3, using: &random)]))
        }
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        var pressed = [false, false]
        let events = Int.random(in: 500...6_000, using: &random)
        for index in 0..<events {
            let input = Int.random(in: 0...1, using: &random)
            let timeNs = Int64(index) * 10
            try sink.consume(pressed[input] ? Self.release(input, atNs: timeNs) : Self.press(input, atNs: timeNs), nowNs: timeNs)
            pressed[input].toggle()
            if Int.random(in: 0..<4, using: &random) == 0 || index == events - 1 {
                try sink.advance(toNs: timeNs)
                try Self.pump(sink, [truth])
                for client in clients where Int.random(in: 0..<client.readsOneIn, using: &random) == 0 { try client.reader.drain() }
            }
        }
        try Self.pump(sink, [truth] + clients.map(\.reader))
        #expect(truth.numbers == Array(1...(events * 2)), "the reader that keeps up got every line")
        let inputOf = Dictionary(uniqueKeysWithValues: truth.lines.compactMap { line in
            Reader.number(line).map { ($0, names.first { line.contains(#""input":"\#($0)""#) } ?? "") }
        })
        for client in clients {
            let expected = truth.numbers.filter { client.inputs.contains(inputOf[$0] ?? "") }
            let got = client.reader.numbers
            let lost = client.reader.lines.filter { $0.hasPrefix(#"{"event":"lost""#) }.compactMap { Int($0.split(separator: ":").last?.dropLast() ?? "") }
            var remaining = got[...]
            for number in expected where remaining.first == number { remaining = remaining.dropFirst() }
            #expect(remaining.isEmpty, "seed \(seed): its lines are the daemon's of its inputs, in order")
            #expect(got.count + lost.reduce(0, +) == expected.count, "seed \(seed): \(got.count) got + \(lost) lost = \(expected.count)")
            if client.readsOneIn == 1 { #expect(lost.isEmpty && got == expected, "seed \(seed): a client that keeps up loses nothing") }
        }
    }

    /// A keypad's entered code: the line `run` prints (its length, never the code), with the code only
    /// where the keypad publishes it (`publish_code: true`), as MQTT has it.
    @Test(arguments: [false, true])
    func aCodeGoesOutOnlyWhereTheKeypadPublishesIt(publishes: Bool) throws {
        let pad = KeypadPresenter(
            name: "pad", input: 0, keys: ["1", "2", "#"], lineIndices: [0, 1, 2], collectsCodes: true, publishesCode: publishes, namesKey: { $0 == "#" })
        let sink = try Self.sink([pad])
        sink.start(linesPressed: [false, false, false], levels: [.high, .high, .high], atNs: 0)
        let client = try Self.connect(sink)
        for _ in 0..<2 { _ = try Self.next(client) }
        try sink.consume(code: EnteredCode(code: "12", timeNs: 50), of: OutputSource(input: 0, line: 2), nowNs: 51)
        try sink.advance(toNs: 51)
        let code = publishes ? #","code":"12""# : ""
        #expect(try Self.next(client) == #"{"event":"code","length":2,"time_ns":50,"keypad":"pad"\#(code),"input":"pad","kind":"keypad","seq":1}"#)
    }

    /// A client of the control socket gets its `hello` and the answers it asks for, no events; the
    /// events socket refuses the control socket's requests, saying where to ask.
    @Test func theControlSocketAnswersAndSendsNoEvents() throws {
        let sink = try Self.sink()
        sink.start(linesPressed: [false, false], levels: [.high, .high], atNs: 0)
        let control = try EventSocketConnection(path: sink.controlPath)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        try sink.advance(toNs: 5)
        #expect(try Self.next(control).hasPrefix(#"{"event":"hello""#))
        let reader = try Self.connect(sink)
        for _ in 0..<3 { _ = try Self.next(reader) }
        try reader.send(#"{"request":"reload"}"#)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        #expect(try Self.next(reader) == #"{"event":"error","message":"reload, reset and health are asked on the control socket \#(sink.controlPath), which only the daemon's user and root may open"}"#)
        try sink.consume(Self.press(0, atNs: 20), nowNs: 21)
        try control.send(#"{"request":"health"}"#)
        sink.descriptorReady(0, events: PollEvents(rawValue: 1))
        try sink.advance(toNs: 21)
        #expect(sink.inspectionDueNs != nil, "the health request waits for the stages")
        #expect(try Self.next(reader).hasPrefix(#"{"event":"press""#))
        let plan = LinePlan(debounce: DebounceConfiguration(both: .defer(windowNs: 10_000_000)))
        sink.inspect(ButtonPipeline(plans: [plan, plan], initialLevels: [.high, .high], atNs: 0), atNs: 22)
        #expect(try Self.next(control).hasPrefix(#"{"event":"status","input":"bell""#), "its answer, and not the press before it")
        #expect(try Self.next(control).hasPrefix(#"{"event":"status","input":"door""#))
        #expect(try Self.next(control) == #"{"event":"status_end","inputs":2}"#)
        try sink.finish(atNs: 30)
        #expect(try control.nextLine() == nil)
    }
}
