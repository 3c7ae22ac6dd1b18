/// What a reload changes between the roster that runs and the one read again: which inputs are kept
/// (the same name, kind and settings, lines included), which are added and which removed. An input
/// whose settings changed is removed and added again: it starts afresh. Pure: the daemon's reload
/// (`DaemonAssembly`) carries the kept inputs' state from their old lines to their new ones by it.
package struct RosterChange: Sendable {
    /// Each input of the new roster (its index in `Roster.inputs`): the index of the same input in the
    /// old roster when it is kept, `nil` when it is added (or changed).
    package let previousInput: [Int?]
    /// Each line of the new roster (its `LineID.index`): the same line of the same input in the old
    /// roster when its input is kept (a kept keypad's keys too: their scan goes on from their state),
    /// `nil` otherwise.
    package let previousLine: [Int?]
    /// The old roster's inputs (indices) that the new one has not kept: removed, or changed.
    package let dropped: [Int]
    /// The names of the inputs kept, added (new names), changed (the same name with other settings or
    /// another kind) and removed (names gone), each in its roster's order: what the log says.
    package let kept: [String], added: [String], changed: [String], removed: [String]

    /// The change from `old` to `new`, matching inputs by name (unique among a roster's inputs, whatever
    /// their kinds), then by kind (`InputID`) and settings.
    package init(from old: Roster, to new: Roster) {
        var oldByName: [String: Int] = [:]
        for (index, input) in old.inputs.enumerated() { oldByName[input.name] = index }
        var previousInput: [Int?] = []
        var previousLine: [Int?] = Array(repeating: nil, count: new.lines.count)
        var (kept, added, changed) = ([String](), [String](), [String]())
        var keptOld = Set<Int>()
        for input in new.inputs {
            guard let oldIndex = oldByName[input.name] else {
                previousInput.append(nil)
                added.append(input.name)
                continue
            }
            // Another kind under the same name, or the same kind with other settings: changed.
            guard old.inputs[oldIndex].id == input.id, old.inputs[oldIndex].settings.isSame(as: input.settings) else {
                previousInput.append(nil)
                changed.append(input.name)
                continue
            }
            previousInput.append(oldIndex)
            kept.append(input.name)
            keptOld.insert(oldIndex)
            for (newLine, oldLine) in zip(input.lines, old.inputs[oldIndex].lines) { previousLine[newLine.index] = oldLine.index }
        }
        let newNames = Set(new.inputs.map(\.name))
        self.previousInput = previousInput
        self.previousLine = previousLine
        self.dropped = old.inputs.indices.filter { !keptOld.contains($0) }
        self.kept = kept
        self.added = added
        self.changed = changed
        self.removed = old.inputs.map(\.name).filter { !newNames.contains($0) }
    }

    /// Whether nothing changed: every input kept, in the same order.
    package var isNone: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty && previousInput.enumerated().allSatisfy { $0.element == $0.offset } }
}
