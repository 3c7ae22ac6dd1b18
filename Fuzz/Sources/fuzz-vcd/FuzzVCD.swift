import DebounceCore
import FuzzSupport
import TraceFormat

/// Value Change Dump: `VCDReader` reads the input to its end or its first error, without a channel
/// name (the only 1-bit channel), by name (`D0`, sigrok's first) and by index (`1`). Edges alternate
/// and never go back in time or below 0. When no token is longer than the smallest buffer, reading
/// with the smallest buffer and with one holding the whole input must give the same result.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let comparable = Fuzz.longestToken(bytes) < VCDReader.minimumBufferBytes
    for channel in [nil, "D0", "1"] as [String?] {
        var outcomes: [Fuzz.Outcome] = []
        for bufferBytes in [VCDReader.minimumBufferBytes, size + 1] {
            let reader = VCDReader(
                fileDescriptor: Fuzz.descriptor(holding: bytes), sourceName: "fuzz.vcd", ownsFileDescriptor: true,
                channel: channel, bufferBytes: bufferBytes)
            let outcome = Fuzz.readAll(reader, inputBytes: size)
            for (previous, edge) in zip(outcome.edges, outcome.edges.dropFirst()) {
                Fuzz.require(edge.level != previous.level, "two edges to the same level")
                Fuzz.require(edge.timeNs >= previous.timeNs, "time goes backwards: \(previous.timeNs) then \(edge.timeNs)")
            }
            Fuzz.require(outcome.edges.allSatisfy { $0.timeNs >= 0 }, "a negative time")
            if let line = outcome.error?.line {
                Fuzz.require(line >= 1 && line <= max(Fuzz.lineCount(bytes), 1), "error at line \(line) of \(Fuzz.lineCount(bytes))")
            }
            if !outcome.edges.isEmpty {
                Fuzz.require(reader.channel != nil, "edges without a channel")
                Fuzz.require(reader.latestTimeNs ?? 0 >= outcome.edges.last!.timeNs, "the latest time is before the last edge")
            }
            outcomes.append(outcome)
        }
        if comparable {
            Fuzz.require(outcomes[0] == outcomes[1], "the buffer size changes the result:\n  \(outcomes[0])\n  \(outcomes[1])")
        }
    }
    return 0
}
