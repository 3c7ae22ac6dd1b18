import ArgumentParser
import DebounceCore
import EventOutput
import GPIODBackend

/// `gpio-debounce list`: the chips and their lines, like gpioinfo, as read once (`ChipInventory`).
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List GPIO chips and their lines: names, directions and who holds them (like gpioinfo).")

    @Option(name: [.short, .long], help: "Only this chip (path, name, number or label).")
    var chip: String?

    func run() throws {
        do throws(GPIOError) {
            let inventory = ChipInventory.read()
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
            if chips.isEmpty {
                print("No GPIO chips on this machine (no /dev/gpiochip*). `gpio-debounce demo` needs none.")
            }
            print("libgpiod \(GPIODLines.libgpiodVersion)")
            let header = inventory.header
            if !chips.isEmpty { print(TerminalText.escaped("offsets alone (watch 17) mean \(header)")) }
            for chip in chips {
                let mark = header.isHeader && chip.name == header.chip ? " (40-pin header)" : ""
                print(TerminalText.escaped("\(chip.nameAndLabel) \(counted(chip.lineCount, "line")) (\(chip.path))\(mark)"))
                for info in chip.lines {
                    if let error = chip.unreadableLines[info.offset] { throw error }
                    let name = info.name.isEmpty ? "unnamed" : "\"\(info.name)\""
                    let usage = info.isUsed ? "used by \"\(info.consumer)\"" : "unused"
                    print(TerminalText.escaped("    line \(String(info.offset).leftPadded(to: 3)): \(name.rightPadded(to: 14)) \(info.isOutput ? "output" : "input ") \(usage)"))
                }
            }
        } catch {
            throw failure(error.description, ExitStatus.of(error))
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
    func rightPadded(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
