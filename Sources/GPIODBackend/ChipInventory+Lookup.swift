import Settings

extension ChipInventory {
    /// Finds what a user typed, `17` or `GPIO17`, with or without `--chip`/`chip:`, and opens its chip
    /// (`resolve`, then `open`): the chip, shared by every line of it, and the lines' offsets.
    package func locate(chip chipSpec: String?, lines: [String]) throws(GPIOError) -> (chip: GPIOChip, offsets: [Int]) {
        let found = try resolve(chip: chipSpec, lines: lines)
        return (try open(found.chip), found.offsets)
    }

    /// Resolves `lines` (offsets or line names) on `chipSpec`, or, without one, on the chip where the
    /// named lines are (the header's chip first), or for offsets alone on the header's chip (`header`:
    /// `gpiochip4` on a Pi 5 with a kernel from before the renumbering, else `gpiochip0`). Throws
    /// `offsetOutOfRange`, `unknownLineName` with close names, `linesOnDifferentChips`, or what `chip(_:)`
    /// throws.
    package func resolve(chip chipSpec: String?, lines: [String]) throws(GPIOError) -> (chip: ChipDescription, offsets: [Int]) {
        let chip: ChipDescription
        var offsetsMean: String?
        if let chipSpec {
            chip = try self.chip(chipSpec)
        } else if let firstName = lines.first(where: { Int($0) == nil }) {
            chip = try self.chip(holding: firstName)
        } else {
            chip = try headerChip()
            offsetsMean = header.inErrors
        }
        var offsets: [Int] = []
        for line in lines {
            if let offset = Int(line) {
                guard offset >= 0, offset < chip.lineCount else {
                    throw .offsetOutOfRange(chip: offsetsMean ?? chip.name, offset: offset, lineCount: chip.lineCount)
                }
                offsets.append(offset)
            } else if let offset = chip.offset(ofLineNamed: line) {
                offsets.append(offset)
            } else if chipSpec == nil, let other = try? self.chip(holding: line) {
                throw .linesOnDifferentChips([chip.name, other.name])
            } else {
                throw .unknownLineName(line, chip: chip.name, suggestions: NearestNames.suggestions(for: line, among: chip.givenLineNames))
            }
        }
        return (chip, offsets)
    }

    /// The chip a user named, as gpiomon's `--chip` accepts it: a path (`/dev/gpiochip0`), a number
    /// (`0`), a kernel name (`gpiochip0`) or a label (`pinctrl-bcm2711`, the first chip with it).
    package func chip(_ spec: String) throws(GPIOError) -> ChipDescription {
        if let path = Self.path(of: spec) { return try chip(atPath: path) }
        if let chip = chips.first(where: { $0.label == spec }) { return chip }
        throw .noSuchChip(spec, available: availableNames)
    }

    /// The chip that offsets alone mean (`header`); for the fallback, `gpiochip0`, what opening it
    /// throws when it could not be read (`permissionDenied`) or is not there (`noSuchChip`).
    package func headerChip() throws(GPIOError) -> ChipDescription {
        if let chip = chips.first(where: { $0.name == header.chip }) { return chip }
        return try chip(header.chip)
    }

    /// The chip with a line named `name`: the header's chip if it has one, else the first in number
    /// order (`HeaderChip.holder`). Without one, `unknownLineName` with the close names of every chip,
    /// or `noSuchChip` when this machine has no chip at all.
    package func chip(holding name: String) throws(GPIOError) -> ChipDescription {
        if let holder = HeaderChip.holder(of: name, among: chips) { return holder }
        if isEmpty { throw .noSuchChip(HeaderChip.fallback, available: []) }
        throw .unknownLineName(name, chip: nil, suggestions: NearestNames.suggestions(for: name, among: chips.flatMap(\.givenLineNames)))
    }

    /// The device path a chip specification names (`/dev/gpiochip0` for `0`, `gpiochip0` and itself),
    /// or `nil` for a label.
    static func path(of spec: String) -> String? {
        if spec.hasPrefix("/") { return spec }
        if !spec.isEmpty, spec.allSatisfy(\.isASCII), spec.allSatisfy(\.isNumber) { return "/dev/gpiochip\(spec)" }
        if spec.hasPrefix("gpiochip") { return "/dev/\(spec)" }
        return nil
    }

    /// The chip at `path`: an entry's (or the error opening it), else opened now, as for a symbolic
    /// link (Raspberry Pi OS's `/dev/gpiochip4` to `gpiochip0` on a Pi 5), which gives the chip it leads
    /// to under the path given, or a path that is no chip, whose error (`noSuchChip`, `notAChip`) it throws.
    private func chip(atPath path: String) throws(GPIOError) -> ChipDescription {
        if let entry = entries.first(where: { $0.path == path }) {
            switch entry {
            case .chip(let chip): return chip
            case .unopenable(_, let error): throw error
            }
        }
        let opened: GPIOChip
        do {
            opened = try GPIOChip(path: path)
        } catch {
            if case .noSuchChip(let missing, _) = error { throw .noSuchChip(missing, available: availableNames) }
            throw error
        }
        guard var listed = chips.first(where: { $0.name == opened.name }) else { return ChipDescription(reading: opened) }
        listed.path = path
        return listed
    }
}
