#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CGPIOD
import LinuxSys
import SystemPackage

/// What `gpio-debounce list` shows about one line.
package struct LineInfo: Sendable, Hashable {
    package var offset: Int
    /// The line's name from the device tree ("GPIO17"), or empty.
    package var name: String
    /// Who holds the line, or empty.
    package var consumer: String
    package var isUsed: Bool
    package var isOutput: Bool

    package init(offset: Int, name: String, consumer: String = "", isUsed: Bool = false, isOutput: Bool = false) {
        self.offset = offset
        self.name = name
        self.consumer = consumer
        self.isUsed = isUsed
        self.isOutput = isOutput
    }
}

/// An open GPIO chip (`struct gpiod_chip`), closed when this object goes away.
package final class GPIOChip {
    /// The device path, e.g. `/dev/gpiochip0`.
    package let path: String
    /// The kernel's name, e.g. `gpiochip0`.
    package let name: String
    /// The driver's label, e.g. `pinctrl-bcm2711`.
    package let label: String
    /// How many lines the chip has (offsets `0..<lineCount`).
    package let lineCount: Int
    /// The libgpiod handle, owned by this object.
    let handle: OpaquePointer

    /// Opens the chip at `path` (`gpiod_chip_open`) and reads its name, label and line count.
    package init(path: String) throws(GPIOError) {
        do {
            handle = try nonNull { gdb_chip_open(path) }
        } catch {
            switch error {
            case .noSuchFileOrDirectory: throw .noSuchChip(path, available: Self.availableNames())
            case .permissionDenied, .notPermitted: throw .permissionDenied(path: path)
            case .noSuchAddressOrDevice, .operationNotSupportedByDevice, .inappropriateIOCTLForDevice, .invalidArgument, .isDirectory:
                throw .notAChip(path: path)
            default: throw .system(operation: "opening \(path)", errno: error)
            }
        }
        var nameBuffer = [CChar](repeating: 0, count: 64), labelBuffer = [CChar](repeating: 0, count: 64)
        var lines: UInt32 = 0
        _ = gdb_chip_info(handle, &nameBuffer, nameBuffer.count, &labelBuffer, labelBuffer.count, &lines)
        self.path = path
        self.name = String(decoding: nameBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.label = String(decoding: labelBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.lineCount = Int(lines)
    }

    deinit { gdb_chip_close(handle) }

    /// Paths of the GPIO chips in /dev, in number order. Symbolic links are left out: a chip is listed
    /// once under its kernel name (Raspberry Pi OS links `/dev/gpiochip4` to `gpiochip0` on a Pi 5).
    package static func availablePaths() -> [String] {
        guard let directory = opendir("/dev") else { return [] }
        defer { closedir(directory) }
        var numbers: [Int] = []
        while let entry = readdir(directory) {
            if entry.pointee.d_type == UInt8(DT_LNK) { continue }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("gpiochip"), let number = Int(name.dropFirst("gpiochip".count)) { numbers.append(number) }
        }
        return numbers.sorted().map { "/dev/gpiochip\($0)" }
    }

    /// The chip `old` was, come back after it went away: at its path, or at another path, not one of
    /// `excluding`, with the same label and line count (a USB expander may come back under another
    /// number); `nil` while it is not there, or cannot be opened yet (udev has not given it its group).
    package static func cameBack(_ old: GPIOChip, excluding: Set<String> = []) -> GPIOChip? {
        let candidates = [old.path] + availablePaths().filter { $0 != old.path && !excluding.contains($0) }
        for path in candidates {
            guard access(path, F_OK) == 0, let chip = try? GPIOChip(path: path), chip.label == old.label, chip.lineCount == old.lineCount else {
                continue
            }
            return chip
        }
        return nil
    }

    /// "gpiochip0 [pinctrl-bcm2711]" for each chip that can be opened, else its path.
    static func availableNames() -> [String] {
        availablePaths().map { path in
            (try? GPIOChip(path: path)).map { "\($0.name) [\($0.label)]" } ?? path
        }
    }

    /// The line's name, consumer and direction (`gdb_line_info`).
    package func lineInfo(offset: Int) throws(GPIOError) -> LineInfo {
        guard offset >= 0, offset < lineCount else { throw .offsetOutOfRange(chip: name, offset: offset, lineCount: lineCount) }
        var nameBuffer = [CChar](repeating: 0, count: 64), consumerBuffer = [CChar](repeating: 0, count: 64)
        var used: Int32 = 0, output: Int32 = 0
        do {
            _ = try retryingInterrupts {
                gdb_line_info(handle, UInt32(offset), &nameBuffer, nameBuffer.count, &consumerBuffer, consumerBuffer.count, &used, &output)
            }
        } catch {
            throw .system(operation: "reading line \(offset) of \(name)", errno: error)
        }
        func text(_ buffer: [CChar]) -> String { String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return LineInfo(offset: offset, name: text(nameBuffer), consumer: text(consumerBuffer), isUsed: used != 0, isOutput: output != 0)
    }
}
