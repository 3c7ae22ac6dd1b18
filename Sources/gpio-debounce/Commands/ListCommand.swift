import ArgumentParser
import Daemon
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
            for line in try ChipListing.lines(of: ChipInventory.read(), chip: chip, libgpiod: GPIODLines.libgpiodVersion) { print(line) }
        } catch {
            throw failure(error.description, ExitStatus.of(error))
        }
    }
}
