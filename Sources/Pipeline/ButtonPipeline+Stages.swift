import DebounceCore

/// Each line's stages as they stand, for health, reports and tests.
extension ButtonPipeline {
    /// The debouncer of `line` as it stands, or `nil` for a raw line or an encoder's.
    package func debouncer(line: Int) -> Debouncer? {
        switch lines[line].follower {
        case .raw, .encoder, .selector: nil
        case .presses(let index): presses[index].debouncer
        case .gestures(let index): gestures[index].debouncer
        case .contact(let index): contacts[index].debouncer
        case .counter(let index): counters[index].debouncer
        case .reset(let index): resets[index].debouncer
        }
    }

    /// The debouncer statistics of `line`, or `nil` for a raw line or an encoder's.
    package func statistics(line: Int) -> DebounceStatistics? { debouncer(line: line)?.statistics }

    /// Presses of `line` that its throttle or its group swallowed (with their releases).
    package func swallowedPresses(line: Int) -> Int {
        switch lines[line].follower {
        case .gestures(let index): gestures[index].recognizer.swallowedPresses
        case .raw, .encoder, .selector, .presses, .contact, .counter, .reset: 0
        }
    }

    /// The contact filter of `line` as it stands, or `nil` when the line is no contact.
    package func contactFilter(line: Int) -> ContactFilter? {
        switch lines[line].follower {
        case .contact(let index): contacts[index].filter
        case .raw, .encoder, .selector, .presses, .gestures, .counter, .reset: nil
        }
    }

    /// The pulse counter of `line` as it stands, or `nil` when the line is no counter.
    package func pulseCounter(line: Int) -> PulseCounter? {
        switch lines[line].follower {
        case .counter(let index): counters[index].counter
        case .raw, .encoder, .selector, .presses, .gestures, .contact, .reset: nil
        }
    }

    /// The decoder of encoder `index` as it stands (its position, statistics).
    package func decoder(encoder index: Int) -> QuadratureDecoder { encoders[index].decoder }

    /// How many encoders.
    package var encoderCount: Int { encoders.count }

    /// Whether `line` reads active as its input sees it now: a debounced line's debounced state
    /// (pressed, on), a selector's line's reading (active or not); nil for a line whose state is no
    /// input's (a raw line, an encoder's). What the sinks are told at the start
    /// (`Sink.start(linesPressed:levels:atNs:)`).
    package func isActive(line: Int) -> Bool? {
        if case .selector(let selectorLine) = lines[line].follower {
            return selectors[selectorLine.selector].decoder.activeLines & (1 << UInt32(selectorLine.bit)) != 0
        }
        return debouncer(line: line)?.isPressed
    }
}
