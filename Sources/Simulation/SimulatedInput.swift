/// One simulated input of a run and the lines it plays: a bouncy contact (a button, a reed switch, a
/// meter's pulse output) on one line, or a bouncy encoder on two (A, then B). `SimulatedLines(inputs:)`
/// lays them out in the order given.
package enum SimulatedInput: Sendable {
    case contact(BouncyButton)
    case encoder(BouncyEncoder)

    /// How many lines it plays: 1 for a contact, 2 for an encoder.
    package var lineCount: Int {
        switch self {
        case .contact: 1
        case .encoder: 2
        }
    }
}
