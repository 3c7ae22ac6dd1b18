import DebounceCore
import LinuxSys
import SystemPackage

/// Several sources as one, their lines one after the other: the first source's lines are lines
/// `0..<first.lineCount`, the next source's follow, and so on (a configuration's pins, then each
/// keypad's keys). Its descriptors are theirs in the same order; each source reads its own.
///
/// The first source writes into the loop's batch directly (its line numbers are the run's); the
/// others write into a batch of this object's own, whose edges and losses are moved over with their
/// lines shifted. The descriptors are concatenated again only when a source's change (a chip that
/// went away or came back), so that the loop's look at them each wakeup allocates nothing.
package final class CompositeEdgeSource: EdgeSource {
    package let sources: [any EdgeSource]
    /// Where each source's lines start among the run's.
    private let lineBase: [Int]
    // Read or written at every wakeup, from the loop's thread only, never with overlapping accesses:
    // `@exclusivity(unchecked)`, as `GPIODLines`' properties (the runtime's check costs hundreds of
    // instructions an access).
    /// Each source's descriptors as last concatenated, and where they start in `descriptors`.
    @exclusivity(unchecked) private var sourceDescriptors: [[FileDescriptor]]
    @exclusivity(unchecked) private var descriptorBase: [Int] = []
    @exclusivity(unchecked) package private(set) var descriptors: [FileDescriptor] = []
    /// The batch the sources after the first read into.
    @exclusivity(unchecked) private var scratch = EdgeBatch()

    /// `sources`, in the run's line order (at least one).
    package init(_ sources: [any EdgeSource]) {
        precondition(!sources.isEmpty, "at least one source")
        self.sources = sources
        var base = 0
        lineBase = sources.map { source in
            defer { base += source.lineCount }
            return base
        }
        sourceDescriptors = sources.map(\.descriptors)
        concatenateDescriptors()
    }

    package var lineCount: Int { sources.reduce(0) { $0 + $1.lineCount } }

    package var nextDueNs: Int64? {
        var due: Int64?
        for source in sources { if let next = source.nextDueNs { due = min(due ?? next, next) } }
        return due
    }

    package var isExhausted: Bool { sources.allSatisfy(\.isExhausted) }

    /// The sources' descriptors, refreshed when one of them changed.
    private func refreshDescriptors() {
        var changed = false
        for (index, source) in sources.enumerated() where source.descriptors != sourceDescriptors[index] {
            sourceDescriptors[index] = source.descriptors
            changed = true
        }
        if changed { concatenateDescriptors() }
    }

    private func concatenateDescriptors() {
        descriptors = sourceDescriptors.flatMap { $0 }
        var base = 0
        descriptorBase = sourceDescriptors.map { list in
            defer { base += list.count }
            return base
        }
    }

    /// The source of run line `line`, and the line's number in it.
    private func locate(line: Int) -> (source: Int, line: Int) {
        var index = sources.count - 1
        while index > 0, lineBase[index] > line { index -= 1 }
        return (index, line - lineBase[index])
    }

    package func rehearse() {
        for source in sources { source.rehearse() }
    }

    package func readLevel(line: Int) throws(LineError) -> Level {
        let (source, local) = locate(line: line)
        return try sources[source].readLevel(line: local)
    }

    package func lostEvents(line: Int) -> Int? {
        let (source, local) = locate(line: line)
        return sources[source].lostEvents(line: local)
    }

    package func isRarelyReady(descriptor: Int) -> Bool {
        var index = sources.count - 1
        while index > 0, descriptorBase[index] > descriptor { index -= 1 }
        return sources[index].isRarelyReady(descriptor: descriptor - descriptorBase[index])
    }

    package func readReady(descriptor: Int, events: PollEvents, into batch: inout EdgeBatch) throws(LineError) {
        var index = sources.count - 1
        while index > 0, descriptorBase[index] > descriptor { index -= 1 }
        if index == 0 {
            try sources[0].readReady(descriptor: descriptor, events: events, into: &batch)
        } else {
            try sources[index].readReady(descriptor: descriptor - descriptorBase[index], events: events, into: &scratch)
            moveScratch(from: index, into: &batch)
        }
        refreshDescriptors()
    }

    package func deliverDue(byNs timeNs: Int64, into batch: inout EdgeBatch) throws(LineError) {
        try sources[0].deliverDue(byNs: timeNs, into: &batch)
        for index in sources.indices.dropFirst() {
            try sources[index].deliverDue(byNs: timeNs, into: &scratch)
            moveScratch(from: index, into: &batch)
        }
        refreshDescriptors()
    }

    /// `scratch`'s edges, losses and chips, their lines shifted to source `index`'s place, into `batch`.
    private func moveScratch(from index: Int, into batch: inout EdgeBatch) {
        let base = lineBase[index]
        for lineEdge in scratch.edges { batch.edges.append(LineEdge(line: lineEdge.line + base, edge: lineEdge.edge)) }
        for loss in scratch.losses { batch.losses.append((loss.line + base, loss.count)) }
        for change in scratch.availability {
            batch.availability.append(ChipAvailability(chip: change.chip, lines: change.lines.map { $0 + base }, isAvailable: change.isAvailable))
        }
        scratch.removeAll()
    }
}
