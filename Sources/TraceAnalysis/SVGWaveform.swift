import DebounceCore

// MARK: - Step waveform, aggregated per pixel column

/// Builds one row's step waveform: a path through every level change, where a pixel column with one
/// change gets an exact vertical step and a column with several is filled from low to high (touching
/// filled columns merge into one band). Output grows with the width, never with the number of edges.
struct Waveform {
    let scale: TraceSVG.TimeScale
    let columns: Int
    let highY: Double
    let lowY: Double
    private(set) var level: Level

    private var path = ""
    private var bands = ""
    /// The column being accumulated, its number of level changes, and the time of its first change.
    private var column = -1
    private var changes = 0
    private var firstChangeNs: Int64 = 0
    /// The pending band: its first and last columns and the level after it.
    private var band: (first: Int, last: Int, levelAfter: Level)?

    init(scale: TraceSVG.TimeScale, columns: Int, highY: Double, lowY: Double, level: Level) {
        self.scale = scale
        self.columns = columns
        self.highY = highY
        self.lowY = lowY
        self.level = level
        path = "M\(TraceSVG.number(scale.plotLeft)) \(TraceSVG.number(y(level)))"
    }

    func y(_ level: Level) -> Double { level == .high ? highY : lowY }

    /// A change to `level` at `timeNs` (a repeat of the current level changes nothing). Times must not decrease.
    mutating func add(level newLevel: Level, atNs timeNs: Int64) {
        guard newLevel != level else { return }
        let newColumn = scale.column(timeNs, columns: columns)
        if newColumn != column {
            flushColumn()
            column = newColumn
            changes = 0
            firstChangeNs = timeNs
        }
        changes += 1
        level = newLevel
    }

    private mutating func flushColumn() {
        guard column >= 0, changes > 0 else { return }
        if changes == 1 {
            closeBand()
            let x = TraceSVG.number(scale.x(firstChangeNs))
            path += "H\(x)V\(TraceSVG.number(y(level)))"
        } else if let current = band, current.last + 1 == column {
            band = (current.first, column, level)
        } else {
            closeBand()
            path += "H\(TraceSVG.number(scale.plotLeft + Double(column)))"
            band = (column, column, level)
        }
    }

    private mutating func closeBand() {
        guard let current = band else { return }
        band = nil
        let left = scale.plotLeft + Double(current.first)
        let width = Double(current.last - current.first + 1)
        bands += "M\(TraceSVG.number(left)) \(TraceSVG.number(highY))h\(TraceSVG.number(width))"
        bands += "V\(TraceSVG.number(lowY))h-\(TraceSVG.number(width))z"
        path += "M\(TraceSVG.number(left + width)) \(TraceSVG.number(y(current.levelAfter)))"
    }

    /// The row's SVG elements: the filled bands (if any), then the step path.
    mutating func finish(id: String, color: String) -> String {
        flushColumn()
        column = -1
        closeBand()
        path += "H\(TraceSVG.number(scale.plotRight))"
        var out = ""
        if !bands.isEmpty {
            out += "<path id=\"\(id)-bands\" d=\"\(bands)\" fill=\"\(color)\" fill-opacity=\"0.85\"/>\n"
        }
        out += "<path id=\"\(id)-wave\" d=\"\(path)\" stroke=\"\(color)\" stroke-width=\"2\" "
        out += "stroke-linejoin=\"miter\" fill=\"none\"/>\n"
        return out
    }
}
