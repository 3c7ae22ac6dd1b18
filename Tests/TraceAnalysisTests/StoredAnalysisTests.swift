import DebounceCore
import Simulation
import Testing

@testable import TraceAnalysis

/// The analysis read from an `EdgeStore` (what `analyze` does) gives what the analysis of bursts in
/// arrays gives, burst by burst and figure by figure, and the picture is the same document.
@Suite struct StoredAnalysisTests {
    /// The bursts `BurstSplitter` makes of `edges`.
    static func split(_ edges: [Edge], initialLevel: Level, quietGapNs: Int64) -> [Burst] {
        var splitter = BurstSplitter(initialLevel: initialLevel, quietGapNs: quietGapNs)
        var bursts = edges.compactMap { splitter.add($0) }
        if let last = splitter.finish() { bursts.append(last) }
        return bursts
    }

    /// Every figure of two analyses, as text, to compare them whole.
    static func figures(_ a: TraceAnalysis) -> String {
        "\(a.edges) \(a.press) \(a.release) \(a.spikes) \(String(describing: a.widestSpikePulseNs)) \(a.quietGapNs) "
            + "\(String(describing: a.shortestGapBetweenBurstsNs)) \(String(describing: a.deferAdvice)) "
            + "\(String(describing: a.eagerAdvice)) \(String(describing: a.eagerGlitchAdvice)) "
            + "\(String(describing: a.deferProblem)) \(String(describing: a.eagerProblem))"
    }

    /// Traces of a noisy button (spikes), a clean one, and a storm of 6,000 edges in one burst (the
    /// window search bisects there), each split at two gaps.
    static let traces: [(name: String, initial: Level, edges: [Edge])] = {
        var storm: [Edge] = []
        var random = SplitMix64(seed: 11)
        var timeNs: Int64 = 5_000_000
        for index in 0..<6_001 {
            storm.append(Edge(level: index % 2 == 0 ? .low : .high, timeNs: timeNs))
            timeNs += Int64.random(in: 1...4_000, using: &random)
        }
        storm.append(Edge(level: .high, timeNs: timeNs + 80_000_000))
        return [
            ("noisy", .high, Array(BouncyButton(profile: .noisy, seed: 3).prefix(6_000))),
            ("typical", .high, Array(BouncyButton(profile: .typical, seed: 8).prefix(3_000))),
            ("storm", .high, storm),
        ]
    }()

    @Test(arguments: [2_000_000 as Int64, 20_000_000])
    func storedBurstsAreTheSplittersBursts(quietGapNs: Int64) {
        for trace in Self.traces {
            let expected = Self.split(trace.edges, initialLevel: trace.initial, quietGapNs: quietGapNs)
            let stored = StoredBursts(store: EdgeStore(trace.edges), initialLevel: trace.initial, quietGapNs: quietGapNs)
            let found = stored.map(\.materialized)
            #expect(found == expected, "\(trace.name)")
            for (burst, reference) in zip(stored, expected) {
                #expect(burst.startNs == reference.startNs && burst.endNs == reference.endNs && burst.levelAfter == reference.levelAfter)
            }
        }
    }

    @Test(arguments: [2_000_000 as Int64, 20_000_000])
    func theStoredAnalysisIsTheAnalysisOfTheBursts(quietGapNs: Int64) {
        for trace in Self.traces {
            let bursts = Self.split(trace.edges, initialLevel: trace.initial, quietGapNs: quietGapNs)
            let expected = TraceAnalysis(bursts: bursts, quietGapNs: quietGapNs, activeLevel: .activeLow)
            let stored = TraceAnalysis(
                edges: EdgeStore(trace.edges), initialLevel: trace.initial, quietGapNs: quietGapNs, activeLevel: .activeLow)
            #expect(Self.figures(stored) == Self.figures(expected), "\(trace.name)")
            #expect(stored.edges == trace.edges.count)
        }
        // The noisy button has spikes, the storm bisects: both paths were taken.
        let noisy = Self.traces[0]
        #expect(TraceAnalysis(edges: EdgeStore(noisy.edges), initialLevel: .high, quietGapNs: quietGapNs, activeLevel: .activeLow).spikes > 0)
    }

    /// Times from near `Int64.min` to `Int64.max`: the gap between bursts saturates instead of trapping.
    @Test func timesAcrossTheWholeRangeDoNotOverflow() {
        let edges = [Edge(level: .low, timeNs: .min + 1), Edge(level: .high, timeNs: .max)]
        let analysis = TraceAnalysis(edges: EdgeStore(edges), initialLevel: .high, quietGapNs: 20_000_000, activeLevel: .activeLow)
        #expect(analysis.edges == 2 && analysis.transitions == 2)
        #expect(analysis.shortestGapBetweenBurstsNs == .max)
        #expect(Array(StoredBursts(store: EdgeStore(edges), initialLevel: .high, quietGapNs: 20_000_000)).count == 2)
        #expect(Self.split(edges, initialLevel: .high, quietGapNs: 20_000_000).count == 2, "the splitter neither traps")
    }

    /// The picture drawn from stores, with bursts found by splitting, is the picture drawn from arrays.
    @Test func thePictureFromStoresIsThePictureFromArrays() {
        let trace = Self.traces[0]
        let quietGapNs: Int64 = 20_000_000
        let bursts = Self.split(trace.edges, initialLevel: trace.initial, quietGapNs: quietGapNs)
        var debouncer = Debouncer(configuration: DebounceConfiguration(both: .defer(windowNs: 2_000_000)), initialLevel: trace.initial)
        var events = trace.edges.compactMap { debouncer.receive($0) }
        if let last = debouncer.finish() { events.append(last) }
        // The pipeline adds to each release how long its press was held (onset to onset).
        for index in events.indices where events[index].kind == .release && index > 0 {
            events[index].heldNs = events[index].onsetNs - events[index - 1].onsetNs
        }
        let lastNs = trace.edges.last?.timeNs ?? 0
        let ranges = [(0, lastNs), TraceSVG.range(around: bursts[5], marginFraction: 0.25), (bursts[9].startNs - 30_000_000, bursts[9].endNs)]
        for (fromNs, toNs) in ranges {
            let fromArrays = TraceSVG(
                title: "t", initialLevel: trace.initial, edges: trace.edges, events: events, activeLevel: .activeLow, fromNs: fromNs,
                toNs: toNs, bursts: bursts)
            let fromStores = TraceSVG(
                title: "t", initialLevel: trace.initial, edges: EdgeStore(trace.edges), events: .stored(EventStore(events)),
                activeLevel: .activeLow, fromNs: fromNs, toNs: toNs, burstQuietGapNs: quietGapNs)
            #expect(fromStores.render() == fromArrays.render())
            let debounced = DebouncedEvents(
                edges: EdgeStore(trace.edges), configuration: DebounceConfiguration(both: .defer(windowNs: 2_000_000)),
                initialLevel: trace.initial, initialNs: 0)
            #expect(Array(debounced) == events)
            var computed = fromStores
            computed.events = .debounced(debounced)
            #expect(computed.render() == fromArrays.render())
            #expect(fromStores.render().contains("id=\"bursts\""))
        }
    }
}

/// The problem names a burst's place in a readable unit, not in microseconds with every digit.
@Suite struct WindowTallyTests {
    @Test func aBurstFarIntoTheTraceIsNamedInSeconds() {
        var tally = TraceAnalysis.WindowTally()
        tally.add(nil, startNs: 5_669_496_877, limitNs: 20_000_000)
        #expect(tally.problem == "no window up to the 20ms quiet gap works for the burst at 5.67s")
    }
}
