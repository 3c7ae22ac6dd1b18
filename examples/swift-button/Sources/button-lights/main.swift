import GPIODebounce

// Double-click toggles the lights, a 2-second hold turns everything off. Pass a line (default 17),
// or "simulate" to try it without hardware.
let line = CommandLine.arguments.dropFirst().first ?? "17"
let gestures = GestureConfiguration(holdNs: 2_000_000_000, clickWindowNs: 400_000_000, clickPolicy: .exclusive)
let button = line == "simulate" ? Button.simulated(presses: 6, gestures: gestures) : Button(line: line, gestures: gestures)

var lightsOn = false
for try await event in button.events {
    switch event.kind {
    case .click where event.count == 2: lightsOn.toggle(); print("lights \(lightsOn ? "on" : "off")")
    case .hold: lightsOn = false; print("all off")
    default: print(event.kind, "at", event.timeNs, "ns")
    }
}
