import Foundation

extension CLITests {
    /// README.md and every docs/*.md, each with its text: what a user reads.
    static func documents() throws -> [(name: String, text: String)] {
        let docs = root.appendingPathComponent("docs")
        let names = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: docs.path)).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return try names.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }
}
