import ArgumentParser
import TraceFormat

/// Opens a recorded trace in whichever format it is: VCD (a `.vcd` name) or the `t_ns,level` text format.
enum TraceInput {
    static func open(_ path: String, channel: String?) throws -> any TraceSource {
        do {
            if path.lowercased().hasSuffix(".vcd") { return try VCDReader.open(path, channel: channel) }
            return try TraceReader.open(path)
        } catch {
            throw failure(error.description, ExitStatus.cannotOpenInput)
        }
    }
}
