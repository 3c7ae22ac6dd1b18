#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import DebounceCore
import Foundation
import Synchronization
import SystemPackage
import Testing
import TraceFormat

/// Hostile input for the trace readers: what libFuzzer found (scripts/fuzz), and the inputs that must
/// end with a clear error in bounded memory and time: endless streams, endless lines and tokens, NUL
/// bytes, a zero timescale, times beyond 2^63-1 nanoseconds.
enum Hostile {
    /// A stream another thread writes into a socket: `prefix`, then `pattern` over and over, until
    /// `limit` bytes or until the reader closes its end. An endless input for a reader, in bounded
    /// memory on both sides.
    final class Stream: Sendable {
        let readEnd: FileDescriptor
        private let written = Mutex<Int>(0)
        private let finished = DispatchSemaphore(value: 0)

        init(prefix: [UInt8] = [], pattern: [UInt8], limit: Int = 4 << 30) throws {
            var ends: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw Errno(rawValue: errno) }
            readEnd = FileDescriptor(rawValue: ends[0])
            let writeEnd = ends[1]
            let block = Array(repeatElement(pattern, count: max(1, 65_536 / max(pattern.count, 1))).joined())
            Thread.detachNewThread { [self] in
                defer {
                    close(writeEnd)
                    finished.signal()
                }
                var chunk = prefix
                while written.withLock({ $0 }) < limit {
                    var offset = 0
                    while offset < chunk.count {
                        let count = chunk.withUnsafeBytes {
                            send(writeEnd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                        }
                        if count < 0 {
                            if errno == EINTR { continue }
                            return  // the reader closed its end: EPIPE
                        }
                        offset += count
                        written.withLock { $0 += count }
                    }
                    chunk = block
                }
            }
        }

        convenience init(prefix: String = "", pattern: String, limit: Int = 4 << 30) throws {
            try self.init(prefix: Array(prefix.utf8), pattern: Array(pattern.utf8), limit: limit)
        }

        /// Closes the reading end, waits for the writer to stop, and says how many bytes it wrote.
        func finish() throws -> Int {
            try readEnd.close()
            finished.wait()
            return written.withLock { $0 }
        }
    }

    /// The edges `source` gives before its first error, and that error (`nil`: it read to the end).
    static func read(_ source: some TraceSource, atMost limit: Int = .max) -> (edges: [Edge], error: TraceError?) {
        var edges: [Edge] = []
        do {
            while edges.count < limit, let edge = try source.next() { edges.append(edge) }
            return (edges, nil)
        } catch {
            return (edges, error)
        }
    }

    /// The problem of a malformed-line error at `line`, or `nil` for any other outcome.
    static func problem(_ error: TraceError?, line: Int) -> String? {
        guard case .malformedLine(_, let reported, let problem, _) = error, reported == line else { return nil }
        return problem
    }

    static func trace(_ text: String, bufferBytes: Int = 1 << 20) throws -> TraceReader {
        TraceReader(
            fileDescriptor: try VCD.pipe(holding: Array(text.utf8)), sourceName: "t.csv", ownsFileDescriptor: true,
            bufferBytes: bufferBytes)
    }

    static func vcd(_ bytes: [UInt8], channel: String? = nil, bufferBytes: Int = 1 << 20) throws -> VCDReader {
        VCDReader(
            fileDescriptor: try VCD.pipe(holding: bytes), sourceName: "t.vcd", ownsFileDescriptor: true, channel: channel,
            bufferBytes: bufferBytes)
    }

    static func vcd(_ text: String, channel: String? = nil, bufferBytes: Int = 1 << 20) throws -> VCDReader {
        try vcd(Array(text.utf8), channel: channel, bufferBytes: bufferBytes)
    }

    /// A VCD header of 5 lines declaring one wire `b` (identifier `!`).
    static let header = "$timescale 1 ns $end\n$scope module m $end\n$var wire 1 ! b $end\n$upscope $end\n$enddefinitions $end\n"

    /// The most a reader may take from an endless stream before it stops: its buffer, the longest
    /// token, and what the socket holds.
    static let boundBytes = 64 << 20
}

@Suite struct TraceReaderHostileInputTests {
    /// Found by fuzz-trace: a line over 4096 bytes was an error only when it straddled a refill of the
    /// buffer; inside the buffer it was read (5000 spaces then `10,0`), so the result depended on the
    /// buffer size and where the line fell. Now the limit holds wherever the line is.
    @Test(arguments: [1, 1 << 16, 1 << 20])
    func aLineOverTheLimitIsTooLongWhereverItFalls(bufferBytes: Int) throws {
        let text = "0,1\n" + String(repeating: " ", count: 5000) + "10,0\n20,1\n"
        let (edges, error) = Hostile.read(try Hostile.trace(text, bufferBytes: bufferBytes))
        #expect(edges == [Edge(level: .high, timeNs: 0)])
        #expect(error == .lineTooLong(source: "t.csv", line: 2, limitBytes: TraceReader.maximumLineBytes))
    }

    @Test(arguments: [1, 1 << 20])
    func aLineOfExactlyTheLimitIsRead(bufferBytes: Int) throws {
        let line = String(repeating: " ", count: TraceReader.maximumLineBytes - 4) + "10,0"
        let (edges, error) = Hostile.read(try Hostile.trace("0,1\n" + line + "\n20,1", bufferBytes: bufferBytes))
        #expect(error == nil)
        #expect(edges.map(\.timeNs) == [0, 10, 20])
    }

    @Test(.timeLimit(.minutes(1)))
    func anEndlessStreamOfZerosStopsAtTheFirstLine() throws {
        let stream = try Hostile.Stream(pattern: [0])
        let reader = TraceReader(fileDescriptor: stream.readEnd, sourceName: "t.csv", ownsFileDescriptor: false)
        let (edges, error) = Hostile.read(reader)
        #expect(edges.isEmpty)
        #expect(error == .lineTooLong(source: "t.csv", line: 1, limitBytes: TraceReader.maximumLineBytes))
        #expect(try stream.finish() < Hostile.boundBytes)
    }

    @Test(.timeLimit(.minutes(1)))
    func devZeroStops() throws {
        let reader = TraceReader(
            fileDescriptor: try FileDescriptor.open("/dev/zero", .readOnly), sourceName: "t.csv", ownsFileDescriptor: true)
        #expect(Hostile.read(reader).error == .lineTooLong(source: "t.csv", line: 1, limitBytes: TraceReader.maximumLineBytes))
    }

    @Test(.timeLimit(.minutes(1)))
    func aLineGigabytesLongWithoutANewlineStops() throws {
        let stream = try Hostile.Stream(prefix: "0,1\n", pattern: "1")  // up to 4 GiB of 1s
        let reader = TraceReader(fileDescriptor: stream.readEnd, sourceName: "t.csv", ownsFileDescriptor: false)
        let (edges, error) = Hostile.read(reader)
        #expect(edges == [Edge(level: .high, timeNs: 0)])
        #expect(error == .lineTooLong(source: "t.csv", line: 2, limitBytes: TraceReader.maximumLineBytes))
        #expect(try stream.finish() < Hostile.boundBytes)
    }

    /// An endless stream of good lines is a live recording, not an error: it reads on.
    @Test(.timeLimit(.minutes(1)))
    func anEndlessStreamOfDataIsRead() throws {
        let stream = try Hostile.Stream(pattern: "5,1\n5,0\n")
        let reader = TraceReader(fileDescriptor: stream.readEnd, sourceName: "t.csv", ownsFileDescriptor: false)
        let (edges, error) = Hostile.read(reader, atMost: 100_000)
        #expect(error == nil && edges.count == 100_000)
        _ = try stream.finish()
    }

    @Test(arguments: ["0,1\n5\0,0\n", "0,1\n\0\n", "0,1\n5,\0\n", "0,1\n\0\05,0\n"])
    func nulBytesAreNamed(text: String) throws {
        let (edges, error) = Hostile.read(try Hostile.trace(text))
        #expect(edges == [Edge(level: .high, timeNs: 0)])
        #expect(Hostile.problem(error, line: 2) == TraceReader.nulByte)
        #expect(error.map { "\($0)" }?.contains("NUL byte") == true)
    }

    @Test func aNulByteInACommentIsOnlyAComment() throws {
        #expect(Hostile.read(try Hostile.trace("# \0\n0,1\n")).edges == [Edge(level: .high, timeNs: 0)])
    }

    @Test(arguments: ["9223372036854775808,1", "-9223372036854775809,1", "99999999999999999999999999,0", "+18446744073709551616,1"])
    func timesBeyondInt64AreOutOfRange(line: String) throws {
        let (edges, error) = Hostile.read(try Hostile.trace("0,1\n" + line + "\n"))
        #expect(edges.count == 1)
        #expect(Hostile.problem(error, line: 2)?.contains("out of range") == true)
    }

    @Test func theLargestTimesAreRead() throws {
        let (edges, error) = Hostile.read(try Hostile.trace("-9223372036854775807,0\n9223372036854775807,1\n"))
        #expect(error == nil)
        #expect(edges == [Edge(level: .low, timeNs: -Int64.max), Edge(level: .high, timeNs: .max)])
    }
}

@Suite struct VCDReaderHostileInputTests {
    @Test(.timeLimit(.minutes(1)))
    func anEndlessStreamOfZerosIsANulByteAtOnce() throws {
        let stream = try Hostile.Stream(pattern: [0])
        let reader = VCDReader(fileDescriptor: stream.readEnd, sourceName: "t.vcd", ownsFileDescriptor: false, channel: nil)
        let (edges, error) = Hostile.read(reader)
        #expect(edges.isEmpty)
        #expect(Hostile.problem(error, line: 1) == VCDProblem.nulByte)
        #expect(try stream.finish() < Hostile.boundBytes)
    }

    @Test(.timeLimit(.minutes(1)))
    func devZeroStops() throws {
        let reader = VCDReader(
            fileDescriptor: try FileDescriptor.open("/dev/zero", .readOnly), sourceName: "t.vcd", ownsFileDescriptor: true,
            channel: "b")
        #expect(Hostile.problem(Hostile.read(reader).error, line: 1) == VCDProblem.nulByte)
    }

    /// Before, a token without end (a line gigabytes long with no space) was skipped for as long as it
    /// lasted: an endless stream never stopped. Now it is an error after `maximumTokenBytes`.
    @Test(.timeLimit(.minutes(2)))
    func aTokenGigabytesLongWithoutASpaceStops() throws {
        let stream = try Hostile.Stream(prefix: Hostile.header + "#0 1!\nb", pattern: "1")  // up to 4 GiB
        let reader = VCDReader(fileDescriptor: stream.readEnd, sourceName: "t.vcd", ownsFileDescriptor: false, channel: nil)
        let (edges, error) = Hostile.read(reader)
        #expect(edges == [Edge(level: .high, timeNs: 0)])
        #expect(Hostile.problem(error, line: 7) == VCDProblem.endlessToken(VCDReader.maximumTokenBytes))
        #expect(try stream.finish() < Hostile.boundBytes)
    }

    /// Before, an endless header (`$var` after `$var`, or `$scope` inside `$scope`) grew the channel list
    /// and the scope path without bound. Now both are bounded, with an error saying which.
    @Test(.timeLimit(.minutes(1)))
    func anEndlessHeaderOfVariablesStops() throws {
        let stream = try Hostile.Stream(prefix: "$timescale 1 ns $end\n", pattern: "$var wire 1 ! b $end\n")
        let reader = VCDReader(fileDescriptor: stream.readEnd, sourceName: "t.vcd", ownsFileDescriptor: false, channel: nil)
        let error = Hostile.read(reader).error
        #expect(Hostile.problem(error, line: VCDReader.maximumChannels + 2) == VCDProblem.tooManyChannels(VCDReader.maximumChannels))
        #expect(reader.channels.count == VCDReader.maximumChannels)
        #expect(try stream.finish() < Hostile.boundBytes)
    }

    @Test(.timeLimit(.minutes(1)))
    func endlesslyNestedScopesStop() throws {
        let stream = try Hostile.Stream(pattern: "$scope module m $end\n")
        let reader = VCDReader(fileDescriptor: stream.readEnd, sourceName: "t.vcd", ownsFileDescriptor: false, channel: nil)
        let error = Hostile.read(reader).error
        // "m.m.m…": the path passes 1024 bytes at the 513th scope.
        #expect(Hostile.problem(error, line: 513) == VCDProblem.scopeTooLong(VCDReader.maximumScopeBytes))
        #expect(try stream.finish() < Hostile.boundBytes)
    }

    @Test func aNameOverTheLimitIsAnError() throws {
        let name = String(repeating: "n", count: VCDReader.maximumNameBytes + 1)
        let error = Hostile.read(try Hostile.vcd("$var wire 1 ! \(name) $end\n$enddefinitions $end\n#0 1!\n")).error
        #expect(Hostile.problem(error, line: 1) == VCDProblem.nameTooLong(VCDReader.maximumNameBytes))
    }

    /// Before, the header kept only the first 80 bytes of each word, with `…` after: a longer identifier
    /// never matched its value changes, and a longer name could not be chosen.
    @Test func identifiersAndNamesLongerThan80BytesAreReadWhole() throws {
        let identifier = String(repeating: "%", count: 200), name = String(repeating: "x", count: 200)
        let text = "$var wire 1 \(identifier) \(name) $end\n$var wire 1 ! other $end\n$enddefinitions $end\n"
            + "#0 1\(identifier) 0!\n#5 0\(identifier)\n#6 1!\n"
        let reader = try Hostile.vcd(text, channel: name)
        let (edges, error) = Hostile.read(reader)
        #expect(error == nil)
        #expect(edges == [Edge(level: .high, timeNs: 0), Edge(level: .low, timeNs: 5)])
        #expect(reader.channel?.name == name && reader.channel?.identifier == identifier)
    }

    /// Before, an identifier that is not UTF-8 was kept as U+FFFD and never matched its value changes.
    @Test func identifiersThatAreNotUTF8Match() throws {
        let bytes = Array("$var wire 1 ".utf8) + [0xFF, 0xFE] + Array(" b $end\n$enddefinitions $end\n#0 1".utf8) + [0xFF, 0xFE]
            + Array("\n#3 0".utf8) + [0xFF, 0xFE] + Array("\n#4 1".utf8) + [0xFF, 0xFD] + Array("\n".utf8)
        let (edges, error) = Hostile.read(try Hostile.vcd(bytes))
        #expect(error == nil)
        #expect(edges == [Edge(level: .high, timeNs: 0), Edge(level: .low, timeNs: 3)])
    }

    @Test(arguments: [
        (Array((Hostile.header + "#0 1!\n#5 0\0!\n").utf8), 7), (Array("$var wire 1 ! b\0 $end".utf8), 1),
        (Array((Hostile.header + "#0 1!\n$comment \0 $end\n").utf8), 7), ([0xEF, 0xBB, 0xBF, 0], 1),
    ])
    func nulBytesAreNamed(bytes: [UInt8], line: Int) throws {
        for bufferBytes in [VCDReader.minimumBufferBytes, 1 << 20] {
            let (edges, error) = Hostile.read(try Hostile.vcd(bytes, bufferBytes: bufferBytes))
            #expect(edges == (line == 7 ? [Edge(level: .high, timeNs: 0)] : []))
            #expect(Hostile.problem(error, line: line) == VCDProblem.nulByte)
        }
    }

    @Test(arguments: ["0 ns", "0", "00 s", "0 fs", "1000 ns", "-1 ns", "1e3 ns"])
    func aTimescaleOfZeroOrNoPowerOfTenIsAnError(timescale: String) throws {
        let (edges, error) = Hostile.read(try Hostile.vcd(VCD.oneWire(timescale: timescale, "#0 1!\n#5 0!\n")))
        #expect(edges.isEmpty)
        #expect(Hostile.problem(error, line: 1)?.contains("unknown timescale") == true)
    }

    @Test(arguments: [
        ("100 s", "92233720", "92233721"), ("1 s", "9223372036", "9223372037"),
        ("1 ns", "9223372036854775807", "9223372036854775808"), ("1 fs", "18446744073709551615", "18446744073709551616"),
    ])
    func timesBeyondInt64NanosecondsAreOutOfRange(timescale: String, largest: String, tooLarge: String) throws {
        let text = VCD.oneWire(timescale: timescale, "#0 1!\n#\(largest) 0!\n#\(tooLarge) 1!\n")
        let (edges, error) = Hostile.read(try Hostile.vcd(text))
        #expect(edges.count == 2 && edges[1].timeNs > 0)
        #expect(Hostile.problem(error, line: 8) == VCDProblem.timeOutOfRange)
    }
}
