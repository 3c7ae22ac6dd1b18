import Foundation
import Testing

/// `replay TRACE --encoder A,B` on hand-written traces of one detent each way and on `record --encoder`'s
/// recordings of the simulated encoder, as a user runs them.
@Suite struct ReplayEncoderTests {
    /// One detent clockwise (A leads), then one counter-clockwise, in ns.
    static let text = """
        t_ns,line,level
        0,0,1
        0,1,1
        1000000,0,0
        2000000,1,0
        3000000,0,1
        4000000,1,1
        10000000,1,0
        11000000,0,0
        12000000,1,1
        13000000,0,1
        """

    /// The same as PulseView saves it: two channels D0 and D1, in us.
    static let vcd = """
        $version libsigrok 0.5.2 $end
        $timescale 1 us $end
        $scope module libsigrok $end
        $var wire 1 ! D0 $end
        $var wire 1 " D1 $end
        $upscope $end
        $enddefinitions $end
        #0 1! 1"
        #1000 0!
        #2000 0"
        #3000 1!
        #4000 1"
        #10000 0"
        #11000 0!
        #12000 1"
        #13000 1!
        #14000
        """

    static func file(_ text: String, _ suffix: String) throws -> String {
        let path = RecordAnalyzeTests.temporaryPath(suffix)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test(arguments: [(text, ".csv", "0,1"), (vcd, ".vcd", "D0,D1"), (vcd, ".vcd", "0,1")])
    func oneDetentEachWayGivesOneRotateEventEachWay(trace: String, suffix: String, lines: String) throws {
        let path = try Self.file(trace, suffix)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run(["replay", path, "--encoder", lines, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                {"event":"rotate","direction":"cw","position":1,"velocity":0,"time_ns":4000000,"onset_ns":1000000}
                {"event":"rotate","direction":"ccw","position":0,"velocity":111.111,"time_ns":13000000,"onset_ns":10000000}

                """)
        let reversed = try CLITests.run(["replay", path, "--encoder", lines, "--reverse"])
        #expect(reversed.status == 0)
        #expect(reversed.stdout.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["rotate ccw", "rotate cw"])
        #expect(reversed.stderr.contains("2 detents (1 cw, 1 ccw), position 0 from 8 changes"))
    }

    @Test(arguments: [
        (vcd, ".vcd", "D0,D2", 65, "no channel 'D2' in the VCD; its 1-bit channels are: D0, D1"),
        (vcd.replacingOccurrences(of: "$var wire 1 \" D1 $end\n", with: ""), ".vcd", "D0,D1", 65, "the VCD has 1 1-bit channel (D0), and 2 are needed"),
        (vcd, ".vcd", "D0,0", 65, "'0' is channel libsigrok.D0 again"),
        (text.replacingOccurrences(of: "3000000,0,1", with: "3000000,one,1"), ".csv", "0,1", 65, ":6: level must be 0 or 1"),
        (text.replacingOccurrences(of: "3000000,0,1", with: "3000000,99,1"), ".csv", "0,1", 65, ":6: line must be a whole number from 0 to 63"),
        (text, ".csv", "0,2", 65, "gives no initial level for line 2"),
        (text, ".csv", "A,B", 64, "A text trace's lines are two different numbers from 0 to 63"),
        (text, ".csv", "0,00", 64, "A text trace's lines are two different numbers from 0 to 63"),
        (text, ".csv", "0,64", 64, "A text trace's lines are two different numbers from 0 to 63"),
        (text, ".csv", "0", 64, "--encoder takes two different lines"),
    ])
    func errorsSayWhatIsWrong(trace: String, suffix: String, lines: String, status: Int32, message: String) throws {
        let path = try Self.file(trace, suffix)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run(["replay", path, "--encoder", lines])
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func aBadLineEndsTheReplayAfterTheDetentsBeforeIt() throws {
        let path = try Self.file(Self.text.replacingOccurrences(of: "11000000,0,0", with: "11000000,0,0,0"), ".csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run(["replay", path, "--encoder", "0,1"])
        #expect(result.status == 65)
        #expect(result.stdout.hasPrefix("rotate  cw  position=1"))
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(":9: level must be 0 or 1"), "\(result.stderr)")
    }

    @Test(arguments: [(".csv", "0,1"), (".vcd", "A,B")])
    func aRecordingOfTheSimulatedEncoderReplaysToTheDetentsItWasTurnedBy(suffix: String, lines: String) throws {
        let path = RecordAnalyzeTests.temporaryPath(suffix)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let record = try CLITests.run(["record", "--simulate", "--encoder", "17,27", "--virtual-time", "--presses", "20", "--seed", "4", "-o", path])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stderr.contains("recorded 2820 edges of simulated encoder (seed 4), A and B"))
        // demo --encoder turns the same encoder and says what was turned: "N detents turned (X cw, Y ccw): ...".
        let demo = try CLITests.run(["demo", "--encoder", "--virtual-time", "--seed", "4", "--presses", "20"])
        let turned = try #require(demo.stdout.split(separator: "\n").last?.split(separator: ":").first.map(String.init))
        #expect(turned == "180 detents turned (61 cw, 119 ccw)")
        let replay = try CLITests.run(["replay", path, "--encoder", lines])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stderr.hasPrefix("180 detents (61 cw, 119 ccw), position -58 from 2820 changes"))
        #expect(replay.stdout.split(separator: "\n").count == 180)
    }

    @Test func aTwoLineTraceWithoutEncoderSaysHowToReplayIt() throws {
        let path = try Self.file(Self.text, ".csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run(["replay", path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("this trace holds several lines; replay it with --encoder A,B"))
    }
}
