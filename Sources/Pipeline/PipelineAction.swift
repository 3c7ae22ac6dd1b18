import DebounceCore

/// What the pipeline asks of the loop before a step (`ButtonPipeline.advance(toNs:into:)`,
/// `ButtonPipeline.stop(atNs:)`) can go on, as a state machine returns its actions: the pipeline
/// does no I/O, so it names the I/O it needs and the loop does it.
public enum PipelineAction: Sendable {
    /// The step is done.
    case done
    /// Lines may have lost edges and their levels matter now: read each of `request.lines` (in its
    /// order, `LevelRequest.read(_:)`) and answer with `ButtonPipeline.resume(_:into:)`, which makes
    /// the rest of the step. Nothing of the step was done yet.
    case readLevels(LevelRequest)
}

/// The lines whose levels the pipeline needs read, and, once the loop has read them, their levels.
public struct LevelRequest: Sendable {
    /// Which step waits for the levels.
    enum Step: Sendable {
        /// The decisions due by this time, in nanoseconds (`advance(toNs:into:)`).
        case advance(toNs: Int64)
        /// A stopping run's last look at its raw lines, at this time in nanoseconds (`stop(atNs:)`).
        case stop(atNs: Int64)
    }

    /// The lines to read, in ascending order.
    public private(set) var lines: [Int] = []
    /// Their levels as read, one for each of `lines` once `read(_:)` has run.
    public private(set) var levels: [Level] = []
    var step = Step.advance(toNs: 0)

    /// Reads the level of each of `lines` in order with `level`, keeping what it returns.
    public mutating func read<Failure: Error>(_ level: (_ line: Int) throws(Failure) -> Level) throws(Failure) {
        levels.removeAll(keepingCapacity: true)
        for line in lines { levels.append(try level(line)) }
    }

    /// Empties the request for `step` (keeping its storage).
    mutating func reset(for step: Step) {
        self.step = step
        lines.removeAll(keepingCapacity: true)
        levels.removeAll(keepingCapacity: true)
    }

    /// Adds `line` to the lines to read (lines are added in ascending order).
    mutating func append(_ line: Int) { lines.append(line) }
}
