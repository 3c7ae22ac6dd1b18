import Foundation
import Testing

/// The README's recipe "A door keypad with a PIN", as a user copies it: its YAML passes `check` and
/// `run --simulate` on a machine without its program or GPIO chips, its script decides on the PIN, the
/// bell's key rings under its own name, and the code's keys are never told apart.
@Suite struct KeypadRecipeTests {
    /// The fenced block of `language` that follows the heading `title` in the README.
    static func readmeBlock(after title: String, language: String) throws -> String {
        let readme = try String(contentsOf: CLITests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n### \(title)\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "\n```\(language)\n").dropFirst().first)
        return try #require(block.components(separatedBy: "\n```").first) + "\n"
    }

    static let title = "A door keypad with a PIN"

    @Test func theRecipesFilePassesCheckAndASimulation() throws {
        let path = try ReplayThroughPipelineTests.configuration(try Self.readmeBlock(after: Self.title, language: "yaml"))
        defer { try? FileManager.default.removeItem(atPath: path) }
        if !FileManager.default.fileExists(atPath: "/dev/gpiochip0") {
            let check = try CLITests.run(["check", "--config", path])
            #expect(check.status == 0, "\(check.stderr)")
            #expect(check.stdout.contains("code of 4 or more key(s), made of 123456B789C0D, ended by #, cleared by *"), "\(check.stdout)")
        }
        let result = try CLITests.run(["run", "--config", path, "--simulate", "--virtual-time", "--presses", "18", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("{\"event\":\"code\",\"length\":4,") }.count == 3, "\(result.stdout)")
        // The bell's key is named and rings; a code's key is `?` and starts nothing: no action follows it.
        var rings = 0
        for (index, line) in lines.enumerated() where line.hasPrefix("{\"event\":\"press\"") {
            let next = lines.indices.contains(index + 1) ? lines[index + 1] : ""
            if line.contains("\"key\":\"A\"") {
                #expect(next.hasPrefix("{\"event\":\"action\",\"action\":\"door.press\",\"arguments\":[\"logger\",\"-t\",\"door\",\"bell\"]"), "\(next)")
                rings += 1
            } else {
                #expect(line.contains("\"key\":\"?\"") || line.contains("\"key\":\"#\""), "\(line)")
                #expect(!next.contains("\"action\":\"door.press\""), "\(line) then \(next)")
            }
        }
        #expect(rings == 3, "\(result.stdout)")
        for key in "0123456789BCD" { #expect(!result.stdout.contains("\"key\":\"\(key)\"")) }
    }

    /// The recipe's script, run as the code's action would run it: a PIN listed in /etc/door-pins
    /// opens (here a file standing in for it), any other does not.
    @Test func theRecipesScriptOpensForAListedPINOnly() throws {
        let script = try Self.readmeBlock(after: Self.title, language: "sh")
        #expect(script.hasPrefix("#!/bin/sh\n# /usr/local/bin/door-check"))
        let pins = RecordAnalyzeTests.temporaryPath("-pins")
        try "1234\n4711\n".write(toFile: pins, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: pins) }
        // `logger` is replaced by `echo`, so that the outcome is on standard output.
        let testable = script.replacingOccurrences(of: "/etc/door-pins", with: pins).replacingOccurrences(of: "exec logger -t door", with: "exec echo")
        for (code, outcome) in [("4711", "opened"), ("471", "wrong PIN"), ("47111", "wrong PIN")] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", testable]
            process.environment = ["GPIO_CODE": code, "PATH": "/usr/bin:/bin"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            process.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(printed == outcome + "\n", "\(code): \(printed)")
        }
    }
}
