import ConfigurationFile
import KeptState
import Daemon
import Foundation
import Inputs
@testable import MQTT
import Testing

/// `restore: true` through the daemon, as `run --simulate --state-dir` assembles it, in virtual time:
/// the kept position, clamped, is where the decoder starts, what the printer shows at the start and
/// what MQTT would publish first; the next run goes on from where this one stopped; and a simulation
/// without `--state-dir` never touches a real state directory.
@Suite struct EncoderRestoreAssemblyTests {
    static let restored = """
        encoders:
          - {name: volume, lines: [17, 27], min: 0, max: 100, restore: true}
          - {name: menu, lines: [5, 6]}
        """

    @Test func theKeptPositionIsWhereTheRunStartsAndTheNextGoesOn() throws {
        let state = try TemporaryDirectory()
        let file = state.path + "/positions"
        try write("# kept\nformat 1\nvolume 150\n", to: file)
        let configuration = try ConfigurationLoader.load(Self.restored, file: "r.yaml")
        let output = try TemporaryFile()
        let final: Int
        do {
            let daemon = try DaemonAssembly(
                configuration, choices: DaemonAssemblyTests.choices(stateDirectory: state.path, output: output), stop: .none, logger: quietLogger)
            #expect(daemon.stateStore?.initialValues == [150])
            #expect(daemon.plan.pipeline.encoders.map(\.initialPosition) == [100, 0], "150 clamped into 0...100")
            #expect(daemon.loop.pipeline.decoder(encoder: 0).position == 100)
            #expect(try daemon.loop.run() == .endOfInput)
            let lines = try output.text().split(separator: "\n")
            // The start: the restored encoder's position, before any detent; none for the other.
            #expect(lines.first == #"{"event":"position","position":100,"time_ns":0,"restored":true,"encoder":"volume","chip":"simulated","lines":[17,27]}"#)
            #expect(lines.count { $0.hasPrefix(#"{"event":"position""#) } == 1)
            let firstTurn = try #require(lines.first { $0.contains(#""event":"rotate""#) && $0.contains(#""encoder":"volume""#) })
            #expect(firstTurn.contains(#""position":100,"#) || firstTurn.contains(#""position":99,"#), "\(firstTurn)")
            final = daemon.loop.pipeline.decoder(encoder: 0).position
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == StateFileFormat.format([StateFileEntry(name: "volume", value: Int64(final))], kind: .positions))
        let next = try DaemonAssembly(
            configuration, choices: DaemonAssemblyTests.choices(presses: 0, stateDirectory: state.path, output: try TemporaryFile()), stop: .none,
            logger: quietLogger)
        #expect(next.plan.pipeline.encoders.map(\.initialPosition) == [final, 0])
    }

    /// MQTT publishes the kept position (clamped) as the encoder's retained start position.
    @Test func mqttStartsFromTheKeptPosition() throws {
        let state = try TemporaryDirectory()
        try write("format 1\nvolume 42\n", to: state.path + "/positions")
        let configuration = try ConfigurationLoader.load(Self.restored + "\nmqtt: {url: mqtt://broker.invalid}\n", file: "r.yaml")
        let daemon = try DaemonAssembly(
            configuration, choices: DaemonAssemblyTests.choices(presses: 0, virtualTime: false, stateDirectory: state.path, output: try TemporaryFile()),
            stop: .none, logger: quietLogger)
        #expect(daemon.mqttSink?.presenters.compactMap { ($0 as? EncoderPresenter)?.startPosition } == [42, 0])
    }

    /// Without `--state-dir` a simulation keeps the positions in a directory of its own, removed when
    /// it is released; an encoder without `restore:` makes no store at all.
    @Test func aSimulationKeepsPositionsInADirectoryOfItsOwn() throws {
        let output = try TemporaryFile()
        var daemon: DaemonAssembly? = try DaemonAssembly(
            try ConfigurationLoader.load(Self.restored, file: "r.yaml"), choices: DaemonAssemblyTests.choices(output: output), stop: .none,
            logger: quietLogger)
        let directory = try #require(daemon?.simulationState?.path)
        #expect(daemon?.stateStore?.path(of: .positions) == directory + "/positions")
        #expect(daemon?.stateStore?.initialValues == [nil])
        _ = try daemon?.loop.run()
        daemon = nil
        #expect(!exists(directory))
        let plain = try DaemonAssembly(
            try ConfigurationLoader.load("encoders: [{name: menu, lines: [5, 6]}]", file: "m.yaml"), choices: DaemonAssemblyTests.choices(output: output),
            stop: .none, logger: quietLogger)
        #expect(plain.stateStore == nil && plain.simulationState == nil)
    }

    private func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }
}
