import DebounceCore
import EventLoop
import EventOutput
import SystemPackage

/// What a run of the daemon is asked to do besides its configuration: the input (real pins or a
/// simulation of every configured input), where the inputs' values are kept, when it stops, and how
/// its events are written. `run`'s options, as values.
package struct DaemonChoices: Sendable {
    /// A simulation of every configured input instead of real pins (`run --simulate`).
    package struct Simulation: Sendable, Hashable {
        /// The first input's seed; each simulated input has its own, derived from it.
        package var seed: UInt64
        /// Presses of each simulated button (a double click counting 2), and as many gestures or
        /// changes of each other input; `nil`: forever; 0: the run starts and stops at once.
        package var presses: Int?
        /// In virtual time (no waiting: the whole run at once), not in real time from 0.
        package var virtualTime: Bool
        /// Whether the actions' commands run and the keys are typed, as in a real run; otherwise the
        /// run shows them after their events (`ActionPreview`, `KeyPreview`) and runs none.
        package var runsActions: Bool

        package init(seed: UInt64 = 1, presses: Int? = nil, virtualTime: Bool = false, runsActions: Bool = false) {
            self.seed = seed
            self.presses = presses
            self.virtualTime = virtualTime
            self.runsActions = runsActions
        }
    }

    /// Whether the run listens on an events socket, and where.
    package enum EventSocketChoice: Sendable, Hashable {
        /// None (tests, `watch`).
        case none
        /// As the configuration's `socket:` says (`run`); a simulation's in a temporary directory of its own.
        case configured
        /// At this path, whatever the configuration says (`run --socket PATH`).
        case path(String)
    }

    /// The simulation, or `nil` for the configured real pins.
    package var simulation: Simulation?
    /// Edge events the kernel keeps per line request (real pins only; `nil`: the most it keeps).
    package var eventBufferSize: Int?
    /// The state directory, where inputs keep their values (a file each, such as `positions`). `nil`: the default state directory
    /// (`StateDirectory.defaultPath()`), or for a simulation a new temporary directory of its own,
    /// removed when the assembly is released.
    package var stateDirectory: String?
    /// When the run stops besides a signal: after this many events, and how long running actions may
    /// finish at the stop.
    package var limits: LoopLimits
    /// How events (and a simulation's previews of actions and keys) are written.
    package var format: EventFormat
    /// Where events are written, unbuffered; the assembly does not own it (it is not closed).
    package var output: FileDescriptor
    /// The program's version, as the MQTT device announces it.
    package var softwareVersion: String
    /// The events socket: none unless chosen.
    package var eventSocket: EventSocketChoice
    /// The port the ESPHome API listens on instead of `api: port:` (`run --api-port`), a simulation's
    /// too; nil: the configuration's (a simulation's: one the kernel chooses).
    package var apiPort: UInt16?

    package init(
        simulation: Simulation? = nil, eventBufferSize: Int? = nil, stateDirectory: String? = nil, limits: LoopLimits = LoopLimits(),
        format: EventFormat = .text, output: FileDescriptor = .standardOutput, softwareVersion: String,
        eventSocket: EventSocketChoice = .none, apiPort: UInt16? = nil
    ) {
        self.eventSocket = eventSocket
        self.apiPort = apiPort
        self.simulation = simulation
        self.eventBufferSize = eventBufferSize
        self.stateDirectory = stateDirectory
        self.limits = limits
        self.format = format
        self.output = output
        self.softwareVersion = softwareVersion
    }

    /// Whether the run shows its actions and keys instead of running and typing them: a simulation
    /// without `runsActions`.
    package var showsOutputs: Bool { simulation.map { !$0.runsActions } ?? false }
}
