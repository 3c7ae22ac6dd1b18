import Assembly
import ConfigurationFile
import Inputs
import Logging
import MQTT
import Settings

extension ServiceConfiguration {
    /// The MQTT sink of this configuration (its `mqtt:` section), publishing each input as its kind
    /// presents it (`InputPresenters`), each at its line's place (`places`, in the roster's line order;
    /// nil when no line is open, as for `--remove-discovery`), each input starting from `starts[input]`
    /// where given (`DaemonPlan.starts`). A sink that cannot be made throws what is wrong with the
    /// password or CA file. `softwareVersion` is the program's version, as the device announces it.
    package func mqttSink(
        _ mqtt: MQTTSettings, places: [RunAssembly.LinePlace]?, starts: [Int: Int64] = [:], mode: MQTTSink.Mode = .run, softwareVersion: String,
        logger: Logger
    ) throws(MQTTError) -> MQTTSink {
        let place: ((LineID) -> InputPresenters.Place)? = places.map { places in { (chip: places[$0.index].chip, offset: places[$0.index].offset) } }
        let inputs = InputPresenters.presenters(of: roster, place: place, starts: starts)
        return try MQTTSink(settings: mqtt, inputs: inputs, softwareVersion: softwareVersion, mode: mode, logger: logger)
    }
}
