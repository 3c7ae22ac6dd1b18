import Foundation
import Testing

/// What the docs say of the program, checked against the program and the package: a configuration
/// path a recipe names is one the package installs, `watch`'s synopsis names each of its options, and
/// the message quoted for an empty file is the one `check` prints.
@Suite struct DocsMatchTheProgramTests {
    /// `--config /etc/gpio-debounce/NAME` in a recipe works on an installed system only if the package
    /// puts NAME there (debian/gpio-debounce.install).
    @Test func everyConfigurationPathTheDocsNameIsOneThePackageInstalls() throws {
        let install = try String(contentsOf: CLITests.root.appendingPathComponent("debian/gpio-debounce.install"), encoding: .utf8)
        let installed = Set(install.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 2, fields[1] == "etc/gpio-debounce" else { return nil }
            return fields[0].split(separator: "/").last.map(String.init)
        })
        #expect(installed.contains("buttons.yaml"))
        var named = 0
        for (name, text) in try CLITests.documents() {
            for piece in text.components(separatedBy: "--config /etc/gpio-debounce/").dropFirst() {
                let file = String(piece.prefix { $0.isLetter || $0.isNumber || "._-".contains($0) })
                named += 1
                #expect(installed.contains(file), "\(name) runs --config /etc/gpio-debounce/\(file), which the package does not install: name one of \(installed.sorted())")
            }
        }
        #expect(named >= 2, "the README and docs run the installed configuration")
    }

    /// The synopsis at the top of docs/watch.md names every option `watch --help` lists.
    @Test func watchsSynopsisNamesEveryOptionOfItsHelp() throws {
        let help = try CLITests.run(["watch", "--help"])
        #expect(help.status == 0)
        let options = Set(help.stdout.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
            guard let first = words.first, first.hasPrefix("-") else { return nil }
            return words.first { $0.hasPrefix("--") }
        }).subtracting(["--help", "--version"])
        #expect(options.count >= 20, "\(options.sorted())")
        let watch = try String(contentsOf: CLITests.root.appendingPathComponent("docs/watch.md"), encoding: .utf8)
        let synopsis = try #require(watch.components(separatedBy: "```").dropFirst().first)
        for option in options.sorted() {
            #expect(synopsis.contains(option), "docs/watch.md's synopsis does not name \(option), which `watch --help` lists")
        }
    }

    /// docs/bad-input.md quotes the start of the message for an empty file; `check` prints it.
    @Test func theEmptyFileMessageQuotedIsTheProgramsOwn() throws {
        let badInput = try String(contentsOf: CLITests.root.appendingPathComponent("docs/bad-input.md"), encoding: .utf8)
        let row = try #require(badInput.split(separator: "\n").first { $0.hasPrefix("| an empty file") })
        let quoted = try #require(row.components(separatedBy: "``").dropFirst().first)
        let start = quoted.components(separatedBy: " or ...").first ?? quoted
        #expect(start.count > 40)
        let result = try CLITests.run(["check", "--config", "/dev/null"])
        #expect(result.status == 65)
        #expect(result.stderr.contains(start), "docs/bad-input.md quotes \(start); check prints \(result.stderr)")
    }
}
