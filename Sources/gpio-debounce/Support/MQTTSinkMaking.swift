import Assembly
import ConfigurationFile
import Logging
import MQTT

extension ServiceConfiguration {
    /// The MQTT sink of this configuration (its `mqtt:` section): every button, encoder, sensor and
    /// counter as MQTT knows them, each at its line's place (`places`, in `lines`' order; `nil` when no
    /// line is open, as for `--remove-discovery`), the counters starting from `counterTotals`. A sink
    /// that cannot be made (the password or CA file) exits 65 with its message.
    func mqttSink(
        _ mqtt: MQTTSettings, places: [RunAssembly.LinePlace]?, counterTotals: [Int64] = [], mode: MQTTSink.Mode = .run, logger: Logger
    ) throws -> MQTTSink {
        func place(_ line: Int) -> RunAssembly.LinePlace { places?[line] ?? RunAssembly.LinePlace(chip: "", offset: 0) }
        let buttons = self.buttons.enumerated().map { index, button in
            MQTTButton(name: button.name, chip: place(index).chip, line: place(index).offset, configuration: button.gestures)
        }
        let encoders = self.encoders.enumerated().map { index, encoder in
            let (a, b) = (place(firstEncoderLine + 2 * index), place(firstEncoderLine + 2 * index + 1))
            return MQTTEncoder(
                name: encoder.name, chip: a.chip, lines: places == nil ? [] : [a.offset, b.offset], startPosition: encoder.configuration.clamped(0))
        }
        let sensors = self.sensors.enumerated().map { index, sensor in
            let line = firstSensorLine + index
            return MQTTSensor(name: sensor.name, chip: place(line).chip, line: place(line).offset, lineIndex: line, deviceClass: sensor.deviceClass)
        }
        let counters = self.counters.enumerated().map { index, counter in
            let line = firstCounterLine + index
            return MQTTCounter(
                name: counter.name, chip: place(line).chip, line: place(line).offset, lineIndex: line, perUnit: counter.perUnit, unit: counter.unit,
                deviceClass: counter.deviceClass, startTotal: counterTotals.indices.contains(index) ? counterTotals[index] : 0,
                publishIntervalNs: counter.publishIntervalNs)
        }
        do {
            return try MQTTSink(
                settings: mqtt, buttons: buttons, encoders: encoders, sensors: sensors, counters: counters, softwareVersion: Version.number, mode: mode,
                logger: logger)
        } catch {
            throw failure(error.description, ExitStatus.badData)
        }
    }
}
