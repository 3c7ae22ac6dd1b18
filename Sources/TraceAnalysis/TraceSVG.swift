import DebounceCore

/// A picture of a trace: the raw GPIO level and the debounced state on one time axis, as a
/// standalone SVG 1.1 document (no scripts, no external fonts: plain `sans-serif`).
///
/// Two rows share the time axis:
/// - **raw**: the line level as a step waveform, every edge drawn. Where several edges fall in one
///   pixel column the column is filled from low to high, so bounce shows as a dense block and the
///   document stays bounded by the width, not the number of edges (a million edges make well under
///   200 KB).
/// - **debounced**: the reported state as a step waveform at the raw level that means it (so it lines
///   up with the raw row), a marker at each event's decision time, and a bracket from the event's
///   onset to its decision labelled with the kind and the delay (e.g. `press +2.0 ms`) where there is room.
///
/// Bursts, when given, are shaded across both rows. Times on the axis are relative to `fromNs`.
/// Edges and events outside `fromNs...toNs` are clipped, but the levels at `fromNs` are computed from
/// `initialLevel` and everything before it. Edges and events are expected in time order; an edge
/// stamped earlier than the one before it is drawn at that earlier edge's time.
package struct TraceSVG: Sendable {
    package var title: String
    package var initialLevel: Level
    /// The raw edges, kept compactly (about 3 bytes each).
    package var edges: EdgeStore
    /// The debounced events: kept compactly (about 6 bytes each), or computed from the edges on each pass.
    package var events: EventList
    var burstShading: BurstShading
    package var activeLevel: ActiveLevel
    package var fromNs: Int64
    package var toNs: Int64
    package var width: Int

    /// - Parameters:
    ///   - title: The heading (escaped for XML here).
    ///   - initialLevel: The raw level before the first edge; the debounced state starts at what it means.
    ///   - edges: The raw edges, in time order.
    ///   - events: The debounced events, in order of decision time.
    ///   - activeLevel: Which raw level means pressed.
    ///   - fromNs: The left end of the time axis; labels count from here.
    ///   - toNs: The right end of the time axis (at least `fromNs + 1` is used).
    ///   - width: The picture's width in pixels (at least 300 is used).
    ///   - bursts: Bursts to shade; empty for none.
    package init(
        title: String, initialLevel: Level, edges: [Edge], events: [ButtonEvent], activeLevel: ActiveLevel,
        fromNs: Int64, toNs: Int64, width: Int = 1200, bursts: [Burst] = []
    ) {
        self.init(
            title: title, initialLevel: initialLevel, edges: EdgeStore(edges), events: .stored(EventStore(events)),
            activeLevel: activeLevel, fromNs: fromNs, toNs: toNs, width: width,
            burstShading: .spans(bursts.filter { !$0.edges.isEmpty }.map { ($0.startNs, $0.endNs) }))
    }

    /// A picture of edges kept in a store (a whole trace, in memory that grows by a few bytes an edge)
    /// and events kept or computed from them, with the bursts found by splitting the edges at gaps over `quietGapNs`
    /// nanoseconds (`nil`: no shading). The other parameters as for the initializer with arrays.
    package init(
        title: String, initialLevel: Level, edges: EdgeStore, events: EventList, activeLevel: ActiveLevel,
        fromNs: Int64, toNs: Int64, width: Int = 1200, burstQuietGapNs: Int64?
    ) {
        self.init(
            title: title, initialLevel: initialLevel, edges: edges, events: events, activeLevel: activeLevel, fromNs: fromNs,
            toNs: toNs, width: width, burstShading: burstQuietGapNs.map { .splitAt(quietGapNs: $0) } ?? .spans([]))
    }

    init(
        title: String, initialLevel: Level, edges: EdgeStore, events: EventList, activeLevel: ActiveLevel,
        fromNs: Int64, toNs: Int64, width: Int, burstShading: BurstShading
    ) {
        self.title = title
        self.initialLevel = initialLevel
        self.edges = edges
        self.events = events
        self.burstShading = burstShading
        self.activeLevel = activeLevel
        self.fromNs = fromNs
        self.toNs = toNs
        self.width = width
    }

    /// A time range showing `burst` with `marginFraction` of its length (at least of 1 ms) on each side:
    /// for zooming into one burst. Use a fraction above 1 to include a long window's decision.
    package static func range(around burst: some EdgeBurst, marginFraction: Double) -> (fromNs: Int64, toNs: Int64) {
        let base = Double(max(burst.lengthNs, 1_000_000))
        let marginDouble = (base * max(0, marginFraction)).rounded(.up)
        let margin = marginDouble >= 9e18 ? Int64.max : Int64(marginDouble)
        let (from, underflow) = burst.startNs.subtractingReportingOverflow(margin)
        let (to, overflow) = burst.endNs.addingReportingOverflow(margin)
        return (underflow ? .min : from, overflow ? .max : to)
    }

    /// The raw level at `fromNs`: `initialLevel` changed by every edge stamped before `fromNs`.
    package var rawLevelAtStart: Level {
        var level = initialLevel
        for edge in edges {
            guard edge.timeNs < fromNs else { break }
            level = edge.level
        }
        return level
    }

    /// The reported state at `fromNs`: what `initialLevel` means, changed by every event decided before `fromNs`.
    package var pressedAtStart: Bool {
        var pressed = activeLevel.isPressed(initialLevel)
        for event in events {
            guard event.timeNs < fromNs else { break }
            pressed = event.kind == .press
        }
        return pressed
    }

    // MARK: - Layout

    /// Where everything goes, in pixels.
    struct Layout {
        let width: Double
        let plotLeft = 70.0
        let plotRight: Double
        var plotWidth: Double { plotRight - plotLeft }
        /// Whole pixel columns of the plot: the unit edges are aggregated in.
        var columns: Int { max(1, Int(plotWidth.rounded(.down))) }
        let titleY = 26.0
        let subtitleY = 44.0
        let rawHeadingY = 70.0
        let rawHighY = 80.0
        let rawLowY = 128.0
        let debouncedHeadingY = 160.0
        /// Event labels: the lane next to the brackets first, the upper one when that is taken.
        let labelLaneYs = [189.0, 176.0]
        let bracketY = 196.0
        let debouncedHighY = 208.0
        let debouncedLowY = 256.0
        let axisY = 274.0
        let tickLabelY = 290.0
        let legendY = 314.0
        let height = 326.0

        init(width: Int) {
            self.width = Double(max(300, width))
            self.plotRight = self.width - 28
        }
    }

    // Print-friendly colours: dark blue, dark orange, green and purple on white; burst shading light.
    static let rawColor = "#1f4e9c"
    static let debouncedColor = "#c25400"
    static let pressColor = "#1b7a3a"
    static let releaseColor = "#7b2d9a"
    static let burstFill = "#f3e6b3"
    static let gridColor = "#d8d8d8"
    static let textColor = "#222222"
    static let mutedColor = "#666666"
    static let labelFontSize = 11.0

    // MARK: - Rendering

    /// The SVG document.
    package func render() -> String {
        let layout = Layout(width: width)
        let toNs = self.toNs > fromNs ? self.toNs : (fromNs == .max ? fromNs : fromNs + 1)
        let scale = TimeScale(fromNs: fromNs, toNs: toNs, layout: layout)
        var out = ""
        out.reserveCapacity(32_768)
        let w = Self.number(layout.width)
        let h = Self.number(layout.height)
        out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(w)\" height=\"\(h)\" "
        out += "viewBox=\"0 0 \(w) \(h)\" font-family=\"sans-serif\">\n"
        out += "<title>\(Self.escapeXML(title))</title>\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\" fill=\"#ffffff\"/>\n"

        // Which edges and events are on screen.
        var firstEdge = 0, endEdge = 0
        var seenFirst = false
        for edge in edges {
            if edge.timeNs > toNs { break }
            if !seenFirst, edge.timeNs >= fromNs { seenFirst = true } else if !seenFirst { firstEdge += 1 }
            endEdge += 1
        }
        let edgesShown = max(0, endEdge - firstEdge)
        let eventsShown = events.reduce(0) { $0 + ($1.timeNs >= fromNs && $1.timeNs <= toNs ? 1 : 0) }

        // Title and subtitle.
        out += "<text x=\"\(Self.number(layout.plotLeft))\" y=\"\(Self.number(layout.titleY))\" font-size=\"17\" "
        out += "font-weight=\"bold\" fill=\"\(Self.textColor)\">\(Self.escapeXML(title))</text>\n"
        let polarity = activeLevel == .activeLow ? "active-low: pressed = low" : "active-high: pressed = high"
        // Events closer than 10 px on average are not marked one by one: the marks would only be a smear.
        let marksEvents = Double(eventsShown) * 10 <= layout.plotWidth
        var parts = ["\(Self.count(edgesShown, "edge")), \(Self.count(eventsShown, "event")) shown"]
        if !marksEvents { parts.append("events too dense to mark: zoom in") }
        parts += [polarity, "t = 0 at \(Self.absoluteTime(fromNs))"]
        var subtitle = ""
        for part in parts {
            let candidate = subtitle.isEmpty ? part : subtitle + " · " + part
            let candidateWidth = Double(candidate.unicodeScalars.count) * 12 * 0.6
            guard subtitle.isEmpty || layout.plotLeft + candidateWidth <= layout.width else { break }
            subtitle = candidate
        }
        out += "<text x=\"\(Self.number(layout.plotLeft))\" y=\"\(Self.number(layout.subtitleY))\" font-size=\"12\" "
        out += "fill=\"\(Self.mutedColor)\">\(Self.escapeXML(subtitle))</text>\n"

        renderBursts(into: &out, layout: layout, scale: scale)
        renderAxis(into: &out, layout: layout, scale: scale, toNs: toNs)

        // Row headings and level labels.
        out += "<g font-size=\"13\" font-weight=\"bold\" fill=\"\(Self.textColor)\">\n"
        out += "<text x=\"\(Self.number(layout.plotLeft))\" y=\"\(Self.number(layout.rawHeadingY))\">raw level</text>\n"
        out += "<text x=\"\(Self.number(layout.plotLeft))\" y=\"\(Self.number(layout.debouncedHeadingY))\">"
        out += "debounced (reported state)</text>\n</g>\n"
        let pressedIsHigh = activeLevel.level(pressed: true) == .high
        out += "<g font-size=\"11\" fill=\"\(Self.mutedColor)\" text-anchor=\"end\">\n"
        let labelX = Self.number(layout.plotLeft - 6)
        out += "<text x=\"\(labelX)\" y=\"\(Self.number(layout.rawHighY + 4))\">high</text>\n"
        out += "<text x=\"\(labelX)\" y=\"\(Self.number(layout.rawLowY + 4))\">low</text>\n"
        out += "<text x=\"\(labelX)\" y=\"\(Self.number(layout.debouncedHighY + 4))\">"
        out += "\(pressedIsHigh ? "pressed" : "released")</text>\n"
        out += "<text x=\"\(labelX)\" y=\"\(Self.number(layout.debouncedLowY + 4))\">"
        out += "\(pressedIsHigh ? "released" : "pressed")</text>\n</g>\n"

        // Raw row.
        var raw = Waveform(
            scale: scale, columns: layout.columns, highY: layout.rawHighY, lowY: layout.rawLowY,
            level: rawLevelAtStart)
        var latestNs = fromNs
        for (index, edge) in edges.enumerated() {
            guard index < endEdge else { break }
            guard index >= firstEdge else { continue }
            latestNs = max(latestNs, edge.timeNs)
            raw.add(level: edge.level, atNs: latestNs)
        }
        out += raw.finish(id: "raw", color: Self.rawColor)

        // Debounced row.
        var debounced = Waveform(
            scale: scale, columns: layout.columns, highY: layout.debouncedHighY, lowY: layout.debouncedLowY,
            level: activeLevel.level(pressed: pressedAtStart))
        latestNs = fromNs
        for event in events where event.timeNs >= fromNs && event.timeNs <= toNs {
            latestNs = max(latestNs, event.timeNs)
            debounced.add(level: activeLevel.level(pressed: event.kind == .press), atNs: latestNs)
        }
        out += debounced.finish(id: "debounced", color: Self.debouncedColor)

        if marksEvents { renderEvents(into: &out, layout: layout, scale: scale, toNs: toNs) }
        renderLegend(into: &out, layout: layout, marksEvents: marksEvents)
        out += "</svg>\n"
        return out
    }

    /// Grid lines, the axis line and tick labels.
    private func renderAxis(into out: inout String, layout: Layout, scale: TimeScale, toNs: Int64) {
        let spanNs = toNs - fromNs
        let ticks = Self.ticks(spanNs: spanNs, maxTicks: max(2, Int(layout.plotWidth / 110)))
        var grid = ""
        var labels = ""
        for tick in ticks {
            let x = Self.number(scale.x(fromNs + tick.offsetNs))
            grid += "M\(x) \(Self.number(layout.rawHighY - 6))V\(Self.number(layout.axisY + 5))"
            labels += "<text x=\"\(x)\" y=\"\(Self.number(layout.tickLabelY))\">\(Self.escapeXML(tick.label))</text>\n"
        }
        out += "<path id=\"grid\" d=\"\(grid)\" stroke=\"\(Self.gridColor)\" stroke-width=\"1\" fill=\"none\"/>\n"
        out += "<path id=\"axis\" d=\"M\(Self.number(layout.plotLeft)) \(Self.number(layout.axisY))"
        out += "H\(Self.number(layout.plotRight))\" stroke=\"\(Self.textColor)\" stroke-width=\"1\" fill=\"none\"/>\n"
        out += "<g id=\"ticks\" font-size=\"11\" fill=\"\(Self.textColor)\" text-anchor=\"middle\">\n\(labels)</g>\n"
    }

    /// Markers at decision times, onset-to-decision brackets and their labels.
    private func renderEvents(into out: inout String, layout: Layout, scale: TimeScale, toNs: Int64) {
        var onsetLines = ["", ""]  // press, release
        var brackets = ["", ""]
        var markers = ["", ""]
        var labels = ""
        var labelBackings = ""
        var lastOnsetColumn = -1
        var lastBracketColumn = -1
        var lastMarkerColumn = -1
        var laneRights = layout.labelLaneYs.map { _ in -Double.infinity }
        let markerY = (layout.debouncedHighY + layout.debouncedLowY) / 2
        let charWidth = Self.labelFontSize * 0.6
        for event in events where event.timeNs >= fromNs && event.onsetNs <= toNs {
            let kind = event.kind == .press ? 0 : 1
            let decisionShown = event.timeNs <= toNs
            let onsetShown = event.onsetNs >= fromNs
            let onsetX = scale.x(event.onsetNs)
            let decisionX = scale.x(event.timeNs)
            let decisionColumn = scale.column(event.timeNs, columns: layout.columns)
            if onsetShown {
                let column = scale.column(event.onsetNs, columns: layout.columns)
                if column != lastOnsetColumn {
                    lastOnsetColumn = column
                    let x = Self.number(onsetX)
                    onsetLines[kind] += "M\(x) \(Self.number(layout.rawHighY))V\(Self.number(layout.bracketY))"
                }
            }
            if decisionColumn != lastBracketColumn || !decisionShown {
                lastBracketColumn = decisionColumn
                let y = Self.number(layout.bracketY)
                let top = Self.number(layout.bracketY - 4)
                brackets[kind] += "M\(Self.number(onsetX)) \(y)H\(Self.number(decisionX))"
                if onsetShown {
                    brackets[kind] += "M\(Self.number(onsetX)) \(top)v8"
                } else {  // a chevron: the onset lies left of the picture
                    brackets[kind] += "M\(Self.number(layout.plotLeft + 5)) \(top)l-5 4l5 4"
                }
                if decisionShown {
                    brackets[kind] += "M\(Self.number(decisionX)) \(top)V\(Self.number(markerY))"
                } else {  // a chevron: the decision lies right of the picture
                    brackets[kind] += "M\(Self.number(layout.plotRight - 5)) \(top)l5 4l-5 4"
                }
            }
            if decisionShown && decisionColumn != lastMarkerColumn {
                lastMarkerColumn = decisionColumn
                let x = decisionX
                // A diamond on the debounced step.
                markers[kind] += "M\(Self.number(x)) \(Self.number(markerY - 5))l5 5l-5 5l-5 -5z"
            }
            let label = "\(event.kind.rawValue) +\(Self.duration(event.timeNs - event.onsetNs))"
            let labelWidth = Double(label.unicodeScalars.count) * charWidth
            let center = min(
                max((onsetX + decisionX) / 2, layout.plotLeft + labelWidth / 2), layout.plotRight - labelWidth / 2)
            if let lane = laneRights.indices.first(where: { center - labelWidth / 2 >= laneRights[$0] + 10 }) {
                laneRights[lane] = center + labelWidth / 2
                // A white backing, so that onset lines and grid lines do not strike through the text.
                let laneY = layout.labelLaneYs[lane]
                labelBackings += "M\(Self.number(center - labelWidth / 2 - 2)) \(Self.number(laneY - 10))"
                labelBackings += "h\(Self.number(labelWidth + 4))v13h\(Self.number(-labelWidth - 4))z"
                labels += "<text x=\"\(Self.number(center))\" y=\"\(Self.number(layout.labelLaneYs[lane]))\" "
                labels += "fill=\"\(kind == 0 ? Self.pressColor : Self.releaseColor)\">\(label)</text>\n"
            }
        }
        for (kind, color) in [(0, Self.pressColor), (1, Self.releaseColor)] {
            let name = kind == 0 ? "press" : "release"
            if !onsetLines[kind].isEmpty {
                out += "<path id=\"\(name)-onsets\" d=\"\(onsetLines[kind])\" stroke=\"\(color)\" "
                out += "stroke-width=\"1\" stroke-dasharray=\"3 3\" stroke-opacity=\"0.7\" fill=\"none\"/>\n"
            }
            if !brackets[kind].isEmpty {
                out += "<path id=\"\(name)-brackets\" d=\"\(brackets[kind])\" stroke=\"\(color)\" "
                out += "stroke-width=\"1.5\" fill=\"none\"/>\n"
            }
            if !markers[kind].isEmpty {
                out += "<path id=\"\(name)-markers\" d=\"\(markers[kind])\" fill=\"\(color)\" "
                out += "stroke=\"#ffffff\" stroke-width=\"1\"/>\n"
            }
        }
        if !labels.isEmpty {
            out += "<path id=\"event-label-backings\" d=\"\(labelBackings)\" fill=\"#ffffff\" fill-opacity=\"0.9\"/>\n"
            out += "<g id=\"event-labels\" font-size=\"\(Self.number(Self.labelFontSize))\" text-anchor=\"middle\">\n"
            out += labels + "</g>\n"
        }
    }

    /// What the marks mean, in one line under the axis (items that would not fit the width are left out).
    private func renderLegend(into out: inout String, layout: Layout, marksEvents: Bool) {
        let y = layout.legendY
        let n = Self.number
        // Each item: the width of its symbol, the symbol drawn at x, and its text.
        var items: [(symbolWidth: Double, symbol: (Double) -> String, text: String)] = []
        if hasBursts {
            items.append((14, { x in
                "<rect x=\"\(n(x))\" y=\"\(n(y - 6))\" width=\"14\" height=\"12\" fill=\"\(Self.burstFill)\"/>\n"
            }, "burst"))
        }
        items.append((34, { x in
            "<path d=\"M\(n(x)) \(n(y - 5))v10M\(n(x + 9)) \(n(y - 5))v10M\(n(x + 18)) \(n(y - 5))v10\" "
                + "stroke=\"\(Self.rawColor)\" stroke-width=\"2\"/>\n"
                + "<rect x=\"\(n(x + 24))\" y=\"\(n(y - 5))\" width=\"10\" height=\"10\" fill=\"\(Self.rawColor)\" "
                + "fill-opacity=\"0.85\"/>\n"
        }, "edges (solid block: several edges in one pixel)"))
        for (color, name) in [(Self.pressColor, "press"), (Self.releaseColor, "release")] where marksEvents {
            items.append((37, { x in
                "<path d=\"M\(n(x)) \(n(y - 4))v8M\(n(x)) \(n(y))h24M\(n(x + 24)) \(n(y - 4))v8\" "
                    + "stroke=\"\(color)\" stroke-width=\"1.5\" fill=\"none\"/>\n"
                    + "<path d=\"M\(n(x + 32)) \(n(y - 5))l5 5l-5 5l-5 -5z\" fill=\"\(color)\"/>\n"
            }, "\(name): onset to decision"))
        }
        var x = layout.plotLeft
        var shapes = ""
        var texts = ""
        for item in items {
            let textWidth = Double(item.text.unicodeScalars.count) * 11 * 0.6
            guard x + item.symbolWidth + 5 + textWidth <= layout.width - 4 else { break }
            shapes += item.symbol(x)
            x += item.symbolWidth + 5
            texts += "<text x=\"\(n(x))\" y=\"\(n(y + 4))\">\(Self.escapeXML(item.text))</text>\n"
            x += textWidth + 22
        }
        guard !shapes.isEmpty else { return }
        out += "<g id=\"legend\">\n\(shapes)<g font-size=\"11\" fill=\"\(Self.mutedColor)\">\n\(texts)</g>\n</g>\n"
    }
}
