import DebounceCore

/// A picture's events: kept in a store, or computed from the edges on each pass.
public enum EventList: Sequence, Sendable {
    case stored(EventStore)
    case debounced(DebouncedEvents)

    public func makeIterator() -> Iterator {
        switch self {
        case .stored(let store): .stored(store.makeIterator())
        case .debounced(let events): .debounced(events.makeIterator())
        }
    }

    public enum Iterator: IteratorProtocol {
        case stored(EventStore.Iterator)
        case debounced(DebouncedEvents.Iterator)

        public mutating func next() -> ButtonEvent? {
            switch self {
            case .stored(var iterator):
                let event = iterator.next()
                self = .stored(iterator)
                return event
            case .debounced(var iterator):
                let event = iterator.next()
                self = .debounced(iterator)
                return event
            }
        }
    }
}
