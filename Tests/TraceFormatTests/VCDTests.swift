import DebounceCore
import EventOutput
import Foundation
import SystemPackage
import Simulation
import Testing
import TraceFormat

/// Helpers for the VCD tests (in a namespace, so they cannot collide with other test files').
enum VCD {
    /// A pipe already holding `bytes`, its write end closed: read it to the end, no file needed.
    /// `bytes` must fit in the pipe (64 KiB on Linux).
    static func pipe(holding bytes: [UInt8]) throws -> FileDescriptor {
        precondition(bytes.count <= 60_000)
        let (readEnd, writeEnd) = try FileDescriptor.pipe()
        defer { try? writeEnd.close() }
        _ = try bytes.withUnsafeBytes { try writeEnd.writeAll($0) }
        return readEnd
    }

    /// A temporary `.vcd` file holding `text`; the caller removes it.
    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-debounce-\(UUID().uuidString).vcd").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// A reader of `text` named `t.vcd`, through a file (so any length works).
    static func reader(_ text: String, channel: String?, bufferBytes: Int = 1 << 20) throws -> VCDReader {
        let path = try file(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return VCDReader(
            fileDescriptor: try FileDescriptor.open(FilePath(path), .readOnly), sourceName: "t.vcd", ownsFileDescriptor: true,
            channel: channel, bufferBytes: bufferBytes)
    }

    /// Every edge of `channel` in `text`.
    static func edges(_ text: String, channel: String?, bufferBytes: Int = 1 << 20) throws -> [Edge] {
        try drain(reader(text, channel: channel, bufferBytes: bufferBytes))
    }

    static func drain(_ source: some TraceSource) throws -> [Edge] {
        var edges: [Edge] = []
        while let edge = try source.next() { edges.append(edge) }
        return edges
    }

    /// What `body` writes to an output buffer, as text.
    static func captured(_ body: (OutputBuffer) throws -> Void) throws -> String {
        let path = try file("")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = try FileDescriptor.open(FilePath(path), .writeOnly)
        let buffer = OutputBuffer(fileDescriptor: descriptor, flushThreshold: 100)
        try body(buffer)
        try buffer.flush()
        try descriptor.close()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Whether `error` is a malformed-line error of `t.vcd` at `line` whose problem contains `problem`.
    static func isMalformed(_ error: any Error, line: Int, _ problem: String) -> Bool {
        guard case .malformedLine(let source, let reportedLine, let reportedProblem, _) = error as? TraceError else { return false }
        return source == "t.vcd" && reportedLine == line && reportedProblem.contains(problem)
    }

    /// A sigrok-cli / PulseView export (libsigrok's output/vcd.c): changes of all channels at one sample
    /// on one line, and a final time marking the capture's length.
    static let sigrok = """
        $date Sat Mar  2 12:00:00 2024 $end
        $version libsigrok 0.5.2 $end
        $comment
          Acquisition with 2/8 channels at 1 MHz
        $end
        $timescale 1 us $end
        $scope module libsigrok $end
        $var wire 1 ! D0 $end
        $var wire 1 " D1 $end
        $upscope $end
        $enddefinitions $end
        #0 1! 0"
        #1500 0!
        #1502 1!
        #1503 0! 1"
        #4000 1!
        #5000

        """

    /// A header with one 1-bit wire `b` (id `!`) at `timescale`, then `body`.
    static func oneWire(timescale: String = "1 ns", _ body: String) -> String {
        "$timescale \(timescale) $end\n$scope module m $end\n$var wire 1 ! b $end\n$upscope $end\n$enddefinitions $end\n"
            + body
    }
}


@Suite struct VCDReaderTests {
    @Test func readsASigrokExportByNameIndexAndScope() throws {
        let d0 = [
            Edge(level: .high, timeNs: 0), Edge(level: .low, timeNs: 1_500_000), Edge(level: .high, timeNs: 1_502_000),
            Edge(level: .low, timeNs: 1_503_000), Edge(level: .high, timeNs: 4_000_000),
        ]
        let d1 = [Edge(level: .low, timeNs: 0), Edge(level: .high, timeNs: 1_503_000)]
        for (channel, expected) in [("D0", d0), ("0", d0), ("libsigrok.D0", d0), ("D1", d1), ("1", d1), ("libsigrok.D1", d1)] {
            let reader = try VCD.reader(VCD.sigrok, channel: channel)
            #expect(try VCD.drain(reader) == expected, "channel \(channel)")
            #expect(reader.latestTimeNs == 5_000_000)
            #expect(reader.timescale == "1 us")
            #expect(reader.channels.map(\.fullName) == ["libsigrok.D0", "libsigrok.D1"])
        }
    }

    @Test func openReadsTheHeaderAndConformsToTraceSource() throws {
        let path = try VCD.file(VCD.sigrok)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try VCDReader.open(path, channel: "D1")
        #expect(reader.channel == VCDChannel(name: "D1", scope: "libsigrok", type: "wire", width: 1, identifier: "\""))
        let source: any TraceSource = reader
        #expect(source.sourceName == path)
        #expect(try source.next() == Edge(level: .low, timeNs: 0))
        #expect(throws: TraceError.cannotOpen(path: "/nonexistent/x.vcd", errno: .noSuchFileOrDirectory)) {
            _ = try VCDReader.open("/nonexistent/x.vcd", channel: nil)
        }
    }

    @Test func theOnlyChannelNeedsNoName() throws {
        #expect(try VCD.edges(VCD.oneWire("#0\n$dumpvars\n1!\n$end\n#7\n0!\n"), channel: nil) == [
            Edge(level: .high, timeNs: 0), Edge(level: .low, timeNs: 7),
        ])
    }

    @Test(arguments: [
        ("1ps", "1500", Int64(1)), ("1 ps", "999", 0), ("10ns", "7", 70), ("100us", "3", 300_000),
        ("1s", "2", 2_000_000_000), ("\n 1ns\n", "5", 5), ("100 fs", "123456", 12), ("10 ms", "1", 10_000_000),
        ("100\ns", "9", 900_000_000_000), ("1 fs", "18446744073709551615", 18_446_744_073_709),
    ])
    func timescalesConvertToNanoseconds(timescale: String, ticks: String, ns: Int64) throws {
        let text = VCD.oneWire(timescale: timescale, "#0\n0!\n#\(ticks)\n1!\n")
        let reader = try VCD.reader(text, channel: "b")
        #expect(try VCD.drain(reader) == [Edge(level: .low, timeNs: 0), Edge(level: .high, timeNs: ns)])
    }

    @Test func repeatedValuesAreNoEdgesAndUnknownValuesHoldTheLevel() throws {
        // x/z/u/w/- neither set nor change the level; l/h are 0/1; a space before the id is tolerated.
        let text = VCD.oneWire("$dumpvars x! $end\n#5 z!\n#6 1!\n#7 1!\n#8 X!\n#9 1!\n#10 Z!\n#11 0 !\n#12 l!\n#13 h!\n#14 -!\n#15 0!\n")
        #expect(try VCD.edges(text, channel: nil) == [
            Edge(level: .high, timeNs: 6), Edge(level: .low, timeNs: 11), Edge(level: .high, timeNs: 13),
            Edge(level: .low, timeNs: 15),
        ])
    }

    @Test func otherChannelsVectorsRealsAndCommentsAreSkipped() throws {
        let text = """
            $version some simulator $end
            $timescale 1ns $end
            $scope module top $end
            $scope module sub $end
            $var reg 8 # data [7:0] $end
            $var real 64 % volts $end
            $var wire 1 ! btn $end
            $var wire 1 !! other $end
            $upscope $end
            $upscope $end
            $enddefinitions $end
            #0
            $dumpvars
            b00000000 #
            r0.5 %
            0!
            1!!
            $end
            #10 b1010 # r3.3 % 1!! 0!!
            $comment this is
            a comment 1! #3 $end
            #20 1! b1 ! b0 # bx !
            #30 b0 !
            """
        #expect(try VCD.edges(text, channel: "btn") == [
            Edge(level: .low, timeNs: 0), Edge(level: .high, timeNs: 20), Edge(level: .low, timeNs: 30),
        ])
        #expect(try VCD.edges(text, channel: "top.sub.btn") == VCD.edges(text, channel: "0"))
        #expect(try VCD.edges(text, channel: "1") == [
            Edge(level: .high, timeNs: 0), Edge(level: .low, timeNs: 10),
        ])
        let reader = try VCD.reader(text, channel: "other")
        try reader.readHeader()
        #expect(reader.channels.map(\.name) == ["data[7:0]", "volts", "btn", "other"])
        #expect(reader.channel?.fullName == "top.sub.other" && reader.channel?.identifier == "!!")
    }

    @Test func tokensLongerThanTheBufferAreSkippedWhereOnlyTheirPresenceMatters() throws {
        let bits = String(repeating: "10", count: 5_000)
        let text = """
            $comment \(String(repeating: "y", count: 10_000)) $end
            $timescale 1 ns $end
            $var wire 10000 # big $end
            $var wire 1 ! b $end
            $enddefinitions $end
            #0 0! b\(bits) #
            $comment \(String(repeating: "z", count: 10_000)) $end
            #5 1! b\(bits)1 #
            #6 b\(bits)0 !

            """
        let expected = [Edge(level: .low, timeNs: 0), Edge(level: .high, timeNs: 5), Edge(level: .low, timeNs: 6)]
        for bufferBytes in [1, 64, 100, 4096, 1 << 20] {
            #expect(try VCD.edges(text, channel: "b", bufferBytes: bufferBytes) == expected, "buffer \(bufferBytes)")
        }
    }

    @Test func streamsAcrossTinyBuffers() throws {
        var random = SplitMix64(seed: 42)
        var text = VCD.sigrok.components(separatedBy: "#0")[0] + "#0 1! 0\"\n"
        var levels = [Level.high, .low]
        var expected = [[Edge(level: .high, timeNs: 0)], [Edge(level: .low, timeNs: 0)]]
        var time: Int64 = 0
        for _ in 0..<20_000 {
            time += Int64.random(in: 1...3_000, using: &random)
            var line = "#\(time)"
            for channel in 0..<2 where Bool.random(using: &random) {
                levels[channel] = levels[channel].toggled
                line += " \(levels[channel])\(channel == 0 ? "!" : "\"")"
                expected[channel].append(Edge(level: levels[channel], timeNs: time * 1_000))
            }
            text += line + (Int.random(in: 0..<50, using: &random) == 0 ? "\r\n" : "\n")
        }
        for bufferBytes in [1, 65, 1_000, 65_536] {
            for channel in 0..<2 {
                #expect(try VCD.edges(text, channel: "D\(channel)", bufferBytes: bufferBytes) == expected[channel])
            }
        }
    }

    @Test(arguments: [
        // A header without $enddefinitions.
        ("$timescale 1 us $end\n$scope module m $end\n$var wire 1 ! D0 $end\n", "D0", 3, "ends before $enddefinitions"),
        ("$timescale 1 us $end\n$var wire 1 ! D0 $end\n#0 1!\n", "D0", 3, "value changes before $enddefinitions"),
        ("$date\n today\n", "D0", 2, "ends inside $date"),
        ("", "D0", 1, "ends before $enddefinitions"),
        // No value for the channel.
        (VCD.sigrok.components(separatedBy: "#0")[0] + "#0 1\"\n#10 0\"\n", "D0", 13, "without any 0 or 1 value for channel 'libsigrok.D0'"),
        (VCD.oneWire("#0 x!\n#10\n"), "b", 7, "without any 0 or 1 value"),
        // Unknown timescales.
        ("$timescale 3 us $end\n", nil, 1, "unknown timescale '3us'"),
        ("\n$timescale\n 1 ks\n$end\n", nil, 2, "unknown timescale '1ks'"),
        ("$timescale 1000 ns $end\n", nil, 1, "unknown timescale"),
        ("$timescale $end\n", nil, 1, "unknown timescale ''"),
        // Time going backwards, or out of range.
        (VCD.oneWire("#0 1!\n#100 0!\n#50 1!\n"), nil, 8, "time goes backwards (#50 after #100)"),
        (VCD.oneWire("#0 1!\n#99999999999999999999 0!\n"), nil, 7, "out of range"),
        (VCD.oneWire(timescale: "1 s", "#0 1!\n#10000000000 0!\n"), nil, 7, "out of range"),
        (VCD.oneWire("#0 1!\n#12a 0!\n"), nil, 7, "a time must be #"),
        // Choosing the channel.
        (VCD.sigrok, "D7", 11, "no channel 'D7' in the VCD; its 1-bit channels are: D0, D1"),
        (VCD.sigrok, "2", 11, "no channel '2'"),
        (VCD.sigrok, nil, 11, "several 1-bit channels; choose one with --channel NAME or --channel INDEX (0-based): D0, D1"),
        ("$var wire 8 # bus $end\n$var wire 1 ! b $end\n$enddefinitions $end\n", "bus", 3, "'bus' is a wire of 8 bits"),
        ("$var wire 8 # bus $end\n$enddefinitions $end\n", nil, 2, "declares no 1-bit channel"),
        ("$scope module a $end $var wire 1 ! b $end $upscope $end\n$scope module c $end $var wire 1 # b $end $upscope $end\n$enddefinitions $end\n",
         "b", 3, "'b' is ambiguous; give one of: a.b, c.b"),
        // Not VCD, or malformed.
        ("0,1\n5,0\n", nil, 1, "is this a VCD file?"),
        ("$var wire ! D0 $end\n", nil, 1, "declared as $var type size identifier name"),
        (VCD.oneWire("#0 1!\nfoo\n"), nil, 7, "expected #time, a value change"),
        (VCD.oneWire("#0 1!\n$dumpvar 0! $end\n"), nil, 7, "expected #time, a value change"),
        (VCD.oneWire("#0 1!\nb !\n"), nil, 7, "b<bits> <id>"),
        (VCD.oneWire("#0 1!\nb2 !\n"), nil, 7, "must be 0, 1, x or z"),
    ] as [(String, String?, Int, String)])
    func errorsNameTheLineAndTheProblem(text: String, channel: String?, line: Int, problem: String) throws {
        #expect {
            _ = try VCD.edges(text, channel: channel)
        } throws: { error in
            VCD.isMalformed(error, line: line, problem)
        }
    }

    @Test func errorMessagesNameTheSourceAndTheChannels() throws {
        do {
            _ = try VCD.edges(VCD.sigrok, channel: "button")
            Issue.record("expected an error")
        } catch {
            let text = "\(error)"
            #expect(text.hasPrefix("t.vcd:11: no channel 'button' in the VCD; its 1-bit channels are: D0, D1"))
        }
    }
}

@Suite struct VCDWriterTests {
    @Test func writesAHeaderGTKWaveAndPulseViewRead() throws {
        let text = try VCD.captured { buffer in
            var writer = try VCDWriter(
                output: buffer, signals: ["raw", "pressed"], initialLevels: [.high, .low], startNs: 0, comment: "a $end b")
            try writer.change(signal: 0, to: .low, atNs: 1_500)
            try writer.change(signal: 1, to: .high, atNs: 1_500)
            try writer.change(signal: 1, to: .high, atNs: 1_600)
            try writer.change(signal: 0, to: .high, atNs: 2_000)
            try writer.finish(atNs: 9_000)
        }
        #expect(text == """
            $version gpio-debounce $end
            $comment a _end b $end
            $timescale 1 ns $end
            $scope module gpio_debounce $end
            $var wire 1 ! raw $end
            $var wire 1 " pressed $end
            $upscope $end
            $enddefinitions $end
            #0
            $dumpvars
            1!
            0"
            $end
            #1500
            0!
            1"
            #2000
            1!
            #9000

            """)
    }

    @Test func roundTripGivesIdenticalEdges() throws {
        var random = SplitMix64(seed: 7)
        let names = ["raw", "pressed", "with space"]
        var expected: [[Edge]] = [[Edge(level: .low, timeNs: 1_000)], [Edge(level: .high, timeNs: 1_000)], [Edge(level: .low, timeNs: 1_000)]]
        let text = try VCD.captured { buffer in
            var writer = try VCDWriter(
                output: buffer, signals: names, initialLevels: expected.map { $0[0].level }, startNs: 1_000, originNs: 0)
            var time: Int64 = 1_000
            for _ in 0..<5_000 {
                if Bool.random(using: &random) { time += Int64.random(in: 1...1_000_000, using: &random) }
                let signal = Int.random(in: 0..<names.count, using: &random)
                let level = expected[signal].last!.level.toggled
                try writer.change(signal: signal, to: level, atNs: time)
                expected[signal].append(Edge(level: level, timeNs: time))
            }
            try writer.finish(atNs: time + 1)
        }
        for (index, name) in ["raw", "pressed", "with_space"].enumerated() {
            #expect(try VCD.edges(text, channel: name) == expected[index])
            #expect(try VCD.edges(text, channel: "\(index)", bufferBytes: 64) == expected[index])
        }
        // Times only go forward, and each is written once.
        let times = text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { Int64($0.dropFirst())! }
        #expect(times == times.sorted() && Set(times).count == times.count)
    }

    @Test func originShiftsTimesAndEarlierTimesAreRejected() throws {
        _ = try VCD.captured { buffer in
            var writer = try VCDWriter(
                output: buffer, signals: ["raw"], initialLevels: [.low], startNs: 5_000_000_000, originNs: 5_000_000_000)
            try writer.change(signal: 0, to: .high, atNs: 5_000_000_010)
            #expect(throws: Errno.invalidArgument) { try writer.change(signal: 0, to: .low, atNs: 5_000_000_009) }
            #expect(throws: Errno.invalidArgument) { try writer.finish(atNs: 0) }
            try writer.finish(atNs: 5_000_000_020)
            #expect(throws: Errno.invalidArgument) {
                _ = try VCDWriter(output: buffer, signals: ["raw"], initialLevels: [.low], startNs: -1)
            }
        }
    }

    @Test func identifiersAreUniquePrintableCodes() {
        let codes = (0..<20_000).map(VCDWriter.identifier)
        #expect(codes[0] == "!" && codes[1] == "\"" && codes[93] == "~" && codes[94].count == 2)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { $0.utf8.allSatisfy { $0 >= 33 && $0 <= 126 } })
    }
}

@Suite struct TraceFuzzTests {
    static let snippets: [[UInt8]] = [
        "$end", "$var wire 1 ! D0 $end", "#", "#18446744073709551615", "#9223372036854775807", "$dumpvars", "$comment",
        "b", "b1", "x!", "1", "0", "\n", " ", "$enddefinitions $end", "99999999999999999999", "-", ",", "t_ns,level",
        "\r\n", "$timescale", "1 fs", "$scope", "$upscope", "\u{FEFF}", "#-1", "+", "\t", "$", "!",
    ].map { Array($0.utf8) }

    /// `base` with 1 to 6 random mutations: bit flips, byte replacements, truncations, insertions,
    /// deletions and duplications, at most `limit` bytes.
    static func mutate(_ base: [UInt8], limit: Int, using random: inout SplitMix64) -> [UInt8] {
        var bytes = base
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &random)
            case 1 where !bytes.isEmpty:
                bytes[position] = Bool.random(using: &random) ? UInt8.random(in: 0...255, using: &random)
                    : Array("#$ \n01xz!\"-,b\r\0".utf8).randomElement(using: &random)!
            case 2:
                bytes.removeSubrange(position...)
            case 3:
                bytes.insert(contentsOf: snippets.randomElement(using: &random)!, at: position)
            case 4:
                bytes.insert(contentsOf: repeatElement(UInt8(ascii: "7"), count: Int.random(in: 1...300, using: &random)), at: position)
            case 5:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...40, using: &random)))
            default:
                let chunk = bytes[position..<min(bytes.count, position + Int.random(in: 1...200, using: &random))]
                bytes.insert(contentsOf: Array(chunk), at: position)
            }
        }
        return Array(bytes.prefix(limit))
    }

    /// Reads `source` to the end or to its first error: only edges or a `TraceError`, and no more edges than
    /// the input could hold (a reader looping forever on the same data would exceed that).
    static func check(_ source: some TraceSource, inputBytes: Int, isVCD: Bool) -> Bool {
        var edges: [Edge] = []
        do {
            while let edge = try source.next() {
                edges.append(edge)
                if edges.count > inputBytes {
                    Issue.record("more edges than input bytes")
                    return false
                }
            }
            if try source.next() != nil { Issue.record("an edge after the end") }
        } catch {
            // `next()` throws only TraceError (typed throws): the point is that it returned at all.
            #expect(!"\(error)".isEmpty)
            return false
        }
        if isVCD {
            // VCD edges alternate and never go back in time.
            for (previous, edge) in zip(edges, edges.dropFirst()) {
                #expect(edge.level != previous.level && edge.timeNs >= previous.timeNs && edge.timeNs >= 0)
            }
        }
        return true
    }

    @Test(.timeLimit(.minutes(5)))
    func mutatedVCDsOnlyGiveEdgesOrErrors() throws {
        var random = SplitMix64(seed: 0x5EED_1364)
        let base = Array((VCD.sigrok + "#6000 0! 1\"\n$dumpvars x! z\" $end\n#7000 b1 ! r1.5 \"\n#8000 1\" 0!\n").utf8)
        var successes = 0
        let cases = 5_000
        for _ in 0..<cases {
            let bytes = Self.mutate(base, limit: 8_192, using: &random)
            let channel = [nil, "D0", "1", "libsigrok.D1", "D9"].randomElement(using: &random)!
            let reader = VCDReader(
                fileDescriptor: try VCD.pipe(holding: bytes), sourceName: "fuzz.vcd", ownsFileDescriptor: true,
                channel: channel, bufferBytes: [1, 97, 1 << 16].randomElement(using: &random)!)
            if Self.check(reader, inputBytes: bytes.count, isVCD: true) { successes += 1 }
        }
        // The mutations are neither all harmless nor all fatal.
        #expect(successes > cases / 20 && successes < cases * 19 / 20, "\(successes) of \(cases) read without error")
    }

    @Test(.timeLimit(.minutes(5)))
    func mutatedTextTracesOnlyGiveEdgesOrErrors() throws {
        var random = SplitMix64(seed: 0xC5F_7E57)
        var text = "# comment\nt_ns,level\n0,1\n"
        for index in 1...60 { text += "\(index * 1_000_003),\(index % 2)\n" }
        let base = Array(text.utf8)
        var successes = 0
        let cases = 5_000
        for _ in 0..<cases {
            let bytes = Self.mutate(base, limit: 8_192, using: &random)
            let reader = TraceReader(
                fileDescriptor: try VCD.pipe(holding: bytes), sourceName: "fuzz.csv", ownsFileDescriptor: true,
                bufferBytes: [1, 1 << 16].randomElement(using: &random)!)
            if Self.check(reader, inputBytes: bytes.count, isVCD: false) { successes += 1 }
        }
        #expect(successes > cases / 20 && successes < cases * 19 / 20, "\(successes) of \(cases) read without error")
    }
}
