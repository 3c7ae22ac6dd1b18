import Foundation
import Testing

/// Careless and hostile input at the command line: nothing the user had on disk is lost by a failed
/// command, a failed write is an error, and no control character reaches the terminal raw.
@Suite struct HostileInputTests {
    /// A recording whose line cannot be opened leaves an existing file of that name as it was, and
    /// leaves no temporary file behind.
    @Test func aFailedRecordKeepsTheExistingFile() throws {
        let directory = RecordAnalyzeTests.temporaryPath("")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/button.csv"
        try "precious recording\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try CLITests.run(["record", "--chip", "/nonexistent/gpiochip9", "17", "-o", path])
        #expect(result.status == 66)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious recording\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["button.csv"])
    }

    /// A file is replaced only by a complete new one: `generate -o` and `record -o` write beside it and
    /// rename on success.
    @Test func aSuccessfulCommandReplacesTheFileWhole() throws {
        let directory = RecordAnalyzeTests.temporaryPath("")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/trace.csv"
        try "old\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try CLITests.run(["generate", "--presses", "3", "--seed", "2", "-o", path]).status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("t_ns,level"))
        #expect(try CLITests.run(["record", "--simulate", "--virtual-time", "--presses", "2", "-o", path]).status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("# gpio-debounce record"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["trace.csv"])
    }

    @Test func anSVGIntoAMissingDirectoryIsAClearErrorAndCreatesNothing() throws {
        let result = try CLITests.run(["analyze", CLITests.rocker, "--svg", "/nonexistent/dir/picture.svg"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("cannot create '/nonexistent/dir/picture.svg'"))
    }

    /// A full disk (or a closed pipe) under standard output is an error with a message and exit 74, for
    /// commands that print with stdio (`list`, `check`, `--help`) as for those that stream events.
    @Test(arguments: [["list"], ["--help"], ["check", "--config", "examples/buttons.yaml"], ["analyze", "examples/traces/rocker-kcd101.csv"],
                      ["replay", "examples/traces/rocker-kcd101.csv"], ["demo", "--virtual-time", "--presses", "2"]])
    func writingToAFullDiskExits74(arguments: [String]) throws {
        let process = Process()
        process.executableURL = CLITests.executable
        process.arguments = arguments
        process.currentDirectoryURL = CLITests.root
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 74, "\(arguments): \(stderr)")
        #expect(stderr.contains("No space left on device"))
    }

    /// A file name with an escape sequence is printed escaped, in the report and in error messages.
    @Test func controlCharactersInNamesNeverReachTheTerminalRaw() throws {
        let directory = RecordAnalyzeTests.temporaryPath("")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/trace\u{1B}[31mred.csv"
        try FileManager.default.copyItem(atPath: CLITests.rocker, toPath: path)
        let report = try CLITests.run(["analyze", path])
        #expect(report.status == 0)
        #expect(!report.stdout.contains("\u{1B}") && report.stdout.contains("trace\\u{1B}[31mred.csv"))
        let missing = try CLITests.run(["replay", directory + "/none\u{1B}]0;title\u{07}.csv"])
        #expect(missing.status == 66)
        #expect(!missing.stderr.contains("\u{1B}") && !missing.stderr.contains("\u{07}"))
        #expect(missing.stderr.contains("\\u{1B}]0;title\\u{7}"))
    }
}
