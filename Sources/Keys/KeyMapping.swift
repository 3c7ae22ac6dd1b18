import DebounceCore
import LinuxSys
import Pipeline
import Settings

/// The pure part of the keyboard: debounced events in, key reports out (each report a list of key
/// changes the device sends followed by one `SYN_REPORT`). No I/O and no clock: it keeps which keys
/// are down, so that every key that goes down comes up (at the release, or at `releaseAll()`), and a
/// key held by two buttons comes up only when both let go.
package struct KeyMapping: Sendable {
    private let bindingsOfLine: [[KeyBinding]]
    /// Per encoder, by its input (`OutputSource.input`): the keys a detent taps each way.
    private let encoderKeys: [Int: EncoderKeyBinding]
    /// Per line: the keys its held bindings put down, in the order they went down.
    private var heldByLine: [[UInt16]]
    /// Per key: how many holds (and taps in progress) keep it down; absent when it is up.
    private var holders: [UInt16: Int] = [:]
    /// The keys that are down, in the order they went down.
    private var downOrder: [UInt16] = []

    /// `lineCount` lines (the loop's line order); bindings of other lines are ignored.
    package init(bindings: [KeyBinding], encoderBindings: [EncoderKeyBinding] = [], lineCount: Int) {
        var byLine = Array(repeating: [KeyBinding](), count: lineCount)
        for binding in bindings where byLine.indices.contains(binding.line) && !binding.keys.isEmpty {
            byLine[binding.line].append(binding)
        }
        bindingsOfLine = byLine
        encoderKeys = Dictionary(encoderBindings.map { ($0.input, $0) }, uniquingKeysWith: { first, _ in first })
        heldByLine = Array(repeating: [], count: lineCount)
    }

    /// Every key any binding uses, each once, in increasing order (what the device must declare).
    package static func keys(of bindings: [KeyBinding], encoders: [EncoderKeyBinding] = []) -> [UInt16] {
        Set(bindings.flatMap(\.keys) + encoders.flatMap { $0.clockwise + $0.counterClockwise }).sorted()
    }

    /// Every relative axis the encoders use, each once (what the device must declare besides its keys).
    package static func relativeAxes(of encoders: [EncoderKeyBinding]) -> [UInt16] {
        Set(encoders.compactMap(\.axis)).sorted()
    }

    /// Whether any key is down now.
    package var isAnyKeyDown: Bool { !holders.isEmpty }

    /// The reports for one output of the pipeline, in order; none for outputs without keys.
    package mutating func reports(for output: PipelineOutput) -> [[KeyChange]] {
        if case .rotation(let source, let detent) = output {
            // A detent taps its direction's keys: down, then up, as two reports.
            guard let binding = encoderKeys[source.inputIndex] else { return [] }
            if let axis = binding.axis {
                // A relative axis moves by the detent's increment (1, or the acceleration factor), up clockwise.
                let step = Int32(clamping: detent.increment)
                return [[KeyChange(axis: axis, value: detent.direction == .clockwise ? step : -step)]]
            }
            let keys = detent.direction == .clockwise ? binding.clockwise : binding.counterClockwise
            return [push(keys), lift(keys.reversed())].filter { !$0.isEmpty }
        }
        guard case .event(let source, let event) = output, bindingsOfLine.indices.contains(source.lineIndex) else { return [] }
        let line = source.lineIndex
        var reports: [[KeyChange]] = []
        if event.kind == .release {
            reports.append(lift(heldByLine[line].reversed()))
            heldByLine[line] = []
        }
        for binding in bindingsOfLine[line] where binding.on == event.kind && (binding.count == nil || binding.count == event.count) {
            if binding.isHeld {
                reports.append(push(binding.keys))
                heldByLine[line] += binding.keys
            } else {
                reports.append(push(binding.keys))
                reports.append(lift(binding.keys.reversed()))
            }
        }
        return reports.filter { !$0.isEmpty }
    }

    /// Lifts every key still down, in one report, the last down first (at shutdown, so that no key
    /// stays pressed).
    package mutating func releaseAll() -> [KeyChange] {
        let changes = downOrder.reversed().map { KeyChange(code: $0, down: false) }
        holders = [:]
        downOrder = []
        heldByLine = heldByLine.map { _ in [] }
        return changes
    }

    /// One more holder for each key; the changes for those that were up.
    private mutating func push(_ keys: [UInt16]) -> [KeyChange] {
        var changes: [KeyChange] = []
        for key in keys {
            let count = holders[key, default: 0]
            holders[key] = count + 1
            if count == 0 {
                changes.append(KeyChange(code: key, down: true))
                downOrder.append(key)
            }
        }
        return changes
    }

    /// One holder less for each key; the changes for those nobody holds any more.
    private mutating func lift(_ keys: some Sequence<UInt16>) -> [KeyChange] {
        var changes: [KeyChange] = []
        for key in keys {
            guard let count = holders[key] else { continue }
            if count <= 1 {
                holders[key] = nil
                downOrder.removeAll { $0 == key }
                changes.append(KeyChange(code: key, down: false))
            } else {
                holders[key] = count - 1
            }
        }
        return changes
    }
}
