/// One GPIO chip as read once (`ChipInventory`): where it is, its kernel name, its driver's label, and
/// each line's name, consumer and direction as they were when read. A value: it holds no open chip.
package struct ChipDescription: Sendable, Hashable {
    /// The device path it was read at, e.g. `/dev/gpiochip4`.
    package var path: String
    /// The kernel's name, e.g. `gpiochip4`.
    package var name: String
    /// The driver's label, e.g. `pinctrl-rp1`.
    package var label: String
    /// Every line by offset (`lines[k].offset == k`); a line whose info could not be read is unnamed
    /// and unused here, with its error in `unreadableLines`.
    package var lines: [LineInfo]
    /// The lines whose info could not be read (`GPIOChip.lineInfo`), by offset, and why.
    package var unreadableLines: [Int: GPIOError]

    package init(path: String, name: String, label: String, lines: [LineInfo], unreadableLines: [Int: GPIOError] = [:]) {
        self.path = path
        self.name = name
        self.label = label
        self.lines = lines
        self.unreadableLines = unreadableLines
    }

    /// A chip from its lines' names (empty for an unnamed line), all unused inputs, at `path` (nil:
    /// `/dev/` and its name): what tests and the header rule need.
    package init(path: String? = nil, name: String, label: String, lineNames: [String]) {
        self.init(
            path: path ?? "/dev/\(name)", name: name, label: label,
            lines: lineNames.enumerated().map { LineInfo(offset: $0, name: $1) })
    }

    /// Reads the open `chip`: its names, then every line's info (`GPIOChip.lineInfo`, one
    /// `GPIO_V2_GET_LINEINFO_IOCTL` or `GPIO_GET_LINEINFO_IOCTL` a line).
    package init(reading chip: GPIOChip) {
        var lines: [LineInfo] = []
        var unreadable: [Int: GPIOError] = [:]
        for offset in 0..<chip.lineCount {
            do {
                lines.append(try chip.lineInfo(offset: offset))
            } catch {
                lines.append(LineInfo(offset: offset, name: ""))
                unreadable[offset] = error
            }
        }
        self.init(path: chip.path, name: chip.name, label: chip.label, lines: lines, unreadableLines: unreadable)
    }

    /// How many lines the chip has (offsets `0..<lineCount`).
    package var lineCount: Int { lines.count }

    /// The lines' names by offset (empty for an unnamed line).
    package var lineNames: [String] { lines.map(\.name) }

    /// The names the lines have, for "did you mean" (the unnamed left out).
    package var givenLineNames: [String] { lineNames.filter { !$0.isEmpty } }

    /// The offset of the first line named `name` (as libgpiod's lookup by name finds it), or `nil`.
    package func offset(ofLineNamed name: String) -> Int? {
        guard !name.isEmpty else { return nil }
        return lines.firstIndex { $0.name == name }
    }

    /// `gpiochip4 [pinctrl-rp1]`, as messages list the chips.
    package var nameAndLabel: String { "\(name) [\(label)]" }
}
