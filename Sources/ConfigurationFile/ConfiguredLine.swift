import GPIODBackend

/// One line a configuration asks for, whatever it serves: a button's line, one of an encoder's two, a
/// contact's or a counter's. `ServiceConfiguration.lines` lists them in the run's line order.
public struct ConfiguredLine: Sendable, Hashable {
    /// The owner's name, for messages ("encoder volume's line B" is `volume (B)`).
    public var owner: String
    public var chip: String?
    public var line: String
    public var bias: Bias
    /// Kernel debouncing (libgpiod 2), in nanoseconds; encoders' lines get none (the decoder takes
    /// every change itself).
    public var kernelDebounceNs: Int64
}

extension ServiceConfiguration {
    /// Every line the run requests, in its line order: each button's, then each encoder's A and B,
    /// then each sensor's, then each counter's.
    public var lines: [ConfiguredLine] {
        buttons.map { ConfiguredLine(owner: $0.name, chip: $0.chip, line: $0.line, bias: $0.bias, kernelDebounceNs: $0.kernelDebounceNs) }
            + encoders.flatMap { encoder in
                [
                    ConfiguredLine(owner: "\(encoder.name) (A)", chip: encoder.chip, line: encoder.lineA, bias: encoder.bias, kernelDebounceNs: 0),
                    ConfiguredLine(owner: "\(encoder.name) (B)", chip: encoder.chip, line: encoder.lineB, bias: encoder.bias, kernelDebounceNs: 0),
                ]
            }
            + sensors.map { ConfiguredLine(owner: $0.name, chip: $0.chip, line: $0.line, bias: $0.bias, kernelDebounceNs: $0.kernelDebounceNs) }
            + counters.map { ConfiguredLine(owner: $0.name, chip: $0.chip, line: $0.line, bias: $0.bias, kernelDebounceNs: $0.kernelDebounceNs) }
    }

    /// The index of the first encoder line in `lines`.
    public var firstEncoderLine: Int { buttons.count }
    /// The index of the first sensor's line in `lines`: sensor `i` is line `firstSensorLine + i`.
    public var firstSensorLine: Int { buttons.count + 2 * encoders.count }
    /// The index of the first counter's line in `lines`: counter `i` is line `firstCounterLine + i`.
    public var firstCounterLine: Int { firstSensorLine + sensors.count }
}
