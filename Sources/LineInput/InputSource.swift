/// A source that is one input of its own, its lines that input's (a keypad's scanned matrix, whose
/// lines are its keys): what a run's assembly, a reload and the health log know of it, whatever its kind.
package protocol InputSource: EdgeSource {
    /// Its state as a reload carries it to the next source of the same input (`goOn(from:atNs:)`):
    /// a value, nothing the source owns (its lines are released with the run before).
    var carriedState: Any { get }
    /// Goes on from `state`, the `carriedState` of the same input's source in the run before, at
    /// `nowNs` (the loop's time): what it held stays held until it finds it let go. A state of another
    /// source's, or of another configuration, is ignored.
    func goOn(from state: Any, atNs nowNs: Int64)
    /// Its health as the log tells it at SIGUSR1 and at the stop, of the input named `name`: a
    /// keypad's scans, whether its chip went away.
    func healthLine(name: String) -> String
}
