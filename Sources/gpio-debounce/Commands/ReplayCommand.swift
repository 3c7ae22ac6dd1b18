import ArgumentParser
import DebounceCore
import EventOutput
import SystemPackage
import TraceFormat

/// `gpio-debounce replay [FILE|-]`: a recorded trace through the debouncer, in virtual time.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a recorded trace of raw edges through the debouncer and print the events.",
        discussion: """
            The trace is VCD (a .vcd file), or text, one `t_ns,level` line per edge (nanoseconds, then 0 or 1); the first line is \
            the initial level and emits nothing. Blank lines, lines starting with # and a `t_ns,level` \
            header are ignored. Events still pending at the end are decided as if time ran on. It \
            streams: a trace of any length runs in bounded memory. On a malformed line, the events \
            decided before it are printed, then the error names the line, and the exit code is 65.
            """)

    @Argument(help: ArgumentHelp("The trace: t_ns,level text, or .vcd (e.g. from sigrok/PulseView); - (the default) reads text from standard input.", valueName: "file"))
    var file: String = "-"

    @Option(help: ArgumentHelp("VCD channel to read, by name or 0-based index (default: the only one).", valueName: "channel"))
    var channel: String?

    @OptionGroup var debounce: DebounceOptions

    @Option(help: "Output format: text (for people), json (one object per line) or vcd (raw and debounced signals side by side, for PulseView or GTKWave).")
    var format: ReplayFormat = .text

    enum ReplayFormat: String, ExpressibleByArgument, CaseIterable { case text, json, vcd }

    func run() throws {
        let source = try TraceInput.open(file, channel: channel)
        let output = OutputBuffer(fileDescriptor: .standardOutput)
        var debouncer: Debouncer?
        do {
            guard let initial = try source.next() else { throw TraceError.noData(source: source.sourceName) }
            var running = Debouncer(configuration: debounce.configuration, initialLevel: initial.level, atNs: initial.timeNs)
            var events: ReplaySink = format == .vcd
                ? .vcd(try VCDWriter(
                    output: output, signals: ["raw", "pressed"],
                    initialLevels: [initial.level, running.isPressed ? .high : .low], startNs: initial.timeNs))
                : .events(EventWriter(format: format == .json ? .json : .text, output: output))
            while let edge = try source.next() {
                if let event = running.receive(edge) { try events.write(event) }
                try events.write(edge)
            }
            if let event = running.finish() { try events.write(event) }
            try events.finish(atNs: running.nowNs)
            debouncer = running
            try output.flush()
        } catch let error as TraceError {
            try? output.flush()
            if case .readFailed = error { throw failure(error.description, ExitStatus.ioError) }
            throw failure(error.description, ExitStatus.badData)
        } catch let errno as Errno {
            throw failure("cannot write the events: \(errno.description)", ExitStatus.ioError)
        }
        if format == .text, let statistics = debouncer?.statistics {
            printToStandardError(Summary.line(statistics))
        }
    }
}

/// Where `replay` writes: event lines, or a VCD with the raw signal and the debounced one.
private enum ReplaySink {
    case events(EventWriter)
    case vcd(VCDWriter)

    /// An event: a line, or a change of the "pressed" signal.
    mutating func write(_ event: ButtonEvent) throws(Errno) {
        switch self {
        case .events(let writer):
            try writer.write(event)
        case .vcd(var writer):
            try writer.change(signal: 1, to: event.kind == .press ? .high : .low, atNs: event.timeNs)
            self = .vcd(writer)
        }
    }

    /// A raw edge: a change of the "raw" signal in VCD, nothing in event lines.
    mutating func write(_ edge: Edge) throws(Errno) {
        if case .vcd(var writer) = self {
            try writer.change(signal: 0, to: edge.level, atNs: max(edge.timeNs, writer.latestTimeNs))
            self = .vcd(writer)
        }
    }

    mutating func finish(atNs timeNs: Int64) throws(Errno) {
        if case .vcd(var writer) = self {
            try writer.finish(atNs: max(timeNs, writer.latestTimeNs))
            self = .vcd(writer)
        }
    }
}

/// One-line summaries of what a debouncer saw.
enum Summary {
    static func line(_ statistics: DebounceStatistics) -> String {
        var text = "\(counted(statistics.presses, "press", "presses")), \(counted(statistics.releases, "release")) from \(counted(statistics.edges, "raw edge"))"
        if statistics.duplicateEdges > 0 {
            text += "; \(counted(statistics.duplicateEdges, "duplicate edge")) (edges lost in between)"
        }
        if statistics.clampedTimestamps > 0 {
            text += "; \(statistics.clampedTimestamps) timestamps went backwards (applied at the time already reached)"
        }
        if statistics.resyncCorrections > 0 {
            text += "; \(statistics.resyncCorrections) corrections after re-reading the line"
        }
        return text
    }
}
