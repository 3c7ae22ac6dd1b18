import DebounceCore

/// Code entry (`CodePlan`): after each step, the presses of keys that belong to a code go to their
/// keypad's `CodeCollector`, and a completed code follows them (`PipelineOutput.code`, its text in
/// `enteredCodes` until the loop has handed it out).
extension ButtonPipeline {
    /// The code `mark` names, while it is in `enteredCodes`.
    public func enteredCode(_ mark: CodeMark) -> EnteredCode? {
        enteredCodes.indices.contains(Int(mark.index)) ? enteredCodes[Int(mark.index)] : nil
    }

    /// Forgets the codes entered so far: the loop calls it once their outputs are handed out, so a
    /// code's text stays no longer than its wakeup.
    public mutating func removeEnteredCodes() {
        enteredCodes.removeAll(keepingCapacity: true)
    }

    /// One keypad's collector, and what its codes name: its input and its first key's line.
    @usableFromInline struct CodeState: Sendable {
        var collector: CodeCollector
        let source: OutputSource
    }

    /// The code key of each line (index into `codes`, and the key), nil for a line that is none.
    struct CodeKey: Sendable {
        let code: Int
        let key: Character
    }

    /// The collectors of `plans`, and each line's code key, for a pipeline of `lineCount` lines.
    static func codeStates(_ plans: [CodePlan], lineCount: Int) -> (codes: [CodeState], codeKeyOfLine: [CodeKey?]) {
        var codeKeyOfLine: [CodeKey?] = plans.isEmpty ? [] : Array(repeating: nil, count: lineCount)
        for (index, plan) in plans.enumerated() {
            for key in plan.keys where codeKeyOfLine.indices.contains(key.line) { codeKeyOfLine[key.line] = CodeKey(code: index, key: key.key) }
        }
        let states = plans.map { CodeState(collector: CodeCollector($0.configuration), source: OutputSource(input: $0.input, line: $0.keys.first?.line ?? 0)) }
        return (states, codeKeyOfLine)
    }

    /// The presses among `outputs[start...]` to their collectors; a completed code is appended.
    /// Nothing at all without codes.
    @usableFromInline
    mutating func collectCodes(from start: Int, into outputs: inout [PipelineOutput]) {
        guard !codes.isEmpty else { return }
        let end = outputs.count
        var index = start
        while index < end {
            if case .event(let source, let event) = outputs[index], event.kind == .press, let codeKey = codeKeyOfLine[source.lineIndex],
                let entered = codes[codeKey.code].collector.press(codeKey.key, atNs: event.timeNs)
            {
                outputs.append(.code(codes[codeKey.code].source, CodeMark(index: enteredCodes.count, length: entered.code.count, timeNs: entered.timeNs)))
                enteredCodes.append(entered)
            }
            index += 1
        }
    }
}
