import SystemPackage

/// What can go wrong opening a chip or requesting its lines, each saying what to do about it.
public enum GPIOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No chip matches what the user asked for.
    case noSuchChip(String, available: [String])
    /// The chip device exists but the user may not open it.
    case permissionDenied(path: String)
    /// The file is not a GPIO chip.
    case notAChip(path: String)
    /// The offset is beyond the chip's lines.
    case offsetOutOfRange(chip: String, offset: Int, lineCount: Int)
    /// No line has this name.
    case unknownLineName(String, chip: String?, suggestions: [String])
    /// The named lines are on different chips.
    case linesOnDifferentChips([String])
    /// Another consumer holds the line.
    case lineBusy(chip: String, offset: Int, consumer: String)
    /// The kernel rejected the bias setting: it predates bias support (Linux 5.5).
    case biasUnsupported(chip: String, bias: String)
    /// Kernel debouncing needs the GPIO uAPI v2 (libgpiod 2 and Linux 5.10).
    case kernelDebounceUnsupported(reason: String)
    /// A kernel event queue size was asked for, but libgpiod 1 (uAPI v1) has a fixed queue of 16 per line.
    case eventBufferUnsupported(libgpiodVersion: String)
    /// A kernel event queue size outside 1 to 1024 events.
    case eventBufferOutOfRange(Int)
    /// Any other failing system or libgpiod call.
    case system(operation: String, errno: Errno)

    public var description: String {
        switch self {
        case .noSuchChip(let chip, let available):
            available.isEmpty
                ? "no GPIO chip '\(chip)': this machine has no /dev/gpiochip* at all (try `gpio-debounce demo`, which needs none)"
                : "no GPIO chip '\(chip)'; the chips here are: \(available.joined(separator: ", ")) (see `gpio-debounce list`)"
        case .permissionDenied(let path):
            "permission denied opening \(path): add yourself to the gpio group and install the udev rule (see udev/ and the README: sudo usermod -aG gpio $USER, then log in again)"
        case .notAChip(let path):
            "\(path) is not a GPIO chip (give a chip like /dev/gpiochip0, gpiochip0, 0 or a label from `gpio-debounce list`)"
        case .offsetOutOfRange(let chip, let offset, let lineCount):
            "line \(offset) is out of range: \(chip) has lines 0 to \(lineCount - 1)"
        case .unknownLineName(let name, let chip, let suggestions):
            "no line named '\(name)'\(chip.map { " on \($0)" } ?? "")"
                + (suggestions.isEmpty ? "; `gpio-debounce list` shows every line's name" : "; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: " or "))?")
        case .linesOnDifferentChips(let chips):
            "the lines are on different chips (\(chips.joined(separator: ", "))): run one watch per chip"
        case .lineBusy(let chip, let offset, let consumer):
            "line \(offset) of \(chip) is busy: \(consumer.isEmpty ? "another program" : "'\(consumer)'") holds it; stop that program (or remove the overlay that claims the pin) and try again"
        case .biasUnsupported(let chip, let bias):
            "the kernel refused bias \(bias) on \(chip): it is too old for bias settings (they need Linux 5.5); use --bias as-is and an external pull resistor, or update the kernel"
        case .kernelDebounceUnsupported(let reason):
            "--kernel-debounce is not available: \(reason); debounce in user space with --debounce instead"
        case .eventBufferUnsupported(let version):
            "--event-buffer is not available: this gpio-debounce is built with libgpiod \(version), whose kernel interface (uAPI v1) keeps a fixed 16 events per line; leave --event-buffer out, or use a build with libgpiod 2 (the Debian package)"
        case .eventBufferOutOfRange(let size):
            "--event-buffer \(size) is out of range: the kernel keeps 1 to 1024 events per request (the default, 1024, is the most)"
        case .system(let operation, let errno):
            "\(operation) failed: \(errno.description)"
        }
    }
}
