// Benchmarks of gpio-debounce: the Debouncer alone, the rotary encoders' QuadratureDecoder alone, and
// the whole replay pipeline (TraceReader → Debouncer → EventWriter JSON → OutputBuffer over /dev/null).
//
// Every benchmark processes exactly `edgeCount` = 1,000,000 edges per iteration and declares
// `scalingFactor: .mega`, so with `--scale` the time and malloc metrics read per edge
// (ns per edge, mallocs per edge); without it they are per 1,000,000 edges.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Benchmark
import DebounceCore
import EventOutput
import Simulation
import SystemPackage
import TraceFormat

/// Edges per iteration: one per scaled iteration.
let edgeCount = BenchmarkScalingFactor.mega.rawValue

/// The bouncy button every benchmark replays: seeded, so every run sees the same edges.
let button = BouncyButton(seed: 1)

/// The first `edgeCount` edges of `button`, generated once per process, outside any measurement
/// (the setup hooks touch it first).
let edges: [Edge] = {
    var generated: [Edge] = []
    generated.reserveCapacity(edgeCount)
    var source = button
    while generated.count < edgeCount, let cycle = source.nextCycle() {
        generated.append(contentsOf: cycle.edges.prefix(edgeCount - generated.count))
    }
    precondition(generated.count == edgeCount, "BouncyButton ended early")
    return generated
}()

/// The first `edgeCount` changes of a simulated bouncy encoder (seeded), as (line, edge), generated
/// once per process outside any measurement.
let encoderEdges: [(line: Int, edge: Edge)] = {
    var generated: [(line: Int, edge: Edge)] = []
    generated.reserveCapacity(edgeCount)
    var encoder = BouncyEncoder(seed: 1)
    while generated.count < edgeCount, let change = encoder.next() { generated.append((change.line, change.edge)) }
    precondition(generated.count == edgeCount, "BouncyEncoder ended early")
    return generated
}()

/// Where the pipeline benchmark's trace lives while it runs (unique per process).
let tracePath: String = {
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    return "\(directory)/gpio-debounce-bench-\(getpid()).trace"
}()

/// `/dev/null`, opened once: the sink of the pipeline's JSON output.
let devNull: FileDescriptor = {
    do {
        return try FileDescriptor.open("/dev/null", .writeOnly)
    } catch {
        fatalError("cannot open /dev/null: \(error)")
    }
}()

/// Writes `tracePath`: a header, the initial level at 0, then all of `edges` (so the reader yields
/// exactly `edgeCount` edges after the initial level).
func writeTrace() throws {
    let descriptor = try FileDescriptor.open(
        FilePath(tracePath), .writeOnly, options: [.create, .truncate], permissions: .ownerReadWrite)
    try descriptor.closeAfter {
        let output = OutputBuffer(fileDescriptor: descriptor)
        let writer = try TraceWriter(
            output: output, comments: ["gpio-debounce benchmark: BouncyButton(seed: 1), \(edgeCount) edges"],
            initialLevel: button.initialLevel, atNs: 0)
        for edge in edges { try writer.write(edge) }
        try output.flush()
    }
}

let benchmarks: @Sendable () -> Void = {
    let strategies: [(name: String, strategy: DebounceStrategy)] = [
        ("defer:10ms", .defer(windowNs: 10_000_000)),
        ("eager:30ms", .eager(lockoutNs: 30_000_000)),
        ("eager:30ms,glitch:100us", .eager(lockoutNs: 30_000_000, glitchNs: 100_000)),
    ]

    for (name, strategy) in strategies {
        Benchmark(
            "Debouncer \(name)",
            configuration: .init(
                metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal],
                warmupIterations: 3,
                scalingFactor: .mega,
                maxDuration: .seconds(2),
                maxIterations: 1_000,
                setup: { blackHole(edges.count) }
            )
        ) { benchmark in
            let input = edges
            let configuration = DebounceConfiguration(both: strategy)
            var debouncer = Debouncer(configuration: configuration, initialLevel: button.initialLevel, atNs: 0)
            benchmark.startMeasurement()
            for index in benchmark.scaledIterations {
                if let event = debouncer.receive(input[index]) { blackHole(event) }
            }
            blackHole(debouncer.finish())
            benchmark.stopMeasurement()
            precondition(debouncer.statistics.edges == edgeCount)
            blackHole(debouncer.statistics)
        }
    }

    // The rotary encoder's decoder alone: 1,000,000 changes of a simulated bouncy encoder (runs,
    // flicks up to 500 detents a second, reversals, jiggles; bounce on the changing line).
    Benchmark(
        "QuadratureDecoder (BouncyEncoder)",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal],
            warmupIterations: 3,
            scalingFactor: .mega,
            maxDuration: .seconds(2),
            maxIterations: 1_000,
            setup: { blackHole(encoderEdges.count) }
        )
    ) { benchmark in
        let input = encoderEdges
        var decoder = QuadratureDecoder()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let change = input[index]
            for detent in decoder.receive(line: change.line == 0 ? .a : .b, level: change.edge.level, atNs: change.edge.timeNs) { blackHole(detent) }
        }
        for detent in decoder.finish() { blackHole(detent) }
        benchmark.stopMeasurement()
        precondition(decoder.statistics.changes == encoderEdges.count)
        blackHole(decoder.statistics)
    }

    // The framework's own cost per sample, to subtract: 1,000,000 calls of `blackHole` and nothing
    // else, with the same metrics as the others. Measuring the CPU-time metrics makes the framework
    // itself count 16 mallocs per sample on Linux (with only `.mallocCountTotal` it counts 0), and
    // `--allocation-stacks` finds 0 allocations in the Debouncer benchmarks and 7 per run in the
    // replay pipeline, against the 16 and 23 counted.
    Benchmark(
        "Overhead: 1M blackHole calls",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal],
            scalingFactor: .mega,
            maxDuration: .seconds(1),
            maxIterations: 200
        )
    ) { benchmark in
        for index in benchmark.scaledIterations { blackHole(index) }
    }

    // `gpio-debounce replay --debounce defer:10ms --format json FILE > /dev/null`, in process:
    // parse the 1,000,000-edge trace, debounce, write JSON lines into an OutputBuffer over /dev/null.
    Benchmark(
        "Replay pipeline defer:10ms (TraceReader + Debouncer + JSON)",
        configuration: .init(
            metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal],
            warmupIterations: 2,
            scalingFactor: .mega,
            maxDuration: .seconds(3),
            maxIterations: 1_000,
            setup: {
                blackHole(devNull)
                try writeTrace()
            },
            teardown: { unlink(tracePath) }
        )
    ) { benchmark in
        let configuration = DebounceConfiguration(both: .defer(windowNs: 10_000_000))
        var received = 0
        do {
            let reader = try TraceReader.open(tracePath)
            let writer = EventWriter(format: .json, output: OutputBuffer(fileDescriptor: devNull))
            guard let initial = try reader.next() else { fatalError("\(tracePath) has no data") }
            var debouncer = Debouncer(configuration: configuration, initialLevel: initial.level, atNs: initial.timeNs)
            while let edge = try reader.next() {
                received += 1
                if let event = debouncer.receive(edge) { try writer.write(event) }
            }
            if let event = debouncer.finish() { try writer.write(event) }
            try writer.output.flush()
            blackHole(debouncer.statistics)
        } catch {
            fatalError("replay failed: \(error)")
        }
        precondition(received == edgeCount, "read \(received) edges, expected \(edgeCount)")
    }
}
