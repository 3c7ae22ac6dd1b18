import KeptState
import GPIODBackend
import LinuxSys

/// One finding of `doctor` (`DoctorReport`): what was looked at, how it stands for `run`, what was
/// found, and what to do about it. Only what was checked is claimed: a finding says so when a part
/// (a broker's authentication, a line's present bias) was not checked.
package struct DoctorFinding: Sendable {
    /// How a finding stands for `run`.
    package enum Severity: String, Sendable, Hashable {
        /// Nothing to do.
        case ok
        /// `run` starts, but something may not work as expected (the broker is unreachable: `run`
        /// retries it).
        case warning
        /// `run` would refuse to start, with the exit code of `blocker`.
        case blocker
    }

    /// Why `run` would refuse to start: the error it would fail with, whose exit code (`ExitStatus`)
    /// is `doctor`'s when it is the first blocker.
    package enum Blocker: Sendable {
        /// A chip or line cannot be found, opened or requested, or the kernel cannot set it up.
        case gpio(GPIOError)
        /// The configuration cannot run on this machine: an MQTT file, or two owners of one line.
        case machine(MachineCheck.Failure)
        /// The state directory cannot be used (another run holds it, or it cannot be made).
        case keptState(KeptStateError)
        /// The virtual keyboard cannot be made.
        case keyboard(UInputError)
    }

    /// What was looked at: `kernel`, `libgpiod`, `chips`, `header`, `permissions`, `line`, `uinput`,
    /// `mqtt`, `state`.
    package var topic: String
    package var severity: Severity
    /// What was found, in a sentence.
    package var found: String
    /// What to do, empty when nothing is.
    package var toDo: String
    /// For a blocker, the failure `run` would stop with.
    package var blocker: Blocker?

    package static func ok(_ topic: String, _ found: String, toDo: String = "") -> DoctorFinding {
        DoctorFinding(topic: topic, severity: .ok, found: found, toDo: toDo, blocker: nil)
    }

    package static func warning(_ topic: String, _ found: String, toDo: String) -> DoctorFinding {
        DoctorFinding(topic: topic, severity: .warning, found: found, toDo: toDo, blocker: nil)
    }

    package static func blocker(_ topic: String, _ found: String, toDo: String, _ blocker: Blocker) -> DoctorFinding {
        DoctorFinding(topic: topic, severity: .blocker, found: found, toDo: toDo, blocker: blocker)
    }
}
