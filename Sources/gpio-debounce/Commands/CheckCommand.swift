import ArgumentParser
import ButtonDaemon
import DebounceCore
import Foundation
import GPIODBackend

/// Reads and checks a configuration file, exiting 65 with the file, line and key of any mistake.
func loadConfiguration(_ path: String) throws -> ServiceConfiguration {
    let text: String
    do {
        text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
        throw failure("cannot read the configuration '\(path)': \(error.localizedDescription)", ExitStatus.cannotOpenInput)
    }
    do {
        return try ConfigurationLoader.load(text, file: path)
    } catch {
        throw failure(error.description, ExitStatus.badData)
    }
}

/// `gpio-debounce check --config FILE`.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check a configuration file for `run` and say what it sets up.")

    @Option(help: ArgumentHelp("The YAML configuration file.", valueName: "file"))
    var config: String

    func run() throws {
        let configuration = try loadConfiguration(config)
        print("\(config): OK: \(configuration.buttons.count) button(s), \(configuration.groups.count) group(s), \(configuration.buttons.reduce(0) { $0 + $1.actions.count }) action(s)")
        for button in configuration.buttons {
            var gestures: [String] = []
            if let hold = button.gestures.holdNs { gestures.append("hold \(DurationSyntax.format(hold))") }
            if let interval = button.gestures.repeatIntervalNs { gestures.append("repeat every \(DurationSyntax.format(interval))") }
            if let window = button.gestures.clickWindowNs { gestures.append("clicks within \(DurationSyntax.format(window)) (\(button.gestures.clickPolicy.rawValue))") }
            if let throttle = button.gestures.throttleNs { gestures.append("throttle \(DurationSyntax.format(throttle))") }
            if let group = button.group { gestures.append("group \(group)") }
            print("  \(button.name): \(button.chip ?? (Int(button.line) == nil ? "the chip that has" : LineLocator.defaultChip)) line \(button.line), bias \(button.bias.rawValue), press \(button.debounce.press), release \(button.debounce.release)\(gestures.isEmpty ? "" : "; " + gestures.joined(separator: ", "))")
            for action in button.actions {
                print("    on \(action.on.rawValue)\(action.count.map { " \($0)" } ?? ""): \(action.action.arguments.joined(separator: " "))")
            }
        }
    }
}
