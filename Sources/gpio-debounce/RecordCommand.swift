import ArgumentParser
import DebounceCore
import GPIODBackend
import LineBackends
import SystemPackage
import TraceFormat

/// `gpio-debounce record`: the raw edges of a line with the kernel's timestamps, for replay and analyze.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a line's raw edges with the kernel's timestamps, to the replay text format or VCD.",
        discussion: """
            Records until interrupted (Ctrl-C or SIGTERM) or for --duration. Nothing is debounced: \
            every edge the kernel reports is written, and events the kernel lost (its queue overflowed) \
            are marked: `# lost ...` comment lines in the text format, $comment blocks in VCD. Then run \
            `gpio-debounce analyze FILE` to pick a window, or `gpio-debounce replay FILE` to try one.
            """)

    @Argument(help: ArgumentHelp("The line: an offset or a name (not needed with --simulate).", valueName: "line"))
    var line: String?

    @Option(name: [.short, .long], help: "The chip: a path, name, number or label (default gpiochip0, or wherever the named line is).")
    var chip: String?

    @Option(name: [.short, .long], help: "Bias: pull-up (the default), pull-down, disabled or as-is.")
    var bias: BiasArgument = .init(.pullUp)

    @Option(name: [.short, .long], help: ArgumentHelp("Write here instead of standard output; a .vcd name writes VCD.", valueName: "file"))
    var output: String?

    @Option(help: "File format: text (t_ns,level lines) or vcd (default: from the file name, else text).")
    var format: RecordFormat?

    @Option(
        help: ArgumentHelp("Stop after this long (e.g. 60s).", valueName: "duration"),
        transform: { try DurationSyntax.parseNs($0) })
    var duration: Int64?

    @Flag(help: "Record the simulated bouncy button instead of a real pin (no hardware needed).")
    var simulate = false

    @Option(help: "Presses of the simulated button (with --simulate; default: until stopped).")
    var presses: Int?

    @Option(help: "Seed of the simulated button (with --simulate).")
    var seed: UInt64 = 1

    @Flag(help: .hidden)
    var virtualTime = false

    @Option(help: ArgumentHelp("With --simulate: lose this fraction of edges (0 to 1), as an overflowing kernel queue does.", valueName: "fraction"))
    var drop: Double = 0

    enum RecordFormat: String, ExpressibleByArgument, CaseIterable { case text, vcd }

    func validate() throws {
        if !simulate, line == nil { throw ValidationError("Say which line to record, e.g. `gpio-debounce record 17 -o button.csv` (or --simulate).") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be longer than 0.") }
        guard (0...1).contains(drop) else { throw ValidationError("--drop must be a fraction from 0 to 1, e.g. 0.05.") }
    }

    func run() throws {
        let vcd = (format ?? ((output?.lowercased().hasSuffix(".vcd") ?? false) ? .vcd : .text)) == .vcd
        let descriptor = try openOutput()
        defer { if output != nil { try? descriptor.close() } }
        let buffer = OutputBuffer(fileDescriptor: descriptor)
        if simulate {
            let button = BouncyButton(seed: seed, presses: presses)
            var line = SimulatedLine(
                initialLevel: button.initialLevel, startNs: virtualTime ? 0 : MonotonicClock.nowNs, edges: button,
                pacing: virtualTime ? .virtual : .realTime, dropProbability: drop, seed: seed ^ 0x5EED)
            try record(&line, name: "simulated button (seed \(seed))", vcd: vcd, to: buffer, lost: { nil })
            return
        }
        do {
            let interrupts = try InterruptSignals()
            let (chip, offsets) = try LineLocator.locate(chip: chip, lines: [line ?? ""])
            let backend = try GPIODLines(chip: chip, offsets: offsets, bias: bias.value, consumer: "gpio-debounce record", interrupts: interrupts)
            var line = backend  // the same object: `lost` reads its counters between waits
            try record(&line, name: "\(chip.name) line \(offsets[0])", vcd: vcd, to: buffer, lost: { backend.lostEvents?[0] })
        } catch let error as GPIOError {
            throw failure(error.description, WatchCommand.exitCode(for: error))
        }
    }

    /// Records until the line ends, a signal, or the duration; `lost` gives the backend's count of lost events.
    private func record<Line: LineBackend>(_ line: inout Line, name: String, vcd: Bool, to buffer: OutputBuffer, lost: () -> Int?) throws {
        var edges: [LineEdge] = []
        var written = 0, lostTotal = 0, duplicates = 0, corrections = 0
        do {
            var level = try line.readLevel(line: 0)
            let startNs = line.nowNs
            let endNs = duration.map { startNs + $0 }
            var sink: EdgeSink = vcd
                ? .vcd(try VCDWriter(output: buffer, signals: ["raw"], initialLevels: [level], startNs: startNs))
                : .text(try TraceWriter(output: buffer, comments: ["gpio-debounce record: raw edges of \(name), kernel timestamps (CLOCK_MONOTONIC ns)"], initialLevel: level, atNs: startNs))
            var lastNs = startNs
            // Once a burst has been quiet for `settleNs`, the line's level is re-read: if the kernel
            // dropped the burst's last edges (its queue overflowed), the recording would otherwise end
            // the burst at the wrong level. One read per burst; no wakeups while the line is idle.
            let settleNs: Int64 = 20_000_000
            var settleCheckNs: Int64?
            func recheckLevel() throws {
                let now = line.nowNs
                let actual = try line.readLevel(line: 0)
                guard actual != level else { return }
                try sink.comment("level re-read as \(actual): the kernel lost the edges before this one")
                try sink.write(Edge(level: actual, timeNs: max(now, lastNs)))
                level = actual
                lastNs = max(now, lastNs)
                written += 1
                corrections += 1
            }
            recording: while true {
                edges.removeAll(keepingCapacity: true)
                let deadlineNs = [endNs, settleCheckNs].compactMap { $0 }.min()
                let outcome = try line.wait(untilNs: deadlineNs, appendingTo: &edges)
                let lostNow = lost() ?? 0
                if lostNow > lostTotal {
                    try sink.comment("lost \(lostNow - lostTotal) events here: the kernel's event queue overflowed")
                    lostTotal = lostNow
                }
                for lineEdge in edges {
                    if lineEdge.edge.level == level {
                        duplicates += 1
                        try sink.comment("duplicate edge to \(level): the opposite edge before it was lost")
                    }
                    level = lineEdge.edge.level
                    lastNs = max(lastNs, lineEdge.edge.timeNs)
                    try sink.write(lineEdge.edge)
                    written += 1
                }
                if !edges.isEmpty { settleCheckNs = lastNs + settleNs }
                switch outcome {
                case .edges:
                    continue
                case .timedOut where endNs.map { line.nowNs < $0 } ?? true:
                    try recheckLevel()
                    settleCheckNs = nil
                case .timedOut, .endOfInput, .interrupted:
                    try recheckLevel()
                    break recording
                }
            }
            try sink.finish(atNs: max(lastNs, line.nowNs))
            try buffer.flush()
        } catch let error as LineError {
            try? buffer.flush()
            throw failure(error.description, ExitStatus.ioError)
        } catch let errno as Errno {
            throw failure("cannot write the recording: \(errno.description)", ExitStatus.ioError)
        }
        printToStandardError("recorded \(written) edges of \(name)\(output.map { " to \($0)" } ?? ""); \(lostTotal + (lost() == nil ? duplicates : 0)) events lost by the kernel\(corrections > 0 ? ", \(corrections) levels corrected by re-reading the line" : "")")
    }

    private func openOutput() throws -> FileDescriptor {
        guard let output else { return .standardOutput }
        do {
            return try FileDescriptor.open(FilePath(output), .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw failure("cannot create '\(output)': \(error)", ExitStatus.cannotOpenInput)
        }
    }
}

/// Where recorded edges go: the text format or VCD.
private enum EdgeSink {
    case text(TraceWriter)
    case vcd(VCDWriter)

    mutating func write(_ edge: Edge) throws(Errno) {
        switch self {
        case .text(let writer):
            try writer.write(edge)
        case .vcd(var writer):
            try writer.change(signal: 0, to: edge.level, atNs: edge.timeNs)
            self = .vcd(writer)
        }
    }

    func comment(_ text: String) throws(Errno) {
        switch self {
        case .text(let writer):
            writer.output.append("# \(text)")
            try writer.output.endLine()
        case .vcd(let writer): try writer.comment(text)
        }
    }

    mutating func finish(atNs timeNs: Int64) throws(Errno) {
        if case .vcd(var writer) = self {
            try writer.finish(atNs: timeNs)
            self = .vcd(writer)
        }
    }
}
