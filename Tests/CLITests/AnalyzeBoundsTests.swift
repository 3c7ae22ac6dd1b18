import Foundation
import Testing

/// `analyze` and the trace readers on input that used to take unbounded memory or time, crash, or exit
/// with the wrong code: each ends, with a message and the README's exit code.
@Suite struct AnalyzeBoundsTests {
    /// A fresh directory for a test's files; the caller removes it.
    static func directory() throws -> String {
        let path = RecordAnalyzeTests.temporaryPath("")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A VCD whose header is wrong is bad data (65), not a file that cannot be opened (66), for both
    /// commands that read traces; a missing file is 66, a directory 66.
    @Test(arguments: ["analyze", "replay"])
    func traceErrorsExitWithTheREADMEsCodes(command: String) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let header = "$var wire 1 ! a $end\n$enddefinitions $end\n#0\n1!\n#5\n0!\n"
        for (name, text, status, message) in [
            ("zero.vcd", "$timescale 0 ns $end\n" + header, Int32(65), "unknown timescale '0ns'"),
            ("channel.vcd", "$timescale 1 ns $end\n" + header, 65, "no channel 'b'"),
            ("text.csv", "0,1\n5,x\n", 65, "level must be 0 or 1"),
        ] {
            let path = directory + "/" + name
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            let arguments = [command, path] + (name == "channel.vcd" ? ["--channel", "b"] : [])
            let result = try CLITests.run(arguments)
            #expect(result.status == status, "\(name): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
        }
        let missing = try CLITests.run([command, directory + "/none.vcd"])
        #expect(missing.status == 66 && missing.stderr.contains("No such file"))
        try FileManager.default.createDirectory(atPath: directory + "/dir.vcd", withIntermediateDirectories: false)
        for path in [directory, directory + "/dir.vcd"] {
            let result = try CLITests.run([command, path])
            #expect(result.status == 66, "\(path): \(result.stderr)")
            #expect(result.stderr.contains("cannot open") && result.stderr.contains("Is a directory"), "\(result.stderr)")
        }
    }

    /// Standard input of nothing but blank lines (`yes '' |`) ends with an error instead of never.
    @Test func endlessBlankLinesEnd() throws {
        let result = try CLITests.run(["analyze", "-"], input: "0,1\n" + String(repeating: "\n", count: (1 << 20) + 10))
        #expect(result.status == 65)
        #expect(result.stderr.contains("<stdin>:1048578: more than 1048576 blank or comment lines in a row"), "\(result.stderr)")
    }

    /// Times from near `Int64.min` to `Int64.max` used to trap (an overflow splitting bursts); now
    /// they are analysed and drawn.
    @Test func timesAcrossTheWholeRangeAreAnalysedNotACrash() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/wide.csv", svg = directory + "/wide.svg"
        try "-9223372036854775807,1\n-9223372036854775000,0\n9223372036854775807,1\n".write(toFile: trace, atomically: false, encoding: .utf8)
        let result = try CLITests.run(["analyze", trace, "--svg", svg])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("2 edges, 2 transitions"))
        #expect(FileManager.default.fileExists(atPath: svg))
    }

    /// A picture of a whole long trace is bounded by its width, not by its edges, and names them all.
    @Test func aWholeTracePictureStaysSmall() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/long.csv", svg = directory + "/long.svg"
        #expect(try CLITests.run(["generate", "--edges", "200000", "--seed", "6", "--noise", "-o", trace]).status == 0)
        let result = try CLITests.run(["analyze", trace, "--svg", svg])
        #expect(result.status == 0, "\(result.stderr)")
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.utf8.count < 200_000)
        let edges = result.stdout.prefix { $0 != "," }.split(separator: " ").dropFirst().first.map(String.init) ?? "?"
        #expect(picture.contains(": \(edges) edges,"), "\(edges)")
    }
}
