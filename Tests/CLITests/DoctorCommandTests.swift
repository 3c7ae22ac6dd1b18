import Foundation
import Testing

/// `gpio-debounce doctor` as a user runs it, on this machine: without /dev/gpiochip* (and without
/// /dev/uinput), it says so with what to do and exits with the code `run` would (66).
@Suite struct DoctorCommandTests {
    static let hasChips = (try? FileManager.default.contentsOfDirectory(atPath: "/dev").contains { $0.hasPrefix("gpiochip") }) == true
    static let hasUInput = FileManager.default.fileExists(atPath: "/dev/uinput")

    static func configuration(_ yaml: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-doctor-\(UUID().uuidString).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func withoutChipsDoctorSaysSoAndExits66() throws {
        guard !Self.hasChips else { return }
        let result = try CLITests.run(["doctor"])
        #expect(result.status == 66)
        #expect(result.stdout.contains("BLOCKER  chips: no GPIO chip: there is no /dev/gpiochip* on this machine"))
        #expect(result.stdout.contains("to do: run gpio-debounce on the machine with the pins"))
        #expect(result.stdout.contains("OK       kernel: Linux "))
        #expect(result.stdout.hasSuffix("run would not start: the first blocker above (exit 66)\n"))
    }

    @Test func keysWithoutUInputAreNamedWithWhatToDo() throws {
        guard !Self.hasUInput else { return }
        let path = try Self.configuration("buttons:\n  - {name: next, line: 17, key: KEY_NEXTSONG}\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run(["doctor", "--config", path])
        #expect(result.status == (Self.hasChips ? 69 : 66))
        #expect(result.stdout.contains("BLOCKER  uinput: keys are configured and no /dev/uinput"))
        #expect(result.stdout.contains("sudo modprobe uinput"))
    }

    @Test func jsonIsOneObjectPerFindingWithTheBlockersExitCode() throws {
        guard !Self.hasChips else { return }
        let result = try CLITests.run(["doctor", "--format", "json", "17"])
        #expect(result.status == 66)
        let objects = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.count >= 4)
        #expect(objects.allSatisfy { ["ok", "warning", "blocker"].contains($0["severity"] as? String ?? "") && $0["found"] is String && $0["to_do"] is String })
        let blocker = try #require(objects.first { $0["severity"] as? String == "blocker" })
        #expect(blocker["topic"] as? String == "chips" && blocker["exit_code"] as? Int == 66)
        #expect(objects.contains { $0["topic"] as? String == "line" && ($0["found"] as? String ?? "").contains("not checked") })
    }

    @Test func aStateDirectoryHeldByAnotherRunIsNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-doctor-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lock = open(directory + "/counters.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #expect(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        defer { close(lock) }
        let path = try Self.configuration("counters:\n  - {name: meter, line: 17}\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try CLITests.run(["doctor", "--config", path, "--state-dir", directory])
        #expect(result.stdout.contains("BLOCKER  state: another gpio-debounce run keeps its state in '\(directory)'"))
        #expect(result.status == (Self.hasChips ? 75 : 66))
    }
}
