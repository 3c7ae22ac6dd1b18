import GPIODBackend

extension DaemonFailure {
    /// The chip this failure waits for, when the only thing wrong is a chip that is not there (yet): a
    /// USB or I²C expander not plugged in, a driver not loaded, a board still starting. `nil` for every
    /// other failure, which waiting cannot mend.
    package var missingChip: String? {
        switch self {
        case .machine(.line(_, .noSuchChip(let chip, _))), .lines(.noSuchChip(let chip, _)): chip
        default: nil
        }
    }
}
