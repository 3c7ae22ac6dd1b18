import DebounceCore
import Testing

/// How a selector's lines make a value (`SelectorCode`), and back.
@Suite struct SelectorCodeTests {
    @Test(arguments: SelectorCode.allCases)
    func everyValidValueHasOneReadingAndItGivesTheValueBack(code: SelectorCode) {
        for lineCount in 1...12 {
            var readings: [Int: UInt32] = [:]
            for bits in UInt32(0)..<(UInt32(1) << UInt32(lineCount)) {
                guard let value = code.value(ofActiveLines: bits, lineCount: lineCount) else { continue }
                #expect(readings[value] == nil, "\(code), \(lineCount) lines: \(value) from two readings")
                readings[value] = bits
            }
            for value in -1...((1 << lineCount) + 2) {
                #expect(code.activeLines(forValue: value, lineCount: lineCount) == readings[value], "\(code), \(lineCount) lines, \(value)")
            }
        }
    }

    @Test func oneHotCountsFromOneAndRefusesNoLineAndTwo() {
        #expect(SelectorCode.oneHot.value(ofActiveLines: 0b0001, lineCount: 4) == 1)
        #expect(SelectorCode.oneHot.value(ofActiveLines: 0b1000, lineCount: 4) == 4)
        #expect(SelectorCode.oneHot.value(ofActiveLines: 0, lineCount: 4) == nil)
        #expect(SelectorCode.oneHot.value(ofActiveLines: 0b0101, lineCount: 4) == nil)
    }

    @Test func grayNeighboursDifferInOneLine() {
        for lineCount in 1...10 {
            for value in 0..<((1 << lineCount) - 1) {
                let here = SelectorCode.gray.activeLines(forValue: value, lineCount: lineCount)
                let next = SelectorCode.gray.activeLines(forValue: value + 1, lineCount: lineCount)
                #expect((here.map { $0 ^ (next ?? 0) })?.nonzeroBitCount == 1, "\(lineCount) lines, \(value) to \(value + 1)")
            }
        }
    }

    @Test func bcdDigitsAreGroupsOfFourLinesUnitsFirst() {
        #expect(SelectorCode.bcd.value(ofActiveLines: 0b0011_0111, lineCount: 8) == 37)
        #expect(SelectorCode.bcd.value(ofActiveLines: 0b11_1001, lineCount: 6) == 39)
        #expect(SelectorCode.bcd.value(ofActiveLines: 0b1010, lineCount: 4) == nil)
        #expect(SelectorCode.bcd.activeLines(forValue: 40, lineCount: 6) == nil)
    }

    @Test func linesBeyondTheSwitchsAreNotRead() {
        #expect(SelectorCode.binary.value(ofActiveLines: 0xFF, lineCount: 4) == 15)
        #expect(SelectorCode.oneHot.value(ofActiveLines: 0b1_0000, lineCount: 4) == nil)
    }
}
