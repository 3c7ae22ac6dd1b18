#if canImport(Glibc)
import Glibc
#endif
import GPIODebounce

// Double-click toggles the lights, a 2-second hold turns everything off. Pass a line (default 17),
// or "simulate" to try it without hardware.
let line = CommandLine.arguments.dropFirst().first ?? "17"
let gestures = GestureConfiguration(holdNs: 2_000_000_000, clickWindowNs: 400_000_000, clickPolicy: .exclusive)
let button = line == "simulate" ? Button.simulated(presses: 6, gestures: gestures) : Button(line: line, gestures: gestures)

/// Writes `message` and a newline to standard error.
func printError(_ message: String) {
    let line = Array((message + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

var lightsOn = false
do {
    for try await event in button.events {
        switch event.kind {
        case .click where event.count == 2: lightsOn.toggle(); print("lights \(lightsOn ? "on" : "off")")
        case .hold: lightsOn = false; print("all off")
        default: print(event.kind, "at", event.timeNs, "ns")
        }
    }
} catch let error as GPIOError {
    // The message says what to do (join the gpio group, pick another line, ...).
    printError("button-lights: \(error)")
    switch error {
    case .permissionDenied: exit(77)
    case .lineBusy: exit(75)
    default: exit(66)
    }
} catch {
    printError("button-lights: \(error)")
    exit(74)
}
