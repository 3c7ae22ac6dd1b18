import DebounceCore

/// The events a debouncer reports for the edges of an `EdgeStore`, computed again on each pass
/// instead of kept: a picture of a whole trace reads them a few times, and holding them would cost
/// memory per event (a clean square wave has an event per edge). A pass costs one run of the
/// debouncer, about 10 ns an edge.
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
            debouncer: Debouncer(configuration: configuration, initialLevel: initialLevel, atNs: initialNs))
    }

    package struct Iterator: IteratorProtocol {
        var edges: EdgeStore.Iterator
        var debouncer: Debouncer
        var finished = false

        package mutating func next() -> ButtonEvent? {
            while let edge = edges.next() {
                if let event = debouncer.receive(edge) { return event }
            }
            guard !finished else { return nil }
            finished = true
            return debouncer.finish()
        }
    }
}
