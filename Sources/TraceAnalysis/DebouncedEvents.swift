import DebounceCore
import Pipeline

/// The events the pipeline reports for the edges of an `EdgeStore` (the same `ButtonPipeline` as a live
/// line's and `replay`'s, so that `analyze` and `watch` agree: a trace that starts held gives no
/// release without a press), computed again on each pass instead of kept: a picture of a whole trace
/// reads them a few times, and holding them would cost memory per event (a clean square wave has an
/// event per edge). A pass costs one run of the pipeline over the edges.
package struct DebouncedEvents: Sequence, Sendable {
    package let edges: EdgeStore
    package let configuration: DebounceConfiguration
    /// The raw level before the first edge, and when it was read, in nanoseconds.
    package let initialLevel: Level
    package let initialNs: Int64

    package init(edges: EdgeStore, configuration: DebounceConfiguration, initialLevel: Level, initialNs: Int64) {
        self.edges = edges
        self.configuration = configuration
        self.initialLevel = initialLevel
        self.initialNs = initialNs
    }

    package func makeIterator() -> Iterator {
        Iterator(
            edges: edges.makeIterator(),
            pipeline: ButtonPipeline(plans: [LinePlan(debounce: configuration)], initialLevels: [initialLevel], atNs: initialNs))
    }

    package struct Iterator: IteratorProtocol {
        var edges: EdgeStore.Iterator
        var pipeline: ButtonPipeline
        /// What the latest edge gave, read from `nextOutput` on.
        var outputs: [PipelineOutput] = []
        var nextOutput = 0
        var finished = false

        package mutating func next() -> ButtonEvent? {
            while true {
                while nextOutput < outputs.count {
                    nextOutput += 1
                    if case .event(_, let event) = outputs[nextOutput - 1] { return event }
                }
                outputs.removeAll(keepingCapacity: true)
                nextOutput = 0
                if let edge = edges.next() {
                    pipeline.receive(LineEdge(line: 0, edge: edge), into: &outputs)
                } else if !finished {
                    finished = true
                    pipeline.finish(into: &outputs)
                } else {
                    return nil
                }
            }
        }
    }
}
