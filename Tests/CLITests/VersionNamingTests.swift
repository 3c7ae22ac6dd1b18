import Foundation
import Testing

/// The version is written in one place (`Version.number`, which `--version` prints; debian/changelog
/// must agree, as `scripts/package` checks): every package file the README and docs name is that
/// version's, so a copied install command installs what the text describes.
@Suite struct VersionNamingTests {
    static func version() throws -> String {
        let result = try CLITests.run(["--version"])
        return try #require(result.stdout.split(separator: "\n").first.map(String.init))
    }

    @Test func theDocsNameThisVersionsPackages() throws {
        let version = try Self.version()
        var named = 0
        for (file, text) in try CLITests.documents() {
            // gpio-debounce_X.Y.Z: a package file's name (gpio-debounce_0.4.0-1_arm64.deb).
            for piece in text.components(separatedBy: "gpio-debounce_").dropFirst() {
                let number = piece.prefix { $0.isNumber || $0 == "." }
                guard number.contains(".") else { continue }
                named += 1
                #expect(number == version, "\(file) names the package gpio-debounce_\(number), but this is \(version): name \(version)")
            }
        }
        #expect(named >= 2, "the README's install commands name the package")
    }

    /// The quick start and "Build from source" ask for the Swift that Package.swift's tools version needs.
    @Test func theReadmeAsksForTheSwiftThePackageNeeds() throws {
        let manifest = try String(contentsOf: CLITests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let tools = try #require(manifest.split(separator: "\n").first?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces))
        let readme = try String(contentsOf: CLITests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let asked = readme.components(separatedBy: "with Swift ").dropFirst().map { $0.prefix { $0.isNumber || $0 == "." } }
        #expect(asked.count >= 2, "the quick start and the build from source name a Swift version")
        for version in asked { #expect(version == tools, "README asks for Swift \(version); Package.swift needs \(tools)") }
        #expect(readme.contains("with Swift \(tools) or later"))
    }

    @Test func debianChangelogIsThisVersion() throws {
        let changelog = try String(contentsOf: CLITests.root.appendingPathComponent("debian/changelog"), encoding: .utf8)
        #expect(changelog.hasPrefix("gpio-debounce (\(try Self.version())-"), "\(changelog.prefix(60))")
    }
}
