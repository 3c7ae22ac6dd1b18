import ConfigurationFile
import Inputs
import Logging
import MQTT
import Settings

extension ServiceConfiguration {
    /// The MQTT sink of this configuration (its `mqtt:` section) with no line open, as
    /// `--remove-discovery` makes it: each input as its kind presents it (`InputKinds`). A sink
    /// that cannot be made throws what is wrong with the password or CA file. `softwareVersion` is the
    /// program's version, as the device announces it. (A run's sink takes the presenters its other
    /// sinks share: `MQTTSink(settings:inputs:...)`.)
    package func mqttSink(_ mqtt: MQTTSettings, mode: MQTTSink.Mode, softwareVersion: String, logger: Logger) throws(MQTTError) -> MQTTSink {
        try MQTTSink(settings: mqtt, inputs: InputKinds.presenters(of: roster, place: nil), softwareVersion: softwareVersion, mode: mode, logger: logger)
    }
}
