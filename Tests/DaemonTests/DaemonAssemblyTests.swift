import Actions
import Assembly
import ConfigurationFile
import KeptState
import Daemon
import EventLoop
import EventOutput
import Keys
import MQTT
import Recording
import Settings
import Testing

/// The daemon of a configuration with every kind of input, assembled as `run --simulate` assembles it
/// and run in virtual time: the sinks a simulation gets, where its counters are kept, what it
/// publishes as, and the events it prints.
@Suite struct DaemonAssemblyTests {
    /// Buttons (one with actions and keys, in a group), an encoder with keys and an action, a sensor with
    /// an action, and a counter.
    static let everyKind = """
        groups:
          screens: {lockout: 300ms}
        buttons:
          - name: bell
            line: 22
            group: screens
            clicks: {window: 300ms}
            actions:
              - {on: press, run: [/bin/true, bell]}
              - {on: click, count: 2, key: KEY_NEXTSONG}
          - {name: lamp, line: GPIO5, group: screens}
        encoders:
          - name: volume
            lines: [17, 27]
            keys: {cw: KEY_VOLUMEUP, ccw: KEY_VOLUMEDOWN}
            actions:
              - {on: rotate, run: [/bin/true, turned]}
        sensors:
          - name: door
            line: 23
            actions:
              - {on: on, run: [/bin/true, door]}
        counters:
          - {name: energy, line: 24, per_unit: 1000}
        """

    /// The same inputs without actions or keys, and an `mqtt:` section.
    static let published = """
        buttons:
          - {name: bell, line: 22}
        counters:
          - {name: energy, line: 24}
        mqtt:
          url: mqtt://broker.invalid
          client_id: hall-pi
        """

    static func configuration(_ text: String = everyKind) throws -> ServiceConfiguration {
        try ConfigurationLoader.load(text, file: "every-kind.yaml")
    }

    static func choices(
        presses: Int? = 2, virtualTime: Bool = true, runsActions: Bool = false, stateDirectory: String? = nil, format: EventFormat = .json,
        output: TemporaryFile
    ) -> DaemonChoices {
        DaemonChoices(
            simulation: .init(seed: 7, presses: presses, virtualTime: virtualTime, runsActions: runsActions), stateDirectory: stateDirectory,
            format: format, output: output.descriptor, softwareVersion: "0.0.0-test")
    }

    static func kinds(_ sinks: [any Sink]) -> [String] {
        sinks.map { sink in
            switch sink {
            case is EventPrinter: "printer"
            case is ActionPreview: "actions shown"
            case is ActionRunner: "actions run"
            case is KeyPreview: "keys shown"
            case is KeyboardSink: "keys typed"
            case is StateStore: "counters"
            case is MQTTSink: "mqtt"
            default: "\(type(of: sink))"
            }
        }
    }

    /// A simulation without `--run-actions` shows the actions and keys after their events and runs none;
    /// its counters count in a temporary directory of its own, removed when the daemon is released.
    @Test func aSimulationShowsItsActionsAndKeysAndCountsInADirectoryOfItsOwn() throws {
        let output = try TemporaryFile()
        var daemon: DaemonAssembly? = try DaemonAssembly(
            Self.configuration(), choices: Self.choices(output: output), stop: .none, logger: quietLogger)
        let sinks = try #require(daemon?.sinks)
        #expect(Self.kinds(sinks) == ["printer", "actions shown", "keys shown", "counters"])
        let directory = try #require(daemon?.simulationState?.path)
        #expect(directory.hasPrefix("/") && directory.contains("gpio-debounce-simulation."))
        #expect(daemon?.stateStore?.path(of: .counters) == directory + "/counters")
        #expect(daemon?.mqtt == nil)
        // Every line is reported as its configured line, on the simulated chip, in the roster's order.
        #expect(daemon?.places.map(\.offset) == [22, 5, 17, 27, 23, 24])
        #expect(daemon?.places.allSatisfy { $0.chip == "simulated" } == true)
        #expect(exists(directory))
        daemon = nil
        #expect(!exists(directory))
    }

    /// A short run in virtual time: every simulated input makes events, printed with its name, and
    /// the actions and keys they would start after them; the counters' totals are saved at the stop.
    @Test func aShortVirtualTimeRunPrintsEveryInputsEventsAndWhatTheyWouldStart() throws {
        let output = try TemporaryFile()
        let state = try TemporaryDirectory()
        let daemon = try DaemonAssembly(
            Self.configuration(), choices: Self.choices(stateDirectory: state.path, output: output), stop: .none, logger: quietLogger)
        #expect(daemon.simulationState == nil)
        #expect(daemon.stateStore?.path(of: .counters) == state.path + "/counters")
        let stop = try daemon.loop.run()
        #expect(stop == .endOfInput)
        #expect(daemon.loop.reportedEvents > 0)
        let text = try output.text()
        for name in ["\"button\":\"bell\"", "\"button\":\"lamp\"", "\"encoder\":\"volume\"", "\"sensor\":\"door\"", "\"counter\":\"energy\""] {
            #expect(text.contains(name), "\(name) in \(text)")
        }
        // What an event would start, shown after it (`ActionPreview`, `KeyPreview`).
        #expect(text.contains(#"{"event":"action","action":"door.on","arguments":["/bin/true","door"],"on":"on","#), "\(text)")
        #expect(text.contains(#"{"event":"keys","change":"type","keys":["KEY_VOLUME"#), "\(text)")
        #expect((daemon.stateStore?.writes ?? 0) > 0)
        #expect(exists(state.path + "/counters"))
    }

    /// With `--run-actions` the actions run (`ActionRunner`) and nothing is shown in their place.
    @Test func aSimulationWithRunActionsRunsThem() throws {
        let output = try TemporaryFile()
        let configuration = try Self.configuration(
            """
            buttons:
              - {name: bell, line: 22, actions: [{on: press, run: [/bin/true]}]}
            """)
        let daemon = try DaemonAssembly(configuration, choices: Self.choices(presses: 0, runsActions: true, output: output), stop: .none, logger: quietLogger)
        #expect(Self.kinds(daemon.sinks) == ["printer", "actions run"])
        #expect(daemon.stateStore == nil && daemon.simulationState == nil)
    }

    /// A simulation publishes under an identity of its own, never the live daemon's; a real run
    /// under the configuration's.
    @Test func aSimulationPublishesAsItsOwnDevice() throws {
        let configuration = try Self.configuration(Self.published)
        let output = try TemporaryFile()
        let state = try TemporaryDirectory()
        let daemon = try DaemonAssembly(
            configuration, choices: Self.choices(presses: 0, virtualTime: false, stateDirectory: state.path, output: output), stop: .none,
            logger: quietLogger)
        #expect(Self.kinds(daemon.sinks) == ["printer", "actions shown", "counters", "mqtt"])
        #expect(daemon.mqtt == configuration.mqtt?.simulation)
        #expect(daemon.mqtt?.clientID == "hall-pi" + MQTTSettings.simulationSuffix)
        let real = DaemonChoices(softwareVersion: "0.0.0-test")
        #expect(DaemonAssembly.mqttSettings(configuration, choices: real) == configuration.mqtt)
    }

    /// MQTT counts on the real clock: a virtual-time run with an `mqtt:` section is refused, and
    /// leaves no directory behind.
    @Test func mqttInVirtualTimeIsRefused() throws {
        let output = try TemporaryFile()
        #expect {
            _ = try DaemonAssembly(Self.configuration(Self.published), choices: Self.choices(output: output), stop: .none, logger: quietLogger)
        } throws: { error in
            guard case .mqttNeedsRealTime = error as? DaemonFailure else { return false }
            return true
        }
    }
}
