import InputModel

/// The descriptions of `inputs`, as the MQTT sink takes them for its discovery.
func described(_ inputs: [any InputPresenter]) -> [InputDescription] { inputs.map(\.description) }
