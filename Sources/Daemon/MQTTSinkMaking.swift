import Assembly
import ConfigurationFile
import Logging
import MQTT
import Settings

extension ServiceConfiguration {
    /// The MQTT sink of this configuration (its `mqtt:` section): every button, encoder, sensor,
    /// counter and keypad as MQTT knows them, each at its line's place (`places`, in the roster's line order; `nil` when no
    /// line is open, as for `--remove-discovery`), the counters starting from `counterTotals`. A sink
    /// that cannot be made throws what is wrong with the password or CA file. `softwareVersion` is the
    /// program's version, as the device announces it. `encoderPositions` (in the encoders' order, after
    /// a reload) are the positions the encoders start from, where not `nil`.
    package func mqttSink(
        _ mqtt: MQTTSettings, places: [RunAssembly.LinePlace]?, counterTotals: [Int64] = [], encoderPositions: [Int?] = [], mode: MQTTSink.Mode = .run,
        softwareVersion: String,
        logger: Logger
    ) throws(MQTTError) -> MQTTSink {
        func place(_ line: LineID) -> RunAssembly.LinePlace { places?[line.index] ?? RunAssembly.LinePlace(chip: "", offset: 0) }
        let roster = self.roster
        let buttons = roster.buttons.map { button, line in
            MQTTButton(name: button.name, chip: place(line).chip, line: place(line).offset, lineIndex: line.index, configuration: button.gestures)
        }
        let encoderInputs = roster.inputIndices(of: .encoder)
        let encoders = roster.encoders.enumerated().map { index, entry in
            let (encoder, lineA, lineB, _) = entry
            let (a, b) = (place(lineA), place(lineB))
            let carried = encoderPositions.indices.contains(index) ? encoderPositions[index] : nil
            return MQTTEncoder(
                name: encoder.name, chip: a.chip, lines: places == nil ? [] : [a.offset, b.offset], lineIndices: [lineA.index, lineB.index],
                startPosition: carried ?? encoder.configuration.clamped(0), input: encoderInputs[index])
        }
        let sensors = roster.sensors.map { sensor, line in
            MQTTSensor(name: sensor.name, chip: place(line).chip, line: place(line).offset, lineIndex: line.index, deviceClass: sensor.deviceClass)
        }
        // The totals are in the counters' order (`CounterStore`'s).
        let counters = roster.counters.enumerated().map { index, entry in
            let (counter, line) = entry
            return MQTTCounter(
                name: counter.name, chip: place(line).chip, line: place(line).offset, lineIndex: line.index, perUnit: counter.perUnit, unit: counter.unit,
                deviceClass: counter.deviceClass, startTotal: counterTotals.indices.contains(index) ? counterTotals[index] : 0,
                publishIntervalNs: counter.publishIntervalNs, rateUnit: counter.rateUnit, rateDeviceClass: counter.rateDeviceClass)
        }
        // Each keypad's keys are lines of the run (row by row), whatever `places` says.
        let keypads = zip(roster.inputIndices(of: .keypad), roster.keypads).map { input, entry in
            MQTTKeypad(
                name: entry.settings.name, keys: entry.settings.layout.flatMap { $0 }, lineIndices: entry.keys.map(\.index),
                collectsCodes: entry.settings.code != nil, publishesCode: entry.settings.publishCode, input: input, namesKey: entry.settings.namesKey)
        }
        return try MQTTSink(
            settings: mqtt, buttons: buttons, encoders: encoders, sensors: sensors, counters: counters, keypads: keypads,
            softwareVersion: softwareVersion, mode: mode, logger: logger)
    }
}
