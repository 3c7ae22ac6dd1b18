extension ButtonPipeline {
    /// Applies `command` at `timeNs` (the loop's time of the wakeup that took it) and appends what it
    /// changed: a counter's `.totalReset`, an encoder's `.positionReset`. Returns false, with nothing
    /// appended, when no counter or encoder of this pipeline is that input.
    public mutating func apply(_ command: PipelineCommand, atNs timeNs: Int64, into outputs: inout [PipelineOutput]) -> Bool {
        switch command {
        case .reset(let input, let value):
            if let index = encoders.firstIndex(where: { $0.source.inputIndex == input }) {
                encoders[index].decoder.reset(to: Int(clamping: value))
                outputs.append(.positionReset(encoders[index].source, position: encoders[index].decoder.position, atNs: timeNs))
                return true
            }
            for line in lines.indices where lines[line].input == Int32(truncatingIfNeeded: input) {
                guard case .counter(let follower) = lines[line].follower else { continue }
                outputs.append(.totalReset(source(of: line), counters[follower].counter.reset(total: value, atNs: timeNs)))
                return true
            }
            return false
        }
    }
}
