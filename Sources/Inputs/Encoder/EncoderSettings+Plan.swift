import ConfigurationFile
import Pipeline
import Settings

extension EncoderSettings {
    /// This encoder's part of `plan`, input `input` on run lines A, B and its reset button's
    /// (`lines`): a decoder of the two raw lines, from `start` (a kept position, clamped into its range;
    /// else 0 clamped), its reset line debounced, its keys or axis and its actions.
    func plan(input: Int, lines: [LineID], start: Int64?, into plan: inout DaemonPlan) {
        guard lines.count >= 2 else { return }
        let kept = start.map { Int(clamping: $0) }
        // Lines A and B stay raw (the plan's default): the decoder takes them.
        let position = configuration.clamped(kept ?? 0)
        plan.pipeline.encoders.append(
            EncoderPlan(lineA: lines[0].index, lineB: lines[1].index, configuration: configuration, initialPosition: position, input: input))
        plan.starts[input] = Int64(position)
        if let reset, lines.count > 2 {
            // Its reset line names the decoder by its index in the plan's encoders.
            plan.pipeline.lines[lines[2].index] = LinePlan(
                debounce: reset.debounce, role: .encoderReset(encoder: plan.pipeline.encoders.count - 1, position: configuration.clamped(reset.position)))
        }
        if let axis {
            plan.keyBindings.append(InputKeyBinding(input: input, on: EncoderTrigger.rotate.rawValue, axis: axis))
        } else if let keys {
            for (on, codes) in [(EncoderTrigger.cw, keys.clockwise), (.ccw, keys.counterClockwise)] where !codes.isEmpty {
                plan.keyBindings.append(InputKeyBinding(input: input, on: on.rawValue, keys: codes))
            }
        }
        for action in actions { plan.bind(action.action, input: input, on: action.on.rawValue) }
    }
}
