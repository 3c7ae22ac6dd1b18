import DebounceCore
import Foundation
import Simulation
import Testing

@testable import TraceFormat

/// The plain `t_ns,level` line read eight bytes at a time: it reads exactly the lines of 1 to 15
/// digits, a comma, 0 or 1 and a line feed, to the edge their text says, and leaves every other
/// line to the general parser; a whole trace of plain and other lines reads the same either way.
@Suite struct PlainTraceLineTests {
    /// `text` followed by `padding`, so that the parser's two eight-byte loads stay in the bytes.
    static func parse(_ text: String, padding: String = "9999999999999999999") -> (edge: Edge, length: Int)? {
        Array((text + padding).utf8).withUnsafeBytes { PlainTraceLine.parse($0.baseAddress!) }
    }

    /// What the line says when it is plain: its digits and its level, with its length.
    static func expected(_ line: String) -> (edge: Edge, length: Int)? {
        let bytes = Array(line.utf8)
        guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")), (1...15).contains(comma),
            bytes[..<comma].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            bytes.count >= comma + 3, bytes[comma + 1] == UInt8(ascii: "0") || bytes[comma + 1] == UInt8(ascii: "1"),
            bytes[comma + 2] == UInt8(ascii: "\n"), let timeNs = Int64(String(decoding: bytes[..<comma], as: UTF8.self))
        else { return nil }
        return (Edge(level: bytes[comma + 1] == UInt8(ascii: "0") ? .low : .high, timeNs: timeNs), comma + 3)
    }

    @Test(arguments: [
        ("0,1\n", 0, Level.high), ("7,0\n", 7, .low), ("12345678,1\n", 12_345_678, .high), ("123456789,0\n", 123_456_789, .low),
        ("979874254,1\n", 979_874_254, .high), ("000000000000042,0\n", 42, .low), ("999999999999999,1\n", 999_999_999_999_999, .high),
        ("1234567890123,0\n", 1_234_567_890_123, .low),
    ])
    func aPlainLineIsItsDigitsAndLevel(line: String, timeNs: Int64, level: Level) {
        let parsed = Self.parse(line)
        #expect(parsed?.edge == Edge(level: level, timeNs: timeNs))
        #expect(parsed?.length == line.utf8.count)
    }

    @Test(arguments: [
        "", "#0,1\n", "t_ns,level\n", "-5,1\n", "+5,1\n", " 5,1\n", "5 ,1\n", "5, 1\n", "5,1 \n", "5,1\r\n", "5,2\n", "5,10\n", "5,1",
        "5,1,1\n", "5,,1\n", ",1\n", "5;1\n", "1234567890123456,1\n", "12345678901234567890,1\n", "5\n", "\n", "\u{FEFF}5,1\n", "5\u{0},1\n",
    ])
    func anyOtherLineIsLeftToTheGeneralParser(line: String) {
        #expect(Self.parse(line) == nil)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomLinesAreReadExactlyWhenPlain(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let alphabet = Array("0123456789,\n\r -+#x".utf8)
        var plain = 0
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            if Bool.random(using: &random) {
                // Mostly plain: digits, a comma, a level, a line feed, now and then one byte changed.
                bytes = (0..<Int.random(in: 1...17, using: &random)).map { _ in UInt8.random(in: 0x30...0x39, using: &random) }
                bytes += [UInt8(ascii: ","), UInt8.random(in: 0x30...0x32, using: &random), UInt8(ascii: "\n")]
                if Int.random(in: 0..<4, using: &random) == 0 { bytes[Int.random(in: 0..<bytes.count, using: &random)] = alphabet.randomElement(using: &random)! }
            } else {
                bytes = (0..<Int.random(in: 0...22, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            }
            let line = String(decoding: bytes, as: UTF8.self)
            let parsed = Self.parse(line)
            let expected = Self.expected(line)
            if expected != nil { plain += 1 }
            #expect(parsed?.edge == expected?.edge && parsed?.length == expected?.length, "\(Array(line.utf8))")
        }
        #expect(plain > 3_000)
    }

    @Test(arguments: [4097, 4099, 4111, 1 << 20])
    func aTraceOfPlainAndOtherLinesReadsAsItsLinesSay(bufferBytes: Int) throws {
        // Plain lines with, now and then, a line the general parser reads (spaces, a sign, CRLF, a
        // comment, 17 digits), across many buffer refills: every record is the one its line says.
        var random = SplitMix64(seed: UInt64(bufferBytes))
        var text = "t_ns,level\n"
        var expected: [Edge] = []
        for index in 0..<50_000 {
            let timeNs = Int64.random(in: 0...(index % 7 == 0 ? 99_999_999_999_999_999 : 9_999_999_999_999), using: &random)
            let level: Level = Bool.random(using: &random) ? .high : .low
            let digit = level == .high ? 1 : 0
            switch index % 97 {
            case 1: text += " \(timeNs) , \(digit)\n"
            case 2: text += "+\(timeNs),\(digit)\r\n"
            case 3: text += "# a comment\n\(timeNs),\(digit)\n"
            default: text += "\(timeNs),\(digit)\n"
            }
            expected.append(Edge(level: level, timeNs: timeNs))
        }
        #expect(try readAll(text, bufferBytes: bufferBytes) == expected)
    }
}
