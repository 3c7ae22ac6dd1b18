import DebounceCore
import Foundation
import Simulation
import Testing

@testable import TraceAnalysis

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct TraceSVGTests {
    // MARK: - Fixtures


    /// A bouncy transition to `level` starting at `startNs`: `count` edges (odd, so it ends at `level`)
    /// spread over about `lengthNs`.
    static func bounce(to level: Level, atNs startNs: Int64, count: Int, lengthNs: Int64, random: inout SplitMix64)
        -> [Edge]
    {
        var edges: [Edge] = []
        var timeNs = startNs
        var current = level
        let meanGap = lengthNs / Int64(max(1, count - 1))
        for index in 0..<count {
            edges.append(Edge(level: current, timeNs: timeNs))
            current = current.toggled
            if index < count - 1 { timeNs += Int64.random(in: max(1, meanGap / 4)...(meanGap * 7 / 4), using: &random) }
        }
        return edges
    }

    /// The events a debouncer with `strategy` reports for `edges`.
    static func debounce(_ edges: [Edge], initialLevel: Level, strategy: DebounceStrategy) -> [ButtonEvent] {
        var debouncer = Debouncer(configuration: DebounceConfiguration(both: strategy), initialLevel: initialLevel)
        var events: [ButtonEvent] = []
        for edge in edges {
            if let event = debouncer.receive(edge) { events.append(event) }
        }
        if let event = debouncer.finish() { events.append(event) }
        return events
    }

    /// A press with 21 bounce edges over about 1 ms at 10 ms, then a clean release at 60 ms (active-low).
    static func bouncyPress() -> (edges: [Edge], events: [ButtonEvent], burst: Burst) {
        var random = SplitMix64(seed: 42)
        let press = bounce(to: .low, atNs: 10_000_000, count: 21, lengthNs: 1_000_000, random: &random)
        let edges = press + [Edge(level: .high, timeNs: 60_000_000)]
        let events = debounce(edges, initialLevel: .high, strategy: .defer(windowNs: 2_000_000))
        return (edges, events, Burst(edges: press, levelBefore: .high))
    }

    /// Several presses over about 1.2 s: bouncy presses, mostly clean releases, one spike.
    static func severalPresses() -> (edges: [Edge], events: [ButtonEvent], bursts: [Burst]) {
        var random = SplitMix64(seed: 7)
        var bursts: [Burst] = []
        var level = Level.high
        func add(_ edges: [Edge]) {
            bursts.append(Burst(edges: edges, levelBefore: level))
            level = edges.last?.level ?? level
        }
        let pressStarts: [Int64] = [100_000_000, 380_000_000, 640_000_000, 900_000_000]
        for (index, startNs) in pressStarts.enumerated() {
            add(bounce(to: .low, atNs: startNs, count: 15 + 10 * index, lengthNs: 600_000 + 300_000 * Int64(index),
                random: &random))
            let releaseNs = startNs + 120_000_000 + 30_000_000 * Int64(index)
            add(bounce(to: .high, atNs: releaseNs, count: index == 2 ? 5 : 1, lengthNs: 200_000, random: &random))
        }
        // A spike too short to be a press.
        add([Edge(level: .low, timeNs: 1_150_000_000), Edge(level: .high, timeNs: 1_150_400_000)])
        let edges = bursts.flatMap(\.edges)
        let events = debounce(edges, initialLevel: .high, strategy: .defer(windowNs: 2_000_000))
        return (edges, events, bursts)
    }

    // MARK: - Parsing the output

    /// The elements of a parsed SVG: names, attributes and the text inside each.
    final class SVGDocument: NSObject, XMLParserDelegate {
        struct Element {
            var name: String
            var attributes: [String: String]
            var text = ""
        }
        var elements: [Element] = []
        private var open: [Int] = []
        var error: String?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            elements.append(Element(name: elementName, attributes: attributeDict))
            open.append(elements.count - 1)
        }
        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            _ = open.popLast()
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let index = open.last { elements[index].text += string }
        }
        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            error = "\(parseError)"
        }

        /// Parses `svg`; `nil` when it is not well-formed XML.
        static func parse(_ svg: String) -> SVGDocument? {
            let document = SVGDocument()
            let parser = XMLParser(data: Data(svg.utf8))
            parser.delegate = document
            return parser.parse() && document.error == nil ? document : nil
        }

        func element(id: String) -> Element? { elements.first { $0.attributes["id"] == id } }
        func texts() -> [String] { elements.filter { $0.name == "text" }.map(\.text) }
    }

    /// The first point of a path's `d` (`M x y...`).
    static func startPoint(_ d: String) -> (x: Double, y: Double)? {
        guard d.hasPrefix("M") else { return nil }
        let numbers = d.dropFirst().split(whereSeparator: { !($0.isNumber || $0 == "." || $0 == "-") })
        guard numbers.count >= 2, let x = Double(numbers[0]), let y = Double(numbers[1]) else { return nil }
        return (x, y)
    }

    // MARK: - Tests

    @Test func outputIsWellFormedStandaloneSVG() throws {
        let trace = Self.severalPresses()
        let svg = TraceSVG(
            title: "several presses", initialLevel: .high, edges: trace.edges, events: trace.events,
            activeLevel: .activeLow, fromNs: 0, toNs: 1_250_000_000, bursts: trace.bursts
        ).render()
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        let document = try #require(SVGDocument.parse(svg))
        let root = try #require(document.elements.first)
        #expect(root.name == "svg")
        #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(root.attributes["version"] == "1.1")
        #expect(root.attributes["font-family"] == "sans-serif")
        #expect(!svg.contains("<script") && !svg.contains("@font-face") && !svg.contains("href"))
        for id in ["raw-wave", "raw-bands", "debounced-wave", "press-markers", "release-markers", "press-brackets",
            "bursts", "ticks"]
        {
            #expect(document.element(id: id) != nil, "missing \(id)")
        }
        #expect(trace.events.count == 8)
        // The first press shows its kind and its delay (2 ms after the burst's last edge).
        let firstPress = trace.events[0]
        let label = "press +\(TraceSVG.duration(firstPress.timeNs - firstPress.onsetNs))"
        #expect(document.texts().contains(label))
    }

    @Test func levelsAtFromAreRightWhenZoomedIntoTheMiddle() throws {
        let layout = TraceSVG.Layout(width: 1200)
        let trace = Self.severalPresses()
        // Zoom in between the second press's decision and its release: raw low, debounced pressed.
        let pressed = TraceSVG(
            title: "zoom", initialLevel: .high, edges: trace.edges, events: trace.events, activeLevel: .activeLow,
            fromNs: 450_000_000, toNs: 460_000_000)
        #expect(pressed.rawLevelAtStart == .low)
        #expect(pressed.pressedAtStart)
        let document = try #require(SVGDocument.parse(pressed.render()))
        let raw = try #require(Self.startPoint(document.element(id: "raw-wave")?.attributes["d"] ?? ""))
        #expect(raw.x == layout.plotLeft && raw.y == layout.rawLowY)
        let debounced = try #require(Self.startPoint(document.element(id: "debounced-wave")?.attributes["d"] ?? ""))
        #expect(debounced.y == layout.debouncedLowY)
        // Nothing happens inside: no edges, no events, no bands, no markers.
        #expect(document.element(id: "raw-bands") == nil && document.element(id: "press-markers") == nil)

        // Inside the first press's bounce, before its decision: the raw level is whatever the last
        // bounce edge before `fromNs` left, the debounced state still released.
        let firstBurst = trace.bursts[0]
        let middleNs = firstBurst.edges[4].timeNs + 1
        let bouncing = TraceSVG(
            title: "zoom", initialLevel: .high, edges: trace.edges, events: trace.events, activeLevel: .activeLow,
            fromNs: middleNs, toNs: middleNs + 5_000_000)
        #expect(bouncing.rawLevelAtStart == firstBurst.edges[4].level)
        #expect(!bouncing.pressedAtStart)
        let bouncingDocument = try #require(SVGDocument.parse(bouncing.render()))
        let bouncingRaw = try #require(
            Self.startPoint(bouncingDocument.element(id: "raw-wave")?.attributes["d"] ?? ""))
        #expect(bouncingRaw.y == (firstBurst.edges[4].level == .high ? layout.rawHighY : layout.rawLowY))
        let bouncingDebounced = try #require(
            Self.startPoint(bouncingDocument.element(id: "debounced-wave")?.attributes["d"] ?? ""))
        #expect(bouncingDebounced.y == layout.debouncedHighY)
        // The press decided inside the range is marked, and its bracket starts before the range.
        #expect(bouncingDocument.element(id: "press-markers") != nil)
        #expect(bouncingDocument.element(id: "press-brackets") != nil)

        // Active-high: the same edges mean the opposite state.
        let activeHigh = TraceSVG(
            title: "zoom", initialLevel: .high, edges: trace.edges, events: [], activeLevel: .activeHigh,
            fromNs: 450_000_000, toNs: 460_000_000)
        #expect(activeHigh.rawLevelAtStart == .low)
        #expect(activeHigh.pressedAtStart)  // no events: the initial level (high) means pressed
    }

    @Test func aMillionEdgesStayUnderTheSizeBound() throws {
        // 999 transitions of 1,001 bounce edges each (1 µs apart), every 50 ms, then one clean release.
        var edges: [Edge] = []
        edges.reserveCapacity(1_000_000)
        var level = Level.high
        for burst in 0..<999 {
            let startNs = Int64(burst) * 50_000_000
            let target = level.toggled
            for index in 0..<1_001 {
                edges.append(Edge(level: index % 2 == 0 ? target : level, timeNs: startNs + Int64(index) * 1_000))
            }
            level = target
        }
        edges.append(Edge(level: level.toggled, timeNs: 999 * 50_000_000))
        #expect(edges.count == 1_000_000)
        let events = Self.debounce(edges, initialLevel: .high, strategy: .defer(windowNs: 2_000_000))
        #expect(events.count == 1_000)
        let clock = ContinuousClock()
        var svg = ""
        let elapsed = clock.measure {
            svg = TraceSVG(
                title: "a million edges", initialLevel: .high, edges: edges, events: events, activeLevel: .activeLow,
                fromNs: 0, toNs: 50_000_000_000
            ).render()
        }
        #expect(svg.utf8.count < 200_000, "\(svg.utf8.count) bytes")
        #expect(svg.contains("1,000,000 edges, 1,000 events shown · events too dense to mark"))
        if let keep = ProcessInfo.processInfo.environment["TRACE_SVG_OUTPUT"] {
            try Data(svg.utf8).write(to: URL(fileURLWithPath: keep).appendingPathComponent("million-edges.svg"))
        }
        #expect(SVGDocument.parse(svg) != nil)
        #expect(elapsed < .seconds(10))

        // All million edges inside a few pixel columns: one band, a tiny document.
        let packed = edges.enumerated().map { Edge(level: $0.element.level, timeNs: Int64($0.offset)) }
        let dense = TraceSVG(
            title: "dense", initialLevel: .high, edges: packed, events: [], activeLevel: .activeLow,
            fromNs: 0, toNs: 100_000_000
        ).render()
        #expect(dense.utf8.count < 10_000, "\(dense.utf8.count) bytes")
        let document = try #require(SVGDocument.parse(dense))
        let bands = try #require(document.element(id: "raw-bands")?.attributes["d"])
        #expect(bands.filter { $0 == "M" }.count == 1)
    }

    @Test(arguments: [
        (1_000_000, 10, ["0", "0.1 ms", "0.2 ms", "0.5 ms", "1 ms"]),
        (3_000_000, 6, ["0", "0.5 ms", "1 ms", "2.5 ms", "3 ms"]),
        (50_000_000, 10, ["0", "5 ms", "10 ms", "50 ms"]),
        (2_000_000_000, 10, ["0", "0.2 s", "1 s", "2 s"]),
        (10_000, 10, ["0", "1 µs", "5 µs", "10 µs"]),
        (500, 10, ["0", "50 ns", "500 ns"]),
        (70_000_000_000, 10, ["0", "10 s", "70 s"]),
    ] as [(Int64, Int, [String])])
    func tickLabelsAreNice(spanNs: Int64, maxTicks: Int, expected: [String]) {
        let ticks = TraceSVG.ticks(spanNs: spanNs, maxTicks: maxTicks)
        let labels = ticks.map(\.label)
        for label in expected { #expect(labels.contains(label), "\(labels)") }
        #expect(ticks.first?.offsetNs == 0)
        #expect(ticks.count >= 2 && ticks.count <= maxTicks + 1, "\(labels)")
        #expect(ticks.allSatisfy { $0.offsetNs <= spanNs })
        #expect(Set(labels).count == labels.count, "\(labels)")
        // Equal steps of 1, 2 or 5 times a power of ten.
        let step = ticks[1].offsetNs
        #expect(ticks.indices.allSatisfy { ticks[$0].offsetNs == Int64($0) * step })
        var mantissa = step
        while mantissa % 10 == 0 { mantissa /= 10 }
        #expect([1, 2, 5].contains(mantissa))
    }

    @Test func tickLabelsAreRelativeToFrom() throws {
        let svg = TraceSVG(
            title: "t", initialLevel: .high, edges: [], events: [], activeLevel: .activeLow,
            fromNs: 123_456_789_000, toNs: 123_456_789_000 + 5_000_000
        ).render()
        let document = try #require(SVGDocument.parse(svg))
        let tickY = TraceSVG.number(TraceSVG.Layout(width: 1200).tickLabelY)
        let tickLabels = document.elements.filter { $0.name == "text" && $0.attributes["y"] == tickY }.map(\.text)
        #expect(
            tickLabels == [
                "0", "0.5 ms", "1 ms", "1.5 ms", "2 ms", "2.5 ms", "3 ms", "3.5 ms", "4 ms", "4.5 ms", "5 ms",
            ])
        // The tick labels sit left to right, far enough apart for their text.
        let xs = document.elements.filter { $0.name == "text" && $0.attributes["y"] == tickY }
            .compactMap { $0.attributes["x"].flatMap(Double.init) }
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $1 - $0 > 60 })
        #expect(TraceSVG.absoluteTime(123_456_789_000) == "123.456789 s")
        #expect(TraceSVG.duration(2_000_000) == "2ms")
        #expect(TraceSVG.duration(1_234_567) == "1.23ms")
        #expect(TraceSVG.duration(350_000) == "350us")
        #expect(TraceSVG.duration(999) == "999ns")
    }

    @Test func titleIsEscaped() throws {
        let title = "<b>\"A & B\"</b> 'quoted' \u{1}µs"
        let svg = TraceSVG(
            title: title, initialLevel: .low, edges: [Edge(level: .high, timeNs: 5)], events: [],
            activeLevel: .activeHigh, fromNs: 0, toNs: 10
        ).render()
        #expect(!svg.contains("<b>"))
        #expect(svg.contains("&lt;b&gt;&quot;A &amp; B&quot;&lt;/b&gt; &apos;quoted&apos; µs"))
        let document = try #require(SVGDocument.parse(svg))
        #expect(document.elements.first { $0.name == "title" }?.text == "<b>\"A & B\"</b> 'quoted' µs")
        #expect(document.texts().contains("<b>\"A & B\"</b> 'quoted' µs"))
    }

    @Test func rangeAroundABurst() {
        let burst = Burst(
            edges: [Edge(level: .low, timeNs: 10_000_000), Edge(level: .high, timeNs: 12_000_000),
                Edge(level: .low, timeNs: 14_000_000)],
            levelBefore: .high)
        let range = TraceSVG.range(around: burst, marginFraction: 0.5)
        #expect(range.fromNs == 8_000_000 && range.toNs == 16_000_000)
        // A single clean edge still gets a visible range (margins of at least 1 ms times the fraction).
        let clean = TraceSVG.range(
            around: Burst(edges: [Edge(level: .low, timeNs: 5_000_000)], levelBefore: .high), marginFraction: 1)
        #expect(clean.fromNs == 4_000_000 && clean.toNs == 6_000_000)
        // No overflow at the ends of time.
        let extreme = TraceSVG.range(
            around: Burst(edges: [Edge(level: .low, timeNs: .max - 10)], levelBefore: .high), marginFraction: 3)
        #expect(extreme.toNs == .max)
    }

    @Test func rendersToPNG() throws {
        let trace = Self.bouncyPress()
        #expect(trace.events.map(\.kind) == [.press, .release])
        #expect(trace.events[0].onsetNs == trace.edges[0].timeNs)
        #expect(trace.events[0].timeNs == trace.edges[20].timeNs + 2_000_000)
        let whole = TraceSVG(
            title: "bouncy press, defer:2ms", initialLevel: .high, edges: trace.edges, events: trace.events,
            activeLevel: .activeLow, fromNs: 0, toNs: 70_000_000, bursts: [trace.burst])
        let zoom = TraceSVG.range(around: trace.burst, marginFraction: 2.5)
        let zoomed = TraceSVG(
            title: "bouncy press, defer:2ms (zoomed)", initialLevel: .high, edges: trace.edges,
            events: trace.events, activeLevel: .activeLow, fromNs: zoom.fromNs, toNs: zoom.toNs, bursts: [trace.burst])
        let several = Self.severalPresses()
        let overview = TraceSVG(
            title: "several presses, defer:2ms", initialLevel: .high, edges: several.edges, events: several.events,
            activeLevel: .activeLow, fromNs: 0, toNs: 1_250_000_000, bursts: several.bursts)
        let zoomSeveral = TraceSVG.range(around: several.bursts[4], marginFraction: 2)
        let overviewZoomed = TraceSVG(
            title: "several presses, defer:2ms: the third press", initialLevel: .high, edges: several.edges,
            events: several.events, activeLevel: .activeLow, fromNs: zoomSeveral.fromNs, toNs: zoomSeveral.toNs,
            bursts: several.bursts)

        // A long, dense bounce (400 edges over about 2 ms) seen at 10 µs a pixel: solid blocks.
        var random = SplitMix64(seed: 3)
        let dense = Self.bounce(to: .low, atNs: 5_000_000, count: 401, lengthNs: 2_000_000, random: &random)
            + [Edge(level: .high, timeNs: 14_000_000)]
        let denseEvents = Self.debounce(dense, initialLevel: .high, strategy: .defer(windowNs: 2_000_000))
        let densePicture = TraceSVG(
            title: "dense bounce, defer:2ms", initialLevel: .high, edges: dense, events: denseEvents,
            activeLevel: .activeLow, fromNs: 4_000_000, toNs: 15_000_000)

        // TRACE_SVG_OUTPUT names a directory to keep the pictures in; otherwise a temporary one is removed.
        let keep = ProcessInfo.processInfo.environment["TRACE_SVG_OUTPUT"]
        let directory =
            keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("trace-svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }

        let pictures = [
            ("bouncy-press", whole), ("bouncy-press-zoomed", zoomed), ("several-presses", overview),
            ("several-presses-zoomed", overviewZoomed), ("dense-bounce", densePicture),
            ("narrow", TraceSVG(
                title: "narrow", initialLevel: .high, edges: several.edges, events: several.events,
                activeLevel: .activeLow, fromNs: 0, toNs: 1_250_000_000, width: 500, bursts: several.bursts)),
        ]
        let converter = ProcessInfo.processInfo.environment["PATH", default: "/usr/bin:/bin"]
            .split(separator: ":").map { "\($0)/rsvg-convert" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        for (name, picture) in pictures {
            let svg = picture.render()
            #expect(SVGDocument.parse(svg) != nil)
            let svgURL = directory.appendingPathComponent("\(name).svg")
            try Data(svg.utf8).write(to: svgURL)
            guard let converter else { continue }
            let pngURL = directory.appendingPathComponent("\(name).png")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: converter)
            process.arguments = ["--background-color=white", "-o", pngURL.path, svgURL.path]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let png = try Data(contentsOf: pngURL)
            #expect(png.count > 1_000)
            #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        }
        if converter == nil {
            let note = "rsvg-convert not found (Debian: librsvg2-bin): SVGs checked, PNG conversion skipped"
            print("note: \(note)")
            Attachment.record(note, named: "note.txt")
        }
    }
}
