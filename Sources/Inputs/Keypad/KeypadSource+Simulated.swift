import DebounceCore
import Keypads
import Simulation

extension KeypadSource {
    /// A simulated keypad of `configuration`, its keys' edges `keyEdges` (row by row, as
    /// `SimulatedMatrix` takes them), scanned as a real one is from `startNs`.
    package static func simulated(_ configuration: MatrixConfiguration, keyEdges: [[Edge]], startNs: Int64) -> KeypadSource {
        KeypadSource(configuration: configuration, port: SimulatedMatrixPort(matrix: SimulatedMatrix(configuration: configuration, keyEdges: keyEdges), startNs: startNs))
    }
}
