import Assembly
import ConfigurationFile
import KeptState
import Daemon
import EventLoop
import Testing

/// `DaemonAssembly.reload` in process, on a simulation: the kept inputs' state moves to their new
/// lines, and a configuration that checks but cannot start gives way to the one before.
@Suite struct DaemonReloadTests {
    static let before = """
        buttons:
          - {name: bell, line: 22}
        encoders:
          - {name: volume, lines: [17, 27]}
        counters:
          - {name: energy, line: 24, per_unit: 1000}
        """
    /// An added button first: every kept line moves one place on.
    static let after = """
        buttons:
          - {name: extra, line: 5}
          - {name: bell, line: 22}
        encoders:
          - {name: volume, lines: [17, 27]}
        counters:
          - {name: energy, line: 24, per_unit: 1000}
        """

    @Test func theKeptInputsStateMovesToTheirNewLines() throws {
        let output = try TemporaryFile()
        let state = try TemporaryDirectory()
        var daemon: DaemonAssembly? = try DaemonAssembly(
            ConfigurationLoader.load(Self.before, file: "r.yaml"), choices: DaemonAssemblyTests.choices(presses: 6, stateDirectory: state.path, output: output),
            stop: .none, logger: quietLogger)
        // Read from the run before in a scope of its own: no reference to it is left at the reload (as in `RunCommand`).
        let (total, position, bell) = try {
            let first = try #require(daemon)
            #expect(try first.loop.run() == .endOfInput)
            // Lines before: bell 0, volume 1 and 2, energy 3.
            let pipeline = first.loop.pipeline
            return (try #require(pipeline.pulseCounter(line: 3)?.total), pipeline.decoder(encoder: 0).position, pipeline.debouncer(line: 0)?.statistics)
        }()
        #expect(total > 0 && position != 0)
        try DaemonAssembly.reload(&daemon, to: ConfigurationLoader.load(Self.after, file: "r.yaml"))
        let next = try #require(daemon)
        // Lines after: extra 0, bell 1, volume 2 and 3, energy 4.
        #expect(next.loop.pipeline.pulseCounter(line: 4)?.total == total)
        #expect(next.loop.pipeline.decoder(encoder: 0).position == position)
        #expect(next.loop.pipeline.debouncer(line: 1)?.statistics == bell)
        #expect(next.loop.pipeline.debouncer(line: 0)?.statistics.edges == 0)
        #expect(next.loop.linesCarriedOver == [1, 2, 3, 4])
        #expect(next.stateStore?.initialValues == [total])
    }

    /// The state directory's lock goes from the run before to the next explicitly: a reload succeeds
    /// while something still holds the run before (as a loaded machine can delay its release), and one
    /// to a file without counters lets the lock go at once.
    @Test func theStateLockIsHandedOverNotLeftToTheReleaseOfTheRunBefore() throws {
        let output = try TemporaryFile()
        let state = try TemporaryDirectory()
        var daemon: DaemonAssembly? = try DaemonAssembly(
            ConfigurationLoader.load(Self.before, file: "r.yaml"), choices: DaemonAssemblyTests.choices(presses: 6, stateDirectory: state.path, output: output),
            stop: .none, logger: quietLogger)
        let first = try #require(daemon)
        #expect(try first.loop.run() == .endOfInput)
        let total = try #require(first.loop.pipeline.pulseCounter(line: 3)?.total)
        try DaemonAssembly.reload(&daemon, to: ConfigurationLoader.load(Self.after, file: "r.yaml"))
        let next = try #require(daemon)
        #expect(next !== first)
        #expect(next.configuration.roster.inputs.map(\.name) == ["extra", "bell", "volume", "energy"], "the reload went back to the file before")
        #expect(next.stateStore?.initialValues == [total])
        #expect(throws: KeptStateError.locked(directory: state.path)) {
            _ = try StateStore(directory: state.path, entries: [], logger: quietLogger)
        }
        try DaemonAssembly.reload(&daemon, to: ConfigurationLoader.load("buttons:\n  - {name: bell, line: 22}\n", file: "r.yaml"))
        #expect(daemon?.stateStore == nil)
        _ = try StateStore(directory: state.path, entries: [], logger: quietLogger)
        withExtendedLifetime(first) {}
        withExtendedLifetime(next) {}
    }

    /// A keypad beside the pins: a reload that adds a button keeps the button's state (the pins' lines
    /// come first) and the kept keypad's keys' (their counts go on), typing on as the new run's.
    @Test func aReloadBesideAKeypadKeepsThePinsAndTheKeypad() throws {
        let output = try TemporaryFile()
        let keypad = "keypads:\n  - {name: door, rows: [5, 6, 13, 19], columns: [12, 16, 20]}\n"
        var daemon: DaemonAssembly? = try DaemonAssembly(
            ConfigurationLoader.load("buttons:\n  - {name: bell, line: 22}\n" + keypad, file: "r.yaml"),
            choices: DaemonAssemblyTests.choices(presses: 4, stateDirectory: nil, output: output), stop: .none, logger: quietLogger)
        let bell = try {
            let first = try #require(daemon)
            #expect(try first.loop.run() == .endOfInput)
            #expect((1...12).reduce(0) { $0 + (first.loop.pipeline.statistics(line: $1)?.presses ?? 0) } == 4)
            return first.loop.pipeline.debouncer(line: 0)?.statistics
        }()
        try DaemonAssembly.reload(&daemon, to: ConfigurationLoader.load("buttons:\n  - {name: extra, line: 4}\n  - {name: bell, line: 22}\n" + keypad, file: "r.yaml"))
        let next = try #require(daemon)
        // Lines after: extra 0, bell 1, the keys 2 to 13.
        #expect(next.loop.pipeline.debouncer(line: 1)?.statistics == bell)
        #expect(next.loop.linesCarriedOver == Set(1...13))
        #expect(try next.loop.run() == .endOfInput)
        #expect((2...13).reduce(0) { $0 + (next.loop.pipeline.statistics(line: $1)?.presses ?? 0) } == 8)
    }

    /// A key held as the reload comes (the run before stopped at its press) stays down through it, and
    /// the next run's first event is its release: its keypad was kept, so the key's state and the scan's
    /// go on, and the scan finds it let go (the simulation's next typing holds no key then).
    @Test func aKeyHeldAcrossAReloadIsReleasedAfterIt() throws {
        let output = try TemporaryFile()
        let keypad = "keypads:\n  - {name: door, rows: [5, 6, 13, 19], columns: [12, 16, 20]}\n"
        var choices = DaemonAssemblyTests.choices(presses: 4, stateDirectory: nil, output: output)
        choices.limits = LoopLimits(maximumEvents: 1)
        var daemon: DaemonAssembly? = try DaemonAssembly(ConfigurationLoader.load(keypad, file: "r.yaml"), choices: choices, stop: .none, logger: quietLogger)
        let held = try {
            let first = try #require(daemon)
            #expect(try first.loop.run() == .eventLimit)
            return try #require((0..<12).first { first.loop.pipeline.debouncer(line: $0)?.isPressed == true })
        }()
        try DaemonAssembly.reload(&daemon, to: ConfigurationLoader.load("buttons:\n  - {name: bell, line: 22}\n" + keypad, file: "r.yaml"))
        let next = try #require(daemon)
        // Lines after: bell 0, the keys 1 to 12.
        #expect(next.loop.pipeline.debouncer(line: held + 1)?.isPressed == true)
        #expect(try next.loop.run() == .eventLimit)
        #expect(next.loop.pipeline.debouncer(line: held + 1)?.isPressed == false)
        #expect(next.loop.pipeline.statistics(line: held + 1).map { ($0.presses, $0.releases) } ?? (0, 0) == (1, 1))
    }

    /// The counters added by the file read again cannot be kept (no usable state directory): the reload
    /// fails after its check, and the configuration before is assembled again.
    @Test func aReloadThatCannotStartGoesBackToTheConfigurationBefore() throws {
        let output = try TemporaryFile()
        var daemon: DaemonAssembly? = try DaemonAssembly(
            ConfigurationLoader.load("buttons:\n  - {name: bell, line: 22}\n", file: "r.yaml"),
            choices: DaemonAssemblyTests.choices(presses: nil, stateDirectory: "/proc/gpio-debounce-no-such-directory", output: output), stop: .none,
            logger: quietLogger)
        try DaemonAssembly.reload(&daemon, to: ConfigurationLoader.load(Self.after, file: "r.yaml"))
        #expect(daemon?.configuration.roster.inputs.map(\.name) == ["bell"])
        #expect(daemon?.stateStore == nil)
        #expect(daemon?.loop.linesCarriedOver == [0])
    }
}
