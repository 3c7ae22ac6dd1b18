import DebounceCore
import InputModel
import LinuxSys
import Pipeline
import Settings

/// The pure part of the keyboard: debounced events in, key reports out (each report a list of key
/// changes the device sends followed by one `SYN_REPORT`). No I/O and no clock: it keeps which keys
/// are down, so that every key that goes down comes up (at the release, or at `releaseAll()`), and a
/// key held by two buttons comes up only when both let go.
package struct KeyMapping: Sendable {
    /// The bindings of each input, with what its outputs are (`InputPresenter.actionOccasion(for:)`).
    private let inputs: BoundInputs<InputKeyBinding>
    /// Per run line: the keys its held bindings put down, in the order they went down.
    private var heldByLine: [Int: [UInt16]] = [:]
    /// Per key: how many holds (and taps in progress) keep it down; absent when it is up.
    private var holders: [UInt16: Int] = [:]
    /// The keys that are down, in the order they went down.
    private var downOrder: [UInt16] = []

    /// The keys `bindings` send for the outputs of `inputs` (bindings of other inputs are ignored).
    package init(bindings: [InputKeyBinding], inputs: [any InputPresenter]) {
        self.inputs = BoundInputs(bindings.filter { !$0.keys.isEmpty || $0.axis != nil }, input: \.input, inputs: inputs)
    }

    /// Every key any binding uses, each once, in increasing order (what the device must declare).
    package static func keys(of bindings: [InputKeyBinding]) -> [UInt16] {
        Set(bindings.flatMap(\.keys)).sorted()
    }

    /// Every relative axis the bindings move, each once (what the device must declare besides its keys).
    package static func relativeAxes(of bindings: [InputKeyBinding]) -> [UInt16] {
        Set(bindings.compactMap(\.axis)).sorted()
    }

    /// Whether any key is down now.
    package var isAnyKeyDown: Bool { !holders.isEmpty }

    /// The reports for one output of the pipeline, in order, and when the output was decided
    /// (nanoseconds); none for outputs without keys.
    package mutating func reports(for output: PipelineOutput) -> (reports: [[KeyChange]], timeNs: Int64) {
        guard let source = output.source, let (input, bindings) = inputs.bound(source), let occasion = input.actionOccasion(for: output) else {
            return ([], 0)
        }
        let line = source.lineIndex
        var reports: [[KeyChange]] = []
        if occasion.releasesHeldKeys, let held = heldByLine.removeValue(forKey: line) {
            reports.append(lift(held.reversed()))
        }
        for binding in bindings where occasion.answers(binding.on, count: binding.count, boundLine: binding.line, line: line) {
            if let axis = binding.axis {
                reports.append([KeyChange(axis: axis, value: Int32(clamping: occasion.step))])
            } else if binding.isHeld {
                reports.append(push(binding.keys))
                heldByLine[line, default: []] += binding.keys
            } else {
                reports.append(push(binding.keys))
                reports.append(lift(binding.keys.reversed()))
            }
        }
        return (reports.filter { !$0.isEmpty }, occasion.timeNs)
    }

    /// Lifts every key still down, in one report, the last down first (at shutdown, so that no key
    /// stays pressed).
    package mutating func releaseAll() -> [KeyChange] {
        let changes = downOrder.reversed().map { KeyChange(code: $0, down: false) }
        holders = [:]
        downOrder = []
        heldByLine = [:]
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
