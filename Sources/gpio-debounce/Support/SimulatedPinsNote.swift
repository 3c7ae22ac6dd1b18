import ConfigurationFile
import GPIODBackend

/// Under `--simulate`, the options given that only real pins use (`--kernel-debounce`,
/// `--event-buffer`), said on standard error: the simulated lines take no notice of them, and a build
/// with libgpiod 1 refuses them on real pins (exit 69), since only libgpiod 2 can ask the kernel for them.
enum SimulatedPinsNote {
    /// One note per option in `options` (as spelled on the command line).
    static func say(options: [String]) {
        let refused = refusedOnRealPins
        for option in options {
            printToStandardError("gpio-debounce: note: \(option) is for real pins: the simulated lines take no notice of it\(refused)")
        }
    }

    /// One note for the configuration's `kernel_debounce:` (an input's, or `defaults:`'s), naming the
    /// pins that have it (at most three, then how many more).
    static func say(_ configuration: ServiceConfiguration) {
        let named = configuration.roster.pins.filter { $0.settings.kernelDebounceNs > 0 }.map(\.label)
        guard !named.isEmpty else { return }
        let refused = refusedOnRealPins
        let shown = named.prefix(3).joined(separator: ", ") + (named.count > 3 ? " and \(named.count - 3) more" : "")
        printToStandardError("gpio-debounce: note: kernel_debounce (\(shown)) is for real pins: the simulated lines take no notice of it\(refused)")
    }

    /// What a note adds on a libgpiod 1 build, which refuses what only libgpiod 2 can ask the kernel
    /// for; nothing on a libgpiod 2 build.
    private static var refusedOnRealPins: String {
        GPIODLines.libgpiodMajor == 1 ? "; on real pins this build (libgpiod \(GPIODLines.libgpiodVersion)) refuses it (exit 69)" : ""
    }
}
