import ArgumentParser
import DebounceCore
import EventOutput
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

    @Option(help: ArgumentHelp("In the SVG, zoom to this transition (1 is the first).", valueName: "n"), transform: CountArgument.parse)
    var burst: Int?

    @OptionGroup var output: OutputOptions

    /// The most edges analyze holds in memory. Each takes 1 to 10 bytes in an `EdgeStore`: about 3.3
    /// for a button's bounce (measured, with everything else per edge); about 8 measured on a hostile
    /// trace where every edge is its own transition, 10 to 20 minutes apart. So peak memory stays under
    /// about 450 MB whatever the input; `--svg` adds nothing per edge (its events are computed again).
    static let maximumEdges = 50_000_000

    func validate() throws {
        guard gap > 0 else { throw ValidationError("--gap must be longer than 0.") }
    }

    func run() throws {
        let activeLevel: ActiveLevel = polarity == .activeLow ? .activeLow : .activeHigh
        // SIGINT or SIGTERM while the trace is read ends the command with nothing written, exit 0; once
        // the report is printed, the picture is still written whole.
        let stop = try StopRequest()
        let source = try TraceFile.open(file, channel: channel)
        guard let read = try Self.readEdges(source, stop: stop) else {
            if let signal = try stop.stopSignal() { printToStandardError("gpio-debounce analyze: stopped by \(StopRequest.name(signal)) while reading \(source.sourceName): nothing analyzed") }
            return
        }
        let (initial, store) = read
        let analysis = TraceAnalysis(edges: store, initialLevel: initial.level, quietGapNs: gap, activeLevel: activeLevel)
        try report(analysis, of: source.sourceName)
        if let svg {
            try drawSVG(to: svg, initial: initial, edges: store, analysis: analysis, activeLevel: activeLevel)
        }
    }

    /// Writes the analysis of the trace `sourceName` to standard output, as text or JSON.
    private func report(_ analysis: TraceAnalysis, of sourceName: String) throws {
        let out = OutputBuffer(fileDescriptor: .standardOutput)
        out.appendUTF8(output.format == .json ? AnalysisReport.json(analysis, source: sourceName) : AnalysisReport.text(analysis, source: sourceName))
        do { try out.flush() } catch { throw failure("cannot write: \(error)", ExitStatus.ioError) }
    }

    /// The initial level's edge, and every later edge, compacted; an error for a trace that is out of
    /// order, longer than `maximumEdges`, malformed (65) or unreadable (74); nil once `stop` has a
    /// signal (looked at every 65,536 edges).
    static func readEdges(_ source: any TraceSource, stop: StopRequest? = nil) throws -> (initial: Edge, edges: EdgeStore)? {
        do {
            guard let first = try source.next() else { throw TraceError.noData(source: source.sourceName) }
            var store = EdgeStore()
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
                store.append(edge)
                if count & 0xFFFF == 0, try stop?.stopSignal() != nil { return nil }
            }
            return (first, store)
        } catch let error as TraceError {
            throw failure(error.description, TraceFile.exitStatus(of: error))
        }
    }

    private func drawSVG(to path: String, initial: Edge, edges: EdgeStore, analysis: TraceAnalysis, activeLevel: ActiveLevel) throws {
        let strategy = (analysis.deferAdvice ?? analysis.eagerGlitchAdvice ?? analysis.eagerAdvice)?.recommended
            ?? DebounceConfiguration.defaultStrategy
        // Computed again on each pass the picture makes, not kept: memory stays the edges' store.
        let events = DebouncedEvents(
            edges: edges, configuration: .init(both: strategy, activeLevel: activeLevel), initialLevel: initial.level,
            initialNs: initial.timeNs)
        let bursts = StoredBursts(store: edges, initialLevel: initial.level, quietGapNs: gap)
        var chosen: StoredBurst?
        var burstCount = 0
        for burstFound in bursts {
            burstCount += 1
            if burstCount == burst { chosen = burstFound }
        }
        let (lastPlusHalfGap, _) = (edges.isEmpty ? initial.timeNs : edges.lastNs).addingReportingOverflow(gap / 2)
        let (afterInitial, _) = initial.timeNs.addingReportingOverflow(1)
        var fromNs = initial.timeNs, toNs = max(lastPlusHalfGap, afterInitial)
        var title = "\(file): \(counted(edges.count, "edge")), \(counted(analysis.transitions, "transition")), debounced with \(strategy)"
        if let burst {
            guard let chosen else { throw failure("--burst \(burst): the trace has \(counted(burstCount, "transition"))", ExitStatus.badData) }
            (fromNs, toNs) = TraceSVG.range(around: chosen, marginFraction: 0.25)
            // Far enough right to show the decision of the transition's event.
            if let event = events.first(where: { $0.onsetNs >= chosen.startNs }) {
                toNs = max(toNs, event.timeNs &+ (chosen.lengthNs &+ 1) / 4)
            }
            title = "\(file): transition \(burst) of \(burstCount), debounced with \(strategy)"
        }
        let picture = TraceSVG(
            title: title, initialLevel: initial.level, edges: edges, events: .debounced(events), activeLevel: activeLevel, fromNs: fromNs,
            toNs: toNs, burstQuietGapNs: gap)
        let target = try OutputTarget(path: path)
        do {
            _ = try target.descriptor.writeAll(picture.render().utf8)
        } catch {
            throw failure("cannot write '\(path)': \(error)", ExitStatus.ioError)
        }
        try target.commit()
    }
}
