import DebounceCore

/// The bursts of a picture: shaded bands behind both rows.
extension TraceSVG {
    /// Which bursts are shaded: the spans given, or those found by splitting the edges at quiet gaps.
    enum BurstShading: Sendable {
        case spans([(startNs: Int64, endNs: Int64)])
        case splitAt(quietGapNs: Int64)
    }

    /// The bursts to shade, as first and last edge times in nanoseconds, in order.
    func forEachBurst(_ body: (_ startNs: Int64, _ endNs: Int64) -> Void) {
        switch burstShading {
        case .spans(let spans):
            for span in spans { body(span.startNs, span.endNs) }
        case .splitAt(let quietGapNs):
            for burst in StoredBursts(store: edges, initialLevel: initialLevel, quietGapNs: quietGapNs) {
                body(burst.startNs, burst.endNs)
            }
        }
    }

    /// Whether any burst is shaded.
    var hasBursts: Bool {
        switch burstShading {
        case .spans(let spans): !spans.isEmpty
        case .splitAt: !edges.isEmpty
        }
    }

    /// Light bands behind both rows over each burst, merged where they touch.
    func renderBursts(into out: inout String, layout: Layout, scale: TimeScale) {
        guard hasBursts else { return }
        let top = layout.rawHighY - 6
        let height = layout.debouncedLowY + 6 - top
        var pending: (left: Double, right: Double)?
        var d = ""
        func flush() {
            guard let (left, right) = pending else { return }
            d += "M\(Self.number(left)) \(Self.number(top))h\(Self.number(right - left))v\(Self.number(height))"
            d += "h\(Self.number(left - right))z"
        }
        forEachBurst { startNs, endNs in
            guard endNs >= fromNs && startNs <= scale.toNs else { return }
            var left = scale.x(startNs)
            var right = scale.x(endNs)
            if right - left < 3 {  // at least 3 px, so a burst shows at any zoom
                let mid = (left + right) / 2
                left = max(layout.plotLeft, mid - 1.5)
                right = min(layout.plotRight, mid + 1.5)
            }
            if let current = pending, left <= current.right + 1 {
                pending = (current.left, max(current.right, right))
            } else {
                flush()
                pending = (left, right)
            }
        }
        flush()
        if !d.isEmpty { out += "<path id=\"bursts\" d=\"\(d)\" fill=\"\(Self.burstFill)\"/>\n" }
    }
}
