import ArgumentParser
import DebounceCore
import SystemPackage
import TraceAnalysis
import TraceFormat

/// `gpio-debounce analyze FILE`: the bounce of a recorded button, and the window that handles it.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Measure the bounce in a recorded trace and find the debounce window that handles it.",
        discussion: """
            Splits the trace into transitions (bursts of edges separated by a quiet gap), reports per \
            direction the number of transitions, edges per transition, burst length and shortest \
            pulse, and for each strategy the smallest window that gives exactly one event per \
            transition (and keeps doing so for every longer window), found by running the debouncer \
            itself, with a recommendation that adds a safety margin. Reads the t_ns,level text format \
            or VCD (e.g. exported by sigrok/PulseView; --channel picks the channel).
            """)

    @Argument(help: ArgumentHelp("The trace: t_ns,level text, or .vcd; - reads text from standard input.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("VCD channel to read, by name or 0-based index (default: the only one).", valueName: "channel"))
    var channel: String?

    @Option(
        help: ArgumentHelp("Edges further apart than this belong to different transitions (default 20ms).", valueName: "duration"),
        transform: { try DurationSyntax.parseNs($0) })
    var gap: Int64 = 20_000_000

    @Flag(exclusivity: .exclusive)
    var polarity: Polarity = .activeLow

    @Option(help: ArgumentHelp("Also draw the trace and the recommended debouncer's events to this SVG file.", valueName: "file"))
    var svg: String?

    @Option(help: ArgumentHelp("In the SVG, zoom to this transition (1 is the first).", valueName: "n"))
    var burst: Int?

    @OptionGroup var output: OutputOptions

    /// The most edges analyze holds in memory (16 bytes each).
    static let maximumEdges = 5_000_000

    func validate() throws {
        guard gap > 0 else { throw ValidationError("--gap must be longer than 0.") }
        if let burst, burst < 1 { throw ValidationError("--burst counts from 1.") }
    }

    func run() throws {
        let activeLevel: ActiveLevel = polarity == .activeLow ? .activeLow : .activeHigh
        let source = try TraceInput.open(file, channel: channel)
        var bursts: [Burst] = []
        var initial = Edge(level: .high, timeNs: 0)
        do {
            guard let first = try source.next() else { throw TraceError.noData(source: source.sourceName) }
            initial = first
            var splitter = BurstSplitter(initialLevel: first.level, quietGapNs: gap)
            var count = 0
            var lastNs = first.timeNs
            while let edge = try source.next() {
                count += 1
                guard count <= Self.maximumEdges else {
                    throw failure("\(source.sourceName) has more than \(Self.maximumEdges) edges: analyze a shorter recording (e.g. gpio-debounce record --duration 60s)", ExitStatus.badData)
                }
                guard edge.timeNs >= lastNs else {
                    throw failure("\(source.sourceName): edge \(count) at \(edge.timeNs) ns is earlier than the one before (\(lastNs) ns); analyze needs times in order", ExitStatus.badData)
                }
                lastNs = edge.timeNs
                if let finished = splitter.add(edge) { bursts.append(finished) }
            }
            if let finished = splitter.finish() { bursts.append(finished) }
        } catch let error as TraceError {
            throw failure(error.description, ExitStatus.badData)
        }
        let analysis = TraceAnalysis(bursts: bursts, quietGapNs: gap, activeLevel: activeLevel)
        let out = OutputBuffer(fileDescriptor: .standardOutput)
        if output.format == .json {
            out.append(AnalysisReport.json(analysis, source: source.sourceName))
        } else {
            out.append(AnalysisReport.text(analysis, source: source.sourceName))
        }
        do { try out.flush() } catch { throw failure("cannot write: \(error)", ExitStatus.ioError) }
        if let svg {
            try drawSVG(to: svg, initial: initial, bursts: bursts, analysis: analysis, activeLevel: activeLevel)
        }
    }

    private func drawSVG(to path: String, initial: Edge, bursts: [Burst], analysis: TraceAnalysis, activeLevel: ActiveLevel) throws {
        let strategy = (analysis.deferAdvice ?? analysis.eagerGlitchAdvice ?? analysis.eagerAdvice)?.recommended
            ?? DebounceConfiguration.defaultStrategy
        var debouncer = Debouncer(configuration: .init(both: strategy, activeLevel: activeLevel), initialLevel: initial.level, atNs: initial.timeNs)
        var events: [ButtonEvent] = []
        let edges = bursts.flatMap(\.edges)
        for edge in edges { if let event = debouncer.receive(edge) { events.append(event) } }
        if let event = debouncer.finish() { events.append(event) }
        var fromNs = initial.timeNs, toNs = max((edges.last?.timeNs ?? initial.timeNs) + gap / 2, initial.timeNs + 1)
        var title = "\(file): \(edges.count) edges, \(analysis.transitions) transitions, debounced with \(strategy)"
        if let burst {
            guard burst <= bursts.count else { throw failure("--burst \(burst): the trace has \(bursts.count) transitions", ExitStatus.badData) }
            (fromNs, toNs) = TraceSVG.range(around: bursts[burst - 1], marginFraction: 0.25)
            toNs = max(toNs, events.first { $0.onsetNs >= bursts[burst - 1].startNs }.map { $0.timeNs + (bursts[burst - 1].lengthNs + 1) / 4 } ?? toNs)
            title = "\(file): transition \(burst) of \(bursts.count), debounced with \(strategy)"
        }
        let picture = TraceSVG(
            title: title, initialLevel: initial.level, edges: edges, events: events, activeLevel: activeLevel, fromNs: fromNs, toNs: toNs,
            bursts: bursts)
        let target = try OutputTarget(path: path)
        do {
            _ = try target.descriptor.writeAll(picture.render().utf8)
        } catch {
            throw failure("cannot write '\(path)': \(error)", ExitStatus.ioError)
        }
        try target.commit()
    }
}
