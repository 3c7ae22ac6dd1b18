/// Every line's `EventFields`, copied once into memory this table owns (allocated in `init`, freed in
/// `deinit`), so that a line's fields reach `EventWriter` as buffer pointers: no array is copied and
/// nothing is reference-counted per event. The pointers it returns are valid while the table lives.
/// Its two accessors are inlined into the caller (`EventPrinter`): each call that is not costs the
/// loop's path a call and a return, which an emulated CPU pays dearly for after a context switch.
package final class EventFieldTable {
    /// Where one line's bytes are in `bytes`.
    @usableFromInline
    struct Span {
        @usableFromInline var jsonStart: Int
        @usableFromInline var jsonCount: Int
        @usableFromInline var textStart: Int
        @usableFromInline var textCount: Int
    }

    /// Every line's JSON bytes then text bytes, line after line.
    @usableFromInline let bytes: UnsafeMutableBufferPointer<UInt8>
    /// One span per line, in line order.
    @usableFromInline let spans: UnsafeMutableBufferPointer<Span>

    /// A table of `fields`, line `i`'s at index `i`.
    package init(_ fields: [EventFields]) {
        var allBytes: [UInt8] = []
        var allSpans: [Span] = []
        for lineFields in fields {
            let jsonStart = allBytes.count
            allBytes += lineFields.json
            allBytes += lineFields.text
            allSpans.append(Span(jsonStart: jsonStart, jsonCount: lineFields.json.count, textStart: jsonStart + lineFields.json.count, textCount: lineFields.text.count))
        }
        bytes = .allocate(capacity: allBytes.count)
        _ = bytes.initialize(from: allBytes)
        spans = .allocate(capacity: allSpans.count)
        _ = spans.initialize(from: allSpans)
    }

    deinit {
        bytes.deallocate()
        spans.deallocate()
    }

    /// `,"key":value` for each of `line`'s fields (`EventFields.json`).
    @inlinable @inline(__always)
    package func json(line: Int) -> UnsafeBufferPointer<UInt8> {
        let span = spans[line]
        return UnsafeBufferPointer(rebasing: bytes[span.jsonStart..<span.jsonStart + span.jsonCount])
    }

    /// ` key=value` for each of `line`'s fields (`EventFields.text`).
    @inlinable @inline(__always)
    package func text(line: Int) -> UnsafeBufferPointer<UInt8> {
        let span = spans[line]
        return UnsafeBufferPointer(rebasing: bytes[span.textStart..<span.textStart + span.textCount])
    }
}
