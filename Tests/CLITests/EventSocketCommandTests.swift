import EventSocket
import Foundation
import Testing

/// The events socket as a user meets it: `run` (simulated, in real time) listening on it, `events` and
/// `status` reading it, a reload and a restart with clients connected, and the errors of a socket that
/// is not there.
@Suite struct EventSocketCommandTests {
    static let configuration = """
        buttons:
          - {name: bell, line: GPIO5}
        sensors:
          - {name: door, line: GPIO23}
        selectors:
          - {name: mode, lines: [GPIO6, GPIO13, GPIO19], positions: [off, auto, on]}
        """

    /// A configuration file and a socket path of the test's own.
    final class Place {
        let config = RecordAnalyzeTests.temporaryPath(".yaml")
        let socket = RecordAnalyzeTests.temporaryPath(".sock")

        init(_ text: String = EventSocketCommandTests.configuration) throws {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: config)
            try? FileManager.default.removeItem(atPath: socket)
        }

        /// `run --simulate` of the configuration, listening on the socket; returned once it listens.
        func daemon(_ extra: [String] = []) throws -> ReloadTests.Running {
            let run = try ReloadTests.Running(["run", "--config", config, "--simulate", "--format", "json", "--socket", socket, "--seed", "4"] + extra)
            #expect(run.wait { _ in FileManager.default.fileExists(atPath: self.socket) }, "\(run.stderr)")
            return run
        }
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    static func sequence(_ line: String) -> Int? {
        guard let range = line.range(of: "\"seq\":") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func eventsPrintsEveryInputsStateThenWhatRunPrintsInOrder() throws {
        let place = try Place()
        let run = try place.daemon()
        let result = try CLITests.run(["events", "--socket", place.socket, "--format", "json", "-n", "8"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.lines(result.stdout)
        // The snapshot: each input once, in the configuration's order, then 8 live lines numbered one after another.
        #expect(lines.prefix(3).map { $0.contains("\"snapshot\":true") } == [true, true, true])
        #expect(lines.prefix(3).map { $0.contains("\"input\":\"bell\"") || $0.contains("\"input\":\"door\"") || $0.contains("\"input\":\"mode\"") } == [true, true, true])
        let live = lines.dropFirst(3)
        #expect(live.count == 8)
        let numbers = live.compactMap(Self.sequence)
        #expect(numbers.count == 8 && zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(numbers)")
        run.signal(SIGTERM)
        run.process.waitUntilExit()
        // Each event is the line `run` printed, with the input's name, kind and number added.
        let printed = Set(Self.lines(run.stdout))
        for line in live where !line.hasPrefix(#"{"event":"state""#) {
            let added = try #require(line.range(of: #","input":"#))
            let original = String(line[..<added.lowerBound]) + "}"
            #expect(printed.contains(original), "\(line) was not printed by run")
        }
        #expect(!FileManager.default.fileExists(atPath: place.socket), "the socket goes with the run")
    }

    @Test func statusPrintsATableOfEveryInputAndJSONOnRequest() throws {
        let place = try Place()
        let run = try place.daemon()
        let table = try CLITests.run(["status", "--socket", place.socket])
        #expect(table.status == 0, "\(table.stderr)")
        let rows = Self.lines(table.stdout)
        #expect(rows.first?.hasPrefix("INPUT") == true)
        #expect(rows.dropFirst().map { String($0.prefix { $0 != " " }) } == ["bell", "door", "mode"], "\(table.stdout)")
        let json = try CLITests.run(["status", "--socket", place.socket, "--format", "json"])
        #expect(Self.lines(json.stdout).count == 3)
        #expect(Self.lines(json.stdout).allSatisfy { $0.hasPrefix(#"{"event":"status""#) && $0.contains(#""health":{"edges":"#) }, "\(json.stdout)")
        run.signal(SIGTERM)
        run.process.waitUntilExit()
    }

    @Test func anInputOptionKeepsOnlyThatInputAndAnUnknownOneIsRefused() throws {
        let place = try Place()
        let run = try place.daemon()
        let mode = try CLITests.run(["events", "--socket", place.socket, "--input", "door", "-n", "2", "--format", "json"])
        #expect(mode.status == 0)
        #expect(Self.lines(mode.stdout).allSatisfy { $0.contains(#""input":"door""#) }, "\(mode.stdout)")
        let unknown = try CLITests.run(["events", "--socket", place.socket, "--input", "window"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains(#"no input named \"window\": the inputs are bell, door, mode"#) || unknown.stderr.contains("no input named \"window\""), "\(unknown.stderr)")
        run.signal(SIGTERM)
        run.process.waitUntilExit()
    }

    @Test func withNoDaemonTheClientsSayWhatToDoAndExit69() throws {
        let missing = RecordAnalyzeTests.temporaryPath(".sock")
        for command in [["status"], ["events"]] {
            let result = try CLITests.run(command + ["--socket", missing])
            #expect(result.status == 69)
            #expect(result.stderr.contains("no gpio-debounce run listens on \(missing): start it"), "\(result.stderr)")
        }
    }

    @Test
    func aClientStaysThroughAReloadAndFollowsARestart() throws {
        let place = try Place()
        var run = try place.daemon()
        let events = try ReloadTests.Running(["events", "--socket", place.socket, "--format", "json", "--follow"])
        #expect(events.wait { Self.lines($0.stdout).count >= 4 })
        try """
            buttons:
              - {name: bell, line: GPIO5}
            counters:
              - {name: meter, line: GPIO24}
            """.write(toFile: place.config, atomically: true, encoding: .utf8)
        run.signal(SIGHUP)
        #expect(events.wait { $0.stdout.contains(#"{"event":"reloaded","added":["meter"],"removed":["door","mode"]"#) }, "\(events.stdout)")
        #expect(events.wait { $0.stdout.contains(#""input":"meter","kind":"counter""#) }, "the added input's state follows")
        run.signal(SIGTERM)
        run.process.waitUntilExit()
        #expect(events.wait { $0.stderr.contains("connecting again") }, "\(events.stderr)")
        let before = Self.lines(events.stdout).count
        run = try place.daemon()
        // A fresh snapshot from the new daemon, its numbers starting again.
        #expect(events.wait { Self.lines($0.stdout).dropFirst(before).filter { $0.contains("\"snapshot\":true") }.count == 2 }, "\(events.stdout)")
        #expect(events.process.isRunning, "--follow goes on")
        run.signal(SIGTERM)
        run.process.waitUntilExit()
        events.signal(SIGTERM)
        events.process.waitUntilExit()
    }

    @Test func aSimulationListensInADirectoryOfItsOwnRemovedAtTheStop() throws {
        let place = try Place()
        let run = try ReloadTests.Running(["run", "--config", place.config, "--simulate", "--presses", "1"])
        #expect(run.wait { $0.stderr.contains("a simulation listens on") })
        run.process.waitUntilExit()
        let said = try #require(run.stderr.range(of: "a simulation listens on "))
        let path = String(run.stderr[said.upperBound...].prefix { $0 != " " })
        #expect(path.hasSuffix("/events.sock") && path.contains("gpio-debounce-socket."), "\(path)")
        #expect(!FileManager.default.fileExists(atPath: (path as NSString).deletingLastPathComponent), "removed with the run")
    }

    /// A reload that turns the socket off (`socket: {enabled: false}`) is answered, and told to the
    /// events clients, before the socket goes: `reload` exits 0, not "stopped before it answered".
    @Test func aReloadThatTurnsTheSocketOffIsAnsweredBeforeItGoes() throws {
        let place = try Place()
        let run = try ReloadTests.Running(["run", "--config", place.config, "--simulate", "--seed", "4"])
        #expect(run.wait { $0.stderr.contains("a simulation listens on") }, "\(run.stderr)")
        let said = try #require(run.stderr.range(of: "a simulation listens on "))
        let path = String(run.stderr[said.upperBound...].prefix { $0 != " " })
        let events = try ReloadTests.Running(["events", "--socket", path, "--format", "json"])
        #expect(events.wait { $0.stdout.contains(#""snapshot":true"#) }, "\(events.stderr)")
        try (Self.configuration + "\nsocket: {enabled: false}\n").write(toFile: place.config, atomically: true, encoding: .utf8)
        let reloaded = try CLITests.run(["reload", "--socket", path])
        #expect(reloaded.status == 0, "\(reloaded.stderr)")
        #expect(reloaded.stdout == "reloaded: no input added or removed\n")
        events.process.waitUntilExit()
        #expect(events.stdout.contains(#"{"event":"reloaded","added":[],"removed":[],"#), "\(events.stdout)")
        #expect(!FileManager.default.fileExists(atPath: path))
        run.signal(SIGTERM)
        run.process.waitUntilExit()
        #expect(run.process.terminationStatus == 0)
    }

    @Test func aSocketInUseIsRefusedWithWhatToDo() throws {
        let place = try Place()
        let run = try place.daemon()
        let second = try CLITests.run(["run", "--config", place.config, "--simulate", "--presses", "0", "--socket", place.socket])
        #expect(second.status == 75)
        #expect(second.stderr.contains("another gpio-debounce run listens on \(place.socket)"), "\(second.stderr)")
        run.signal(SIGTERM)
        run.process.waitUntilExit()
        #expect(run.process.terminationStatus == 0)
    }

    @Test func aSocketPathTooLongForUnixIsRefusedWithItsLength() throws {
        let place = try Place()
        let long = "/tmp/" + String(repeating: "d", count: 100) + "/events.sock"
        let result = try CLITests.run(["run", "--config", place.config, "--simulate", "--presses", "0", "--socket", long])
        #expect(result.status == 64)
        #expect(result.stderr.contains("the events socket's path \(long) has 117 bytes, and a Unix socket's has at most 107"), "\(result.stderr)")
    }

    /// `reload` through the control socket (0600, beside the events socket): what was added and removed,
    /// a file that does not load, or cannot run here, refused with its error (65) while the daemon goes on.
    @Test func reloadSaysWhatChangedAndARefusalExits65() throws {
        let place = try Place()
        let run = try place.daemon()
        let control = (place.socket as NSString).deletingPathExtension + "-control.sock"
        let mode = try FileManager.default.attributesOfItem(atPath: control)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the control socket is the daemon's user's alone")
        try """
            buttons:
              - {name: bell, line: GPIO5}
            counters:
              - {name: meter, line: GPIO24}
            """.write(toFile: place.config, atomically: true, encoding: .utf8)
        let reloaded = try CLITests.run(["reload", "--socket", place.socket])
        #expect(reloaded.status == 0, "\(reloaded.stderr)")
        #expect(reloaded.stdout == "reloaded: added meter; removed door, mode\n")
        try "buttons: [".write(toFile: place.config, atomically: true, encoding: .utf8)
        let refused = try CLITests.run(["reload", "--socket", place.socket])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("reload refused, the daemon goes on with the configuration it had: \(place.config):"), "\(refused.stderr)")
        #expect(run.process.isRunning)
        // A file that loads but cannot run here (its MQTT password file is missing): refused as well.
        try "buttons:\n  - {name: bell, line: GPIO5}\nmqtt: {url: mqtt://localhost, username: u, password_file: /nonexistent/pw}\n"
            .write(toFile: place.config, atomically: true, encoding: .utf8)
        let unreadable = try CLITests.run(["reload", "--socket", place.socket])
        #expect(unreadable.status == 65)
        #expect(unreadable.stderr.contains("cannot read the MQTT password file /nonexistent/pw"), "\(unreadable.stderr)")
        let status = try CLITests.run(["status", "--socket", place.socket])
        #expect(Self.lines(status.stdout).dropFirst().map { String($0.prefix { $0 != " " }) } == ["bell", "meter"], "\(status.stdout)")
        run.signal(SIGTERM)
        run.process.waitUntilExit()
        #expect(!FileManager.default.fileExists(atPath: control), "the control socket goes with the run")
        let none = try CLITests.run(["reload", "--socket", place.socket])
        #expect(none.status == 69)
    }

    /// `reset` through the control socket: a counter's total and an encoder's position set, printed as
    /// the event it made, seen by an events client and in `status`; a button or an unknown name refused
    /// with exit 64, and no daemon 69.
    @Test func resetSetsACountersTotalAndAnEncodersPosition() throws {
        let place = try Place(
            """
            buttons:
              - {name: bell, line: GPIO5}
            counters:
              - {name: energy, line: GPIO24, per_unit: 1000, unit: kWh}
            encoders:
              - {name: volume, lines: [GPIO17, GPIO27], min: 0, max: 100, reset_line: GPIO22, reset_to: 50}
            """)
        let run = try place.daemon()
        let events = try ReloadTests.Running(["events", "--socket", place.socket, "--input", "energy", "--format", "json"])
        #expect(events.wait { $0.stdout.contains(#""snapshot":true"#) }, "\(events.stderr)")
        let total = try CLITests.run(["reset", "energy", "--to", "41000", "--socket", place.socket])
        #expect(total.status == 0, "\(total.stderr)")
        #expect(total.stdout.hasPrefix("reset   total=41000 value=41 time="), "\(total.stdout)")
        #expect(events.wait { $0.stdout.contains(#"{"event":"reset","total":41000,"value":41,"#) }, "an events client sees it: \(events.stdout)")
        let standard = try CLITests.run(["reset", "volume", "--socket", place.socket, "--format", "json"])
        #expect(standard.stdout.hasPrefix(#"{"event":"reset","position":50,"#), "its reset_to: \(standard.stdout)")
        let clamped = try CLITests.run(["reset", "volume", "--to", "-5", "--socket", place.socket, "--format", "json"])
        #expect(clamped.stdout.hasPrefix(#"{"event":"reset","position":0,"#), "clamped into 0...100: \(clamped.stdout)")
        let status = try CLITests.run(["status", "--socket", place.socket, "--format", "json"])
        #expect(status.stdout.contains(#""input":"energy","kind":"counter","available":true,"state":{"total":4100"#), "\(status.stdout)")
        let button = try CLITests.run(["reset", "bell", "--socket", place.socket])
        #expect(button.status == 64)
        #expect(button.stderr.contains("reset refused: bell is a button, which has nothing to reset: the inputs that can be reset are volume, energy"), "\(button.stderr)")
        let unknown = try CLITests.run(["reset", "meter", "--socket", place.socket])
        #expect(unknown.status == 64 && unknown.stderr.contains(#"no input named "meter": the inputs are bell, volume, energy"#), "\(unknown.stderr)")
        run.signal(SIGTERM)
        run.process.waitUntilExit()
        events.process.waitUntilExit()
        #expect(try CLITests.run(["reset", "energy", "--socket", place.socket]).status == 69)
    }

    /// 100 programs at once, and one that connects and never reads: each of the 100 gets every live
    /// line, numbered 1, 2, 3, … with none missing, the same lines as the others, and the stream's end
    /// when the run stops; the one that never reads delays nobody.
    @Test func aHundredClientsEachGetEveryLineInOrder() throws {
        let place = try Place()
        let run = try place.daemon(["--presses", "2"])
        let stuck = try EventSocketConnection(path: place.socket)
        let clients = try (0..<100).map { _ in try EventSocketConnection(path: place.socket) }
        var received: [[String]] = []
        for client in clients {
            var lines: [String] = []
            while let line = try client.nextLine() { lines.append(String(decoding: line, as: UTF8.self)) }
            received.append(lines.filter { Self.sequence($0) != nil })
        }
        run.process.waitUntilExit()
        #expect(run.process.terminationStatus == 0)
        let first = received[0]
        #expect(first.count >= 8, "2 presses of the button, 2 moves of the selector, the door: \(first.count) lines")
        let numbers = first.compactMap(Self.sequence)
        #expect(numbers.first.map { $0 >= 1 } == true && zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(numbers)")
        for (index, lines) in received.enumerated() {
            // A client that connected later starts later; from there on its lines are the first one's.
            let start = first.firstIndex(of: lines.first ?? "") ?? -1
            #expect(start >= 0 && Array(first[start...]) == lines, "client \(index)")
            #expect(!lines.contains { $0.contains(#""event":"lost""#) })
        }
        withExtendedLifetime(stuck) {}
    }
}
