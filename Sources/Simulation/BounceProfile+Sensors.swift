extension BurstShape {
    /// A reed switch opening or closing: about 0.5 ms of bounce (cut at 3 ms), clean one time in five.
    static let reed = BurstShape(
        cleanProbability: 0.2, medianNs: 500_000, spread: 0.6, maximumNs: 3_000_000,
        longBurstProbability: 0, longBurstNs: 0...0, pulsesPerMs: 4...12, shortestPulseNs: 200)

    /// An optocoupler's open collector switching: clean nine times in ten, else about 50 µs of ringing.
    static let optocoupler = BurstShape(
        cleanProbability: 0.9, medianNs: 50_000, spread: 0.5, maximumNs: 200_000,
        longBurstProbability: 0, longBurstNs: 0...0, pulsesPerMs: 5...20, shortestPulseNs: 1_000)
}

extension BounceProfile {
    /// A door or window's reed contact opened and closed by a person (`BurstShape.reed` both ways):
    /// the door stays open ("pressed": on) 1 to 6 s, closed 2 to 8 s.
    package static let reedContact = BounceProfile(
        press: .reed, release: .reed, holdNs: 1_000_000_000...6_000_000_000, pauseNs: 2_000_000_000...8_000_000_000)

    /// An S0 output of an electricity meter (`BurstShape.optocoupler` both ways): pulses of 30 to 90 ms
    /// (the S0 standard's at least 30 ms), about 2 pulses a second (a meter of 1000 imp/kWh at about 7 kW).
    package static let meterPulse = BounceProfile(
        press: .optocoupler, release: .optocoupler, holdNs: 30_000_000...90_000_000, pauseNs: 300_000_000...700_000_000)
}
