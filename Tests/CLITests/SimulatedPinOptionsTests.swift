import Foundation
import Testing

/// Under `--simulate`, `--kernel-debounce` and `--event-buffer` (real pins' options) are said to be
/// unused, and on a libgpiod 1 build to be refused on real pins (exit 69), rather than accepted silently.
@Suite struct SimulatedPinOptionsTests {
    /// Whether the binary is built with libgpiod 1, which refuses both options on real pins.
    static func builtWithLibgpiod1() throws -> Bool {
        try CLITests.run(["--version"]).stdout.contains("(C API v1)")
    }

    static func expectNote(_ stderr: String, option: String, libgpiod1: Bool) {
        let note = "gpio-debounce: note: \(option) is for real pins: the simulated lines take no notice of it"
        #expect(stderr.contains(note), "\(stderr)")
        #expect(stderr.contains("\(note); on real pins this build (libgpiod ") == libgpiod1, "\(stderr)")
        #expect(stderr.contains("refuses it (exit 69)") == libgpiod1, "\(stderr)")
    }

    @Test func watchSaysBoth() throws {
        let libgpiod1 = try Self.builtWithLibgpiod1()
        let result = try CLITests.run(["watch", "--simulate", "--virtual-time", "--presses", "1", "--kernel-debounce", "5ms", "--event-buffer", "64"])
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectNote(result.stderr, option: "--kernel-debounce", libgpiod1: libgpiod1)
        Self.expectNote(result.stderr, option: "--event-buffer", libgpiod1: libgpiod1)
    }

    @Test func recordAndRunSayEventBuffer() throws {
        let libgpiod1 = try Self.builtWithLibgpiod1()
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("simulated-pins-\(UUID().uuidString).csv").path
        let record = try CLITests.run(["record", "--simulate", "--virtual-time", "--presses", "1", "--event-buffer", "64", "-o", trace])
        #expect(record.status == 0, "\(record.stderr)")
        Self.expectNote(record.stderr, option: "--event-buffer", libgpiod1: libgpiod1)
        let configuration = CLITests.root.appendingPathComponent("examples/buttons.yaml").path
        let run = try CLITests.run(["run", "--config", configuration, "--simulate", "--virtual-time", "--presses", "0", "--event-buffer", "64"])
        #expect(run.status == 0, "\(run.stderr)")
        Self.expectNote(run.stderr, option: "--event-buffer", libgpiod1: libgpiod1)
    }

    /// The configuration's own `kernel_debounce:` (here through `defaults:` and one button's) is
    /// noted too, with the pins that have it.
    @Test func runSaysTheConfigurationsKernelDebounce() throws {
        let libgpiod1 = try Self.builtWithLibgpiod1()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kernel-debounce-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try """
            buttons:
              - name: lights
                line: 17
                kernel_debounce: 5ms
              - name: power
                line: 27
            """.write(to: file, atomically: true, encoding: .utf8)
        let run = try CLITests.run(["run", "--config", file.path, "--simulate", "--virtual-time", "--presses", "0"])
        #expect(run.status == 0, "\(run.stderr)")
        let note = "gpio-debounce: note: kernel_debounce (lights) is for real pins: the simulated lines take no notice of it"
        #expect(run.stderr.contains(note), "\(run.stderr)")
        #expect(run.stderr.contains("refuses it (exit 69)") == libgpiod1, "\(run.stderr)")
        try """
            defaults:
              kernel_debounce: 2ms
            buttons:
              - name: lights
                line: 17
              - name: power
                line: 27
            """.write(to: file, atomically: true, encoding: .utf8)
        let defaults = try CLITests.run(["run", "--config", file.path, "--simulate", "--virtual-time", "--presses", "0"])
        #expect(defaults.stderr.contains("note: kernel_debounce (lights, power) is for real pins"), "\(defaults.stderr)")
        let plain = try CLITests.run(["run", "--config", CLITests.root.appendingPathComponent("examples/buttons.yaml").path, "--simulate", "--virtual-time", "--presses", "0"])
        #expect(!plain.stderr.contains("kernel_debounce"), "\(plain.stderr)")
    }

    @Test func noNoteWithoutThem() throws {
        let result = try CLITests.run(["watch", "--simulate", "--virtual-time", "--presses", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("note:"), "\(result.stderr)")
    }
}
