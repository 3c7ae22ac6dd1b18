import GPIODBackend

/// Under `--simulate`, the options given that only real pins use (`--kernel-debounce`,
/// `--event-buffer`), said on standard error: the simulated lines take no notice of them, and a build
/// with libgpiod 1 refuses them on real pins (exit 69), since only libgpiod 2 can ask the kernel for them.
enum SimulatedPinsNote {
    /// One note per option in `options` (as spelled on the command line).
    static func say(options: [String]) {
        let refused = GPIODLines.libgpiodMajor == 1 ? "; on real pins this build (libgpiod \(GPIODLines.libgpiodVersion)) refuses it (exit 69)" : ""
        for option in options {
            printToStandardError("gpio-debounce: note: \(option) is for real pins: the simulated lines take no notice of it\(refused)")
        }
    }
}
