import DebounceCore

/// Debounced events kept compactly, for a picture of a whole trace: per event its kind (1 byte), its
/// decision time minus the previous event's (zigzag), its decision minus its onset, and its click
/// count, each as a `VariableLengthCode`: about 6 bytes an event, against 32 for a
/// `ButtonEvent` in an array. Read in order, as often as needed.
package struct EventStore: Sendable, Sequence {
    private var code: [UInt8] = []
    /// How many events the store holds.
    package private(set) var count = 0
    private var lastNs: Int64 = 0

    /// An empty store.
    package init() {}

    /// A store of `events`, in their order.
    package init(_ events: some Sequence<ButtonEvent>) {
        for event in events { append(event) }
    }

    /// Adds `event` after the last one.
    package mutating func append(_ event: ButtonEvent) {
        code.append(UInt8(ButtonEvent.Kind.allCases.firstIndex(of: event.kind) ?? 0))
        let difference = event.timeNs &- lastNs
        VariableLengthCode.append(VariableLengthCode.zigzag(difference), to: &code)
        VariableLengthCode.append(UInt64(bitPattern: event.timeNs &- event.onsetNs), to: &code)
        VariableLengthCode.append(UInt64(bitPattern: Int64(event.count)), to: &code)
        lastNs = event.timeNs
        count += 1
    }

    package func makeIterator() -> Iterator { Iterator(code: code) }

    package struct Iterator: IteratorProtocol {
        let code: [UInt8]
        var offset = 0
        var lastNs: Int64 = 0

        mutating func take() -> UInt64 { VariableLengthCode.read(code, at: &offset) }

        package mutating func next() -> ButtonEvent? {
            guard offset < code.count else { return nil }
            let kinds = ButtonEvent.Kind.allCases
            let kindIndex = Int(code[offset])
            offset += 1
            let zigzag = take()
            let timeNs = lastNs &+ VariableLengthCode.unzigzag(zigzag)
            lastNs = timeNs
            let onsetNs = timeNs &- Int64(bitPattern: take())
            let count = Int(truncatingIfNeeded: Int64(bitPattern: take()))
            return ButtonEvent(
                kind: kinds[kindIndex < kinds.count ? kindIndex : 0], timeNs: timeNs, onsetNs: onsetNs, count: count)
        }
    }
}
