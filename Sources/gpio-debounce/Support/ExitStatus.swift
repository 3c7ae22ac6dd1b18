#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import ESPHomeDevice
import EventSocket
import KeptState
import Daemon
import GPIODBackend
import LinuxSys
import SystemPackage

/// Every exit code of the CLI, in one place (the values of BSD's sysexits.h, as the README's table says).
enum ExitStatus {
    /// 64: the command line is wrong (swift-argument-parser's validation errors exit with it too).
    static let usage = ExitCode(64)
    /// 65: the input data is wrong (a malformed trace or configuration).
    static let badData = ExitCode(65)
    /// 66: an input (a file, a chip, a line) cannot be opened or does not exist.
    static let cannotOpenInput = ExitCode(66)
    /// 69: the kernel or the libgpiod build cannot do what was asked (bias, kernel debouncing, event buffer).
    static let unavailable = ExitCode(69)
    /// 74: reading or writing failed (the chip vanished, standard output is closed).
    static let ioError = ExitCode(74)
    /// 75: the line is busy: try again once its holder lets go.
    static let temporaryFailure = ExitCode(75)
    /// 77: permission denied.
    static let permissionDenied = ExitCode(77)

    /// The exit code for a failure opening chips and lines.
    static func of(_ error: GPIOError) -> ExitCode {
        switch error {
        case .noSuchChip, .notAChip, .offsetOutOfRange, .unknownLineName, .linesOnDifferentChips: cannotOpenInput
        case .biasUnsupported, .kernelDebounceUnsupported, .eventBufferUnsupported: unavailable
        case .eventBufferOutOfRange: usage
        case .system: ioError
        case .lineBusy: temporaryFailure
        case .permissionDenied: permissionDenied
        }
    }
}

extension ExitStatus {
    /// The exit code for a configuration that cannot run on this machine: as for opening chips and
    /// lines, or for a file of the `mqtt:` section (66 when it does not exist, 77 when it may not be
    /// read), else 65.
    static func of(_ failure: MachineCheck.Failure) -> ExitCode {
        switch failure {
        case .line(_, let error): of(error)
        case .sharedLine: badData
        case .mqtt(.passwordFile(_, _, let code)), .mqtt(.caFile(_, _, let code)):
            switch code {
            case ENOENT, ENOTDIR, EISDIR: cannotOpenInput
            case EACCES, EPERM: permissionDenied
            default: badData
            }
        case .mqtt: badData
        case .apiKeyFile(let error): of(DaemonFailure.espHomeAPI(error))
        }
    }

    /// The exit code for a state directory or file that cannot be used: 65 for a file that is
    /// not a valid state file (left as it is), 75 while another run holds the directory, 77 when it may
    /// not be read or created, 66 when it cannot be found or made, else 74.
    static func of(_ error: KeptStateError) -> ExitCode {
        switch error {
        case .foreign, .unsupportedFormat, .empty, .malformedLine, .badName, .badTotal, .duplicateName, .tooLarge, .unsuitableName,
            .duplicateEntry:
            badData
        case .locked: temporaryFailure
        case .noStateDirectory: usage
        case .unreadable(_, let code), .cannotCreateDirectory(_, let code), .cannotLock(_, let code):
            switch code {
            case .permissionDenied, .notPermitted: permissionDenied
            case .noSuchFileOrDirectory, .notDirectory: cannotOpenInput
            default: ioError
            }
        }
    }

    /// The exit code for a failure making the virtual keyboard.
    static func of(_ error: UInputError) -> ExitCode {
        switch error {
        case .missing: unavailable
        case .permissionDenied: permissionDenied
        case .system: ioError
        }
    }
}

extension ExitStatus {
    /// The exit code for a daemon that cannot be assembled (`DaemonAssembly`): its layer's, and 64 for
    /// MQTT in virtual time, 65 for an MQTT sink that cannot be made, 74 for a line that cannot be read
    /// as the loop starts; for the events socket 75 when another run listens on it, 64 for a group
    /// that does not exist or a path that is not a socket, 77 or 66 when it cannot be made there.
    static func of(_ failure: DaemonFailure) -> ExitCode {
        switch failure {
        case .machine(let failure): of(failure)
        case .lines(let error): of(error)
        case .keptState(let error): of(error)
        case .keyboard(let error): of(error)
        case .mqtt: badData
        case .mqttNeedsRealTime: usage
        case .start: ioError
        case .eventSocket(.inUse): temporaryFailure
        case .eventSocket(.noGroup), .eventSocket(.notASocket), .eventSocket(.tooLong): usage
        case .eventSocket(.cannotMake(_, let error)): error.errno == .permissionDenied || error.errno == .notPermitted ? permissionDenied : cannotOpenInput
        case .espHomeAPI(.cannotListen(_, let error)): error.errno == .permissionDenied ? permissionDenied : temporaryFailure
        case .espHomeAPI(.keyFile(_, _, let code)): code == EACCES ? permissionDenied : code == nil ? badData : cannotOpenInput
        }
    }
}

extension ExitStatus {
    /// The exit code for a client of the events socket (`events`, `status`): 69 when no daemon listens,
    /// 77 when this user may not read it, 64 for a request the daemon refused (an input it does not
    /// have), 74 for another failure.
    static func of(_ failure: EventSocketConnection.Failure) -> ExitCode {
        switch failure {
        case .noDaemon: unavailable
        case .permissionDenied: permissionDenied
        case .refused: usage
        case .stopping: temporaryFailure
        case .ended, .system: ioError
        }
    }
}
