import DebounceCore

/// Each line's level at the start of a run, reconciled with the edges the kernel had already queued
/// when the levels were read. Pure: the times are values the loop read.
///
/// A line is requested, then its level is read, then its clock is read (`readNs`). An edge the kernel
/// stamped at or before `readNs` may have happened before the level read, and then the level read
/// already shows it: taking that level as the start and the edge as the first change would make the
/// change vanish (a press that begins as the line is requested, reported as a button held at the
/// start and then only its release). So for a line whose first queued edge is stamped at or before
/// `readNs`, the start is the level before that edge (the opposite of the level the edge moved to),
/// and every queued edge is then a change from it. When the edge came after the read instead, the
/// level read is that same level (an edge moves the line away from the level it leaves), so the rule
/// holds wherever between the request and the clock reading the edge fell. A line whose first edge is
/// stamped after `readNs` starts at the level read.
///
/// This holds for every kind of input alike: a button's press is pressed and released, a change
/// with a delay is reported after it, a pulse is counted once, an encoder's decoder starts from the
/// levels before its first step, and a raw line starts at the level before its first edge.
package struct StartLevels: Sendable, Hashable {
    /// Each line's level at the start.
    package var levels: [Level]
    /// The lines whose level read is explained by a queued edge stamped before `readNs`, so that their
    /// start is not the level read.
    package var explainedLines: [Int]
    /// When the run's stages start: `readNs`, or the earliest queued edge's time if that is earlier, so
    /// that no edge is earlier than the stages' start.
    package var startNs: Int64

    /// Reconciles `read` (each line's level as read) with `queued` (edges read from the kernel's queue
    /// after the levels, in time order per line), `readNs` being the clock read after the levels, in
    /// nanoseconds of the clock the edges are stamped with.
    package init(read: [Level], readNs: Int64, queued: [LineEdge]) {
        var levels = read
        var explained: [Int] = []
        var seen = Array(repeating: false, count: read.count)
        var startNs = readNs
        for lineEdge in queued where read.indices.contains(lineEdge.line) {
            startNs = min(startNs, lineEdge.edge.timeNs)
            guard !seen[lineEdge.line] else { continue }
            seen[lineEdge.line] = true
            guard lineEdge.edge.timeNs <= readNs else { continue }
            let before = lineEdge.edge.level.toggled
            if before != levels[lineEdge.line] { explained.append(lineEdge.line) }
            levels[lineEdge.line] = before
        }
        self.levels = levels
        self.explainedLines = explained
        self.startNs = startNs
    }
}
