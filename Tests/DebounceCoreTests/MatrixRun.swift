import DebounceCore
import Simulation

/// A key matrix run with no event loop: `MatrixScanner` driven against `SimulatedMatrix`, each key's
/// raw changes through a `Debouncer` of its own. Row edges are handled the instant they happen.
struct MatrixRun {
    /// One planned press of a key: its contact closes at `pressNs` and opens at `releaseNs`, each with
    /// a burst of bounce after it (the contact is steady from `pressSteadyNs` and `releaseSteadyNs`).
    struct Press: Sendable, Hashable {
        var key: Int
        var pressNs: Int64
        var pressSteadyNs: Int64
        var releaseNs: Int64
        var releaseSteadyNs: Int64
    }

    /// A debounced event of one key.
    struct KeyEvent: Sendable, Hashable {
        var key: Int
        var event: ButtonEvent
    }

    /// The longest burst of bounce the generator makes, in nanoseconds.
    static let maximumBounceNs: Int64 = 5_000_000

    /// The edges of one transition to `level` at `startNs`: the first edge, then up to six pulses back
    /// at random times within a burst of up to `maximumBounceNs`, ending on `level`. Appends them to
    /// `edges` and returns when the contact is steady.
    static func bounce(to level: Level, at startNs: Int64, into edges: inout [Edge], using random: inout SplitMix64) -> Int64 {
        edges.append(Edge(level: level, timeNs: startNs))
        let pulses = Int.random(in: 0...6, using: &random)
        guard pulses > 0 else { return startNs }
        let lengthNs = Int64.random(in: 2 * Int64(pulses)...maximumBounceNs, using: &random)
        var times = (0..<(2 * pulses - 1)).map { _ in startNs + Int64.random(in: 1..<lengthNs, using: &random) }
        times.sort()
        times.append(startNs + lengthNs)
        var previousNs = startNs
        for (index, timeNs) in times.enumerated() {
            previousNs = max(timeNs, previousNs + 1)
            edges.append(Edge(level: index % 2 == 0 ? level.toggled : level, timeNs: previousNs))
        }
        return previousNs
    }

    /// Plans the bouncy contacts of presses of `keys` at `pressNs` held until `releaseNs` (same order).
    static func contacts(
        _ planned: [(key: Int, pressNs: Int64, releaseNs: Int64)], keyCount: Int, using random: inout SplitMix64
    ) -> (presses: [Press], contacts: [[Edge]]) {
        var contacts = [[Edge]](repeating: [], count: keyCount)
        var presses: [Press] = []
        for plan in planned.sorted(by: { $0.pressNs < $1.pressNs }) {
            let pressSteadyNs = bounce(to: .low, at: plan.pressNs, into: &contacts[plan.key], using: &random)
            let releaseSteadyNs = bounce(to: .high, at: plan.releaseNs, into: &contacts[plan.key], using: &random)
            presses.append(Press(key: plan.key, pressNs: plan.pressNs, pressSteadyNs: pressSteadyNs, releaseNs: plan.releaseNs, releaseSteadyNs: releaseSteadyNs))
        }
        return (presses, contacts)
    }

    private(set) var scanner: MatrixScanner
    private(set) var changes: [MatrixKeyChange] = []
    let matrix: SimulatedMatrix
    /// What the rows read under the scanner's drive.
    private var rows: UInt32 = 0
    /// How many row edges the scanner drained.
    private(set) var drainedEdges = 0

    init(_ configuration: MatrixConfiguration, contacts: [[Edge]]) {
        scanner = MatrixScanner(configuration)
        matrix = SimulatedMatrix(configuration: configuration, keyEdges: contacts)
    }

    /// The rows after a contact or drive change at `timeNs`: a change is a row edge, handled at once
    /// (and a drive it returns applied, which may move the rows again).
    private mutating func followRows(atNs timeNs: Int64) {
        while true {
            let newRows = matrix.rowsDown(drive: scanner.drive, atNs: timeNs)
            guard newRows != rows else { return }
            rows = newRows
            if scanner.rowEdge(atNs: timeNs, nowNs: timeNs) == nil { drainedEdges += 1 }
        }
    }

    /// Runs until no contact moves and the scanner waits for an edge. Contact changes at an instant
    /// come before a deadline at that instant.
    mutating func run() {
        var timeNs: Int64 = 0
        while true {
            let changeNs = matrix.nextChangeNs(after: timeNs)
            if let changeNs, scanner.deadlineNs.map({ changeNs <= $0 }) ?? true {
                timeNs = changeNs
                followRows(atNs: timeNs)
            } else if let deadlineNs = scanner.deadlineNs {
                timeNs = deadlineNs
                if scanner.due(nowNs: timeNs) == .readRows {
                    _ = scanner.rowsRead(rows, nowNs: timeNs, into: &changes)
                }
                followRows(atNs: timeNs)
            } else {
                return
            }
        }
    }

    /// The changes through one debouncer per key (`.low`: down), in the order decided.
    func debounced(_ configuration: DebounceConfiguration) -> [KeyEvent] {
        var debouncers = (0..<scanner.keysDown.count).map { _ in Debouncer(configuration: configuration, initialLevel: .high) }
        var events: [KeyEvent] = []
        for change in changes {
            if let event = debouncers[change.key].receive(Edge(level: change.isDown ? .low : .high, timeNs: change.timeNs)) {
                events.append(KeyEvent(key: change.key, event: event))
            }
        }
        for key in debouncers.indices {
            if let event = debouncers[key].finish() { events.append(KeyEvent(key: key, event: event)) }
        }
        return events.sorted { $0.event.timeNs < $1.event.timeNs }
    }
}
