import Foundation
import Testing

/// `watch --encoder` and `demo --encoder` on the simulated encoder, as a user runs them.
@Suite struct EncoderCommandTests {
    struct Rotation: Decodable {
        var event: String
        var direction: String
        var position: Int
        var velocity: Double
        var time_ns: Int64
        var onset_ns: Int64
        var chip: String?
        var lines: [Int]?
    }

    @Test func watchEncoderPrintsOneObjectPerDetent() throws {
        let result = try CLITests.run(["watch", "--simulate", "--encoder", "GPIO17,GPIO27", "--seed", "3", "--format", "json", "-n", "5"])
        #expect(result.status == 0, "\(result.stderr)")
        let rotations = try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(Rotation.self, from: Data($0.utf8)) }
        #expect(rotations.count == 5)
        #expect(rotations.allSatisfy { $0.event == "rotate" && $0.chip == "simulated" && $0.lines == [17, 27] && $0.onset_ns <= $0.time_ns })
        // Positions follow the directions, one detent at a time.
        var position = 0
        for rotation in rotations {
            position += rotation.direction == "cw" ? 1 : -1
            #expect(rotation.position == position)
        }
        #expect(result.stderr.contains("simulated lines 17,27: "))
    }

    @Test func runTurnsAConfiguredEncoderBesideAButton() throws {
        let path = try ReplayThroughPipelineTests.configuration("""
            buttons: [{name: mute, line: 22}]
            encoders:
              - {name: volume, lines: [GPIO17, GPIO27], min: 0, max: 5}
            """)
        let result = try CLITests.run(["run", "--config", path, "--simulate", "--virtual-time", "--presses", "3", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let rotations = try lines.filter { $0.contains("\"rotate\"") }.map { try JSONDecoder().decode(Rotation.self, from: Data($0.utf8)) }
        #expect(!rotations.isEmpty)
        #expect(rotations.allSatisfy { (0...5).contains($0.position) && $0.lines == [17, 27] })
        #expect(lines.filter { $0.contains("\"encoder\":\"volume\"") }.count == rotations.count)
        #expect(lines.contains { $0.contains("\"event\":\"press\"") && $0.contains("\"button\":\"mute\"") })
        #expect(result.stderr.contains("stopped (the simulated inputs ran out of presses)"))
    }

    @Test func demoEncoderReportsWhatWasTurned() throws {
        let result = try CLITests.run(["demo", "--encoder", "--virtual-time", "--seed", "11", "--presses", "12"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        // "N detents turned (X cw, Y ccw): X cw and Y ccw reported, ...": what was turned is what was reported.
        let numbers = summary.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        #expect(numbers.count >= 5)
        #expect(numbers[1] == numbers[3] && numbers[2] == numbers[4], "\(summary)")
    }

    @Test(arguments: [["--encoder", "17"], ["--encoder", "17,17"], ["--encoder", "17,27", "22"], ["--encoder", "17,27", "--steps-per-detent", "3"]])
    func badEncoderOptionsSayWhatToWrite(arguments: [String]) throws {
        let result = try CLITests.run(["watch", "--simulate"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--encoder") || result.stderr.contains("--steps-per-detent"))
    }
}
