import ArgumentParser
import DebounceCore
import SystemPackage
import TraceFormat

/// `gpio-debounce replay [FILE|-]`: a recorded trace through the debouncer, in virtual time.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a recorded trace of raw edges through the debouncer and print the events.",
        discussion: """
            The trace is text, one `t_ns,level` line per edge (nanoseconds, then 0 or 1); the first line is \
            the initial level and emits nothing. Blank lines, lines starting with # and a `t_ns,level` \
            header are ignored. Events still pending at the end are decided as if time ran on. It \
            streams: a trace of any length runs in bounded memory. On a malformed line, the events \
            decided before it are printed, then the error names the line, and the exit code is 65.
            """)

    @Argument(help: ArgumentHelp("The trace file; - (the default) reads standard input.", valueName: "file"))
    var file: String = "-"

    @OptionGroup var debounce: DebounceOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let reader: TraceReader
        do {
            reader = try TraceReader.open(file)
        } catch {
            throw failure(error.description, ExitStatus.cannotOpenInput)
        }
        let writer = EventWriter(
            format: output.format == .json ? .json : .text, output: OutputBuffer(fileDescriptor: .standardOutput))
        var debouncer: Debouncer?
        do {
            guard let initial = try reader.next() else { throw TraceError.noData(source: reader.sourceName) }
            var running = Debouncer(configuration: debounce.configuration, initialLevel: initial.level, atNs: initial.timeNs)
            while let edge = try reader.next() {
                if let event = running.receive(edge) { try writer.write(event) }
            }
            if let event = running.finish() { try writer.write(event) }
            debouncer = running
            try writer.output.flush()
        } catch let error as TraceError {
            try? writer.output.flush()
            if case .readFailed = error { throw failure(error.description, ExitStatus.ioError) }
            throw failure(error.description, ExitStatus.badData)
        } catch let errno as Errno {
            throw failure("cannot write the events: \(errno.description)", ExitStatus.ioError)
        }
        if output.format == .text, let statistics = debouncer?.statistics {
            printToStandardError(Summary.line(statistics))
        }
    }
}

/// One-line summaries of what a debouncer saw.
enum Summary {
    static func line(_ statistics: DebounceStatistics) -> String {
        var text = "\(statistics.presses) presses, \(statistics.releases) releases from \(statistics.edges) raw edges"
        if statistics.duplicateEdges > 0 {
            text += "; \(statistics.duplicateEdges) duplicate edges (edges lost in between)"
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
