import ArgumentParser
import GPIODBackend

/// `--event-buffer N`: how many edge events the kernel keeps for one line request before it drops the
/// oldest (uAPI v2, libgpiod 2). Shared by every command that requests real lines.
struct KernelQueueOptions: ParsableArguments {
    @Option(
        name: .customLong("event-buffer"),
        help: ArgumentHelp(
            "Edge events the kernel keeps per line request (1 to 1024; default 1024, the most). If a burst still outruns it, the oldest are dropped and counted as lost. libgpiod 2 builds only.",
            valueName: "events"))
    var eventBufferSize: Int?

    /// The options given, as spelled: for `SimulatedPinsNote`.
    var given: [String] { eventBufferSize == nil ? [] : ["--event-buffer"] }

    func validate() throws {
        if let eventBufferSize, !GPIODLines.eventBufferSizes.contains(eventBufferSize) {
            throw ValidationError("--event-buffer must be 1 to 1024 events (the kernel keeps at most 1024 per request), not \(eventBufferSize).")
        }
    }
}
