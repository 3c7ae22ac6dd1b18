import DebounceCore
import EventOutput
import GPIODBackend

/// What `list` prints: each chip of an inventory (or the one asked for) with its lines, like
/// gpioinfo, and which chip offsets alone mean. Each line is escaped for a terminal (a chip's label
/// or a line's consumer is written by whoever made it).
package enum ChipListing {
    /// The lines `list` prints for `inventory`, or only `chip` (a path, name, number or label) when
    /// given; `libgpiod` is the library's version. Throws the first chip or line that could not be read.
    package static func lines(of inventory: ChipInventory, chip: String?, libgpiod: String) throws(GPIOError) -> [String] {
        let chips: [ChipDescription]
        if let chip {
            chips = [try inventory.chip(chip)]
        } else {
            chips = try inventory.entries.map { entry throws(GPIOError) in
                switch entry {
                case .chip(let chip): return chip
                case .unopenable(_, let error): throw error
                }
            }
        }
        var lines: [String] = []
        if chips.isEmpty { lines.append("No GPIO chips on this machine (no /dev/gpiochip*). `gpio-debounce demo` needs none.") }
        lines.append("libgpiod \(libgpiod)")
        let header = inventory.header
        if !chips.isEmpty { lines.append(TerminalText.escaped("offsets alone (watch 17) mean \(header)")) }
        for chip in chips {
            let mark = header.isHeader && chip.name == header.chip ? " (40-pin header)" : ""
            lines.append(TerminalText.escaped("\(chip.nameAndLabel) \(counted(chip.lineCount, "line")) (\(chip.path))\(mark)"))
            for info in chip.lines {
                if let error = chip.unreadableLines[info.offset] { throw error }
                let name = info.name.isEmpty ? "unnamed" : "\"\(info.name)\""
                let usage = info.isUsed ? "used by \"\(info.consumer)\"" : "unused"
                lines.append(TerminalText.escaped("    line \(String(info.offset).leftPadded(to: 3)): \(name.rightPadded(to: 14)) \(info.isOutput ? "output" : "input ") \(usage)"))
            }
        }
        return lines
    }
}

extension String {
    /// The string after spaces that make it `width` characters wide (itself when as wide or wider).
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
    /// The string before spaces that make it `width` characters wide (itself when as wide or wider).
    fileprivate func rightPadded(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
