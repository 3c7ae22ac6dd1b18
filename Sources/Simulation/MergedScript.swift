import DebounceCore
import Pipeline

/// One script of edges for several lines (in time order, each edge with its line), split into one
/// script per line for `SimulatedLines`: each line's script pulls from the shared one, keeping the
/// other lines' edges until they are asked for (a few at a time, as `SimulatedLines` reads one edge
/// ahead per line).
final class MergedScript<Script: IteratorProtocol<LineEdge>> {
    private var script: Script
    private var waiting: [[Edge]]
    private var waitingStart: [Int]

    init(_ script: Script, lineCount: Int) {
        self.script = script
        self.waiting = Array(repeating: [], count: lineCount)
        self.waitingStart = Array(repeating: 0, count: lineCount)
    }

    /// `line`'s next edge, or `nil` when the shared script has ended.
    func next(line: Int) -> Edge? {
        while waitingStart[line] == waiting[line].count {
            waiting[line].removeAll(keepingCapacity: true)
            waitingStart[line] = 0
            guard let lineEdge = script.next() else { return nil }
            guard waiting.indices.contains(lineEdge.line) else { continue }
            waiting[lineEdge.line].append(lineEdge.edge)
        }
        defer { waitingStart[line] += 1 }
        return waiting[line][waitingStart[line]]
    }

    /// One line's view of the shared script.
    struct Line: IteratorProtocol {
        let script: MergedScript
        let line: Int
        mutating func next() -> Edge? { script.next(line: line) }
    }
}

extension SimulatedLines {
    /// Lines that read `initialLevels` at the start and then follow one script for all of them (each
    /// edge with its line, in time order), such as a `BouncyEncoder`'s.
    package convenience init<Script: IteratorProtocol<LineEdge>>(
        initialLevels: [Level], script: Script, startNs: Int64 = 0, dropProbability: Double = 0, seed: UInt64 = 0
    ) {
        let merged = MergedScript(script, lineCount: initialLevels.count)
        self.init(
            initialLevels: initialLevels, scripts: initialLevels.indices.map { MergedScript.Line(script: merged, line: $0) }, startNs: startNs,
            dropProbability: dropProbability, seed: seed)
    }
}

extension SimulatedLines {
    /// Simulated inputs, each on as many lines as it plays (a button one, an encoder two: A, B), in
    /// the order given: line `i` of the simulation is the `i`-th line of that list, so a
    /// caller that lists its inputs in its own line order (a configuration's roster) gets its lines back.
    package convenience init(inputs: [SimulatedInput], startNs: Int64 = 0) {
        var levels: [Level] = []
        var scripts: [any IteratorProtocol<Edge>] = []
        for input in inputs {
            switch input {
            case .line(let initialLevel, let script):
                levels.append(initialLevel)
                scripts.append(script)
            case .lines(let initialLevels, let script):
                levels += initialLevels
                scripts += Self.lineScripts(script, lineCount: initialLevels.count)
            }
        }
        self.init(initialLevels: levels, scripts: scripts, startNs: startNs)
    }

    /// One script per line of `lineCount`, each pulling from `script` (one script of all of them).
    private static func lineScripts<Script: IteratorProtocol<LineEdge>>(_ script: Script, lineCount: Int) -> [any IteratorProtocol<Edge>] {
        let merged = MergedScript(script, lineCount: lineCount)
        return (0..<lineCount).map { MergedScript.Line(script: merged, line: $0) }
    }
}
