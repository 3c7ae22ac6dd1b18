import DebounceCore

/// A picture's events: kept in a store, or computed from the edges on each pass.
package enum EventList: Sequence, Sendable {
    case stored(EventStore)
    case debounced(DebouncedEvents)

    package func makeIterator() -> Iterator {
        switch self {
        case .stored(let store): .stored(store.makeIterator())
        case .debounced(let events): .debounced(events.makeIterator())
        }
    }

    package enum Iterator: IteratorProtocol {
        case stored(EventStore.Iterator)
        case debounced(DebouncedEvents.Iterator)

        package mutating func next() -> ButtonEvent? {
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
