import DebounceCore

// A press that bounces three times over 1.2 ms, held 80 ms, then a release with one bounce: raw edges
// (level, nanoseconds), as a GPIO line or a logic analyzer would report them.
let edges: [(Level, Int64)] = [
    (.low, 1_000_000), (.high, 1_300_000), (.low, 1_700_000), (.high, 2_000_000), (.low, 2_200_000),
    (.high, 82_200_000), (.low, 82_500_000), (.high, 82_900_000),
]
do {
    let strategy = try DebounceStrategy(parsing: "defer:10ms")
    var debouncer = Debouncer(configuration: DebounceConfiguration(both: strategy), initialLevel: .high)
    for (level, timeNs) in edges {
        if let event = debouncer.receive(Edge(level: level, timeNs: timeNs)) { report(event) }
    }
    if let event = debouncer.finish() { report(event) }
} catch {
    print("bounce-core: \(error)")
}

/// Prints an event: what, when it was decided and when the contact first moved.
func report(_ event: ButtonEvent) {
    print(event.kind, "decided at", DurationSyntax.approximate(event.timeNs), "began at", DurationSyntax.approximate(event.onsetNs))
}
