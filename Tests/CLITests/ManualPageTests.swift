import Foundation
import Testing

/// The man page (`packaging/make-manual`, as the package builds it), rendered by `man -l` as a user
/// reads it: the characters outside ASCII kept, every JSON example valid, the defaults and value lists
/// that `--help` shows, and the README's exit codes. Needs python3 and man-db (with groff).
@Suite struct ManualPageTests {
    /// The page, rendered 300 columns wide (no example is broken across lines) in UTF-8.
    static let rendered: Result<String, any Error> = Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("manual-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("gpio-debounce.1").path
        let source = try run("/usr/bin/env", ["python3", CLITests.root.appendingPathComponent("packaging/make-manual").path, CLITests.executable.path, "2026-01-01"])
        try source.write(toFile: page, atomically: true, encoding: .utf8)
        return try run("/usr/bin/env", ["man", "-l", page], environment: ["MANWIDTH": "300", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "MANPAGER": "cat", "PAGER": "cat"])
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Standard output of `executable arguments`, which must exit 0.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: stderr, as: UTF8.self))")
        }
        return String(decoding: stdout, as: UTF8.self)
    }

    @Test func charactersOutsideASCIISurvive() throws {
        let page = try Self.rendered.get()
        #expect(page.contains("50 ns to 2 µs"), "\(page)")
        #expect(page.contains("a 4×4 or 4×3 pad"), "\(page)")
        #expect(!page.contains("44 or 43 pad"))
    }

    /// Every `{"…}` in the page is one JSON object.
    @Test func everyJSONExampleIsValid() throws {
        let page = try Self.rendered.get()
        let examples = page.matches(of: /\{"[^{}\n]*\}/).map { String($0.output) }
        #expect(examples.contains { $0.hasPrefix(#"{"event":"initial""#) }, "\(examples)")
        for example in examples {
            #expect((try? JSONSerialization.jsonObject(with: Data(example.utf8))) != nil, "not JSON: \(example)")
        }
    }

    /// Every "(default: …)" and "(values: …)" that a command's `--help` shows is in the page.
    @Test(arguments: ["watch", "run", "check", "doctor", "list", "record", "analyze", "replay", "demo", "generate"])
    func defaultsAndValueListsAreShown(command: String) throws {
        let page = try Self.rendered.get().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let help = try CLITests.run([command, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let facts = help.matches(of: /\((values|default): [^)]*\)/).map { String($0.output.0) }
        #expect(!facts.isEmpty || ["check", "doctor", "list"].contains(command), "\(help)")
        for fact in facts {
            #expect(page.contains(fact), "\(command): \(fact) is not in the page")
        }
    }

    /// EXIT STATUS has every row of the README's table, not only ">0 if an error occurs".
    @Test func exitStatusIsTheReadmesTable() throws {
        let page = try Self.rendered.get()
        let status = try #require(page.firstRange(of: "EXIT STATUS").map { page[$0.upperBound...] }?.split(separator: "SEE ALSO").first)
        #expect(!status.contains("if an error occurs"))
        let readme = try String(contentsOf: CLITests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.split(separator: "\n## Exit codes\n").dropFirst().first?.split(separator: "\n## ").first)
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") }.dropFirst(2)
        #expect(rows.count == 8, "\(rows)")
        for row in rows {
            let cells = row.dropFirst(2).dropLast(2).split(separator: " | ").map { $0.replacingOccurrences(of: "`", with: "") }
            let flat = status.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(flat.contains("\(cells[0]) \(cells[1]). From: \(cells[2])."), "\(cells) in \(flat)")
        }
    }
}
