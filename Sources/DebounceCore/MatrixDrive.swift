/// Which column lines of a key matrix are driven active: what `MatrixScanner` asks its adapter to set.
public enum MatrixDrive: Sendable, Hashable {
    /// Every column driven active: any key closed pulls its row active, so the rows wait for an edge
    /// (while no key is down, and between the scans while keys are down).
    case all
    /// Only this column (0-based) driven active; the others high-impedance (inputs), so the rows read
    /// which keys of this column are closed (without diodes, also keys reached through other columns).
    case column(Int)
}
