import ConfigurationFile
import EventSocket
import InputModel
import Logging
import Settings

extension DaemonAssembly {
    /// The events socket of `configuration` as `choices` say, for `inputs`: the one a reload carried
    /// (`carried`, still listening, its clients connected) when its path stays, else a new one, or none.
    /// A socket at the default path that cannot be made (its directory not there for a run by hand, say)
    /// is left out with a notice; one the configuration or `--socket` names is an error.
    static func eventSocket(
        _ configuration: ServiceConfiguration, choices: DaemonChoices, inputs: [any InputPresenter], carried: EventSocketSink?, logger: Logger
    ) throws(DaemonFailure) -> EventSocketSink? {
        let settings = configuration.socket
        var path: String
        var isChosen = true
        switch choices.eventSocket {
        case .none:
            path = ""
        case .path(let chosen):
            path = chosen
        case .configured:
            path = settings.enabled ? settings.path : ""
            isChosen = settings.pathIsChosen
            // A simulation's socket is its own, never the service's.
            if choices.simulation != nil, settings.enabled { path = carried?.path ?? "" }
        }
        if let carried, carried.path == path {
            carried.adopt(inputs)
            return carried
        }
        if let carried {
            // Moved or turned off: its clients are told of the reload (its askers answered) before their stream ends.
            carried.adopt(inputs)
            try? carried.finish(atNs: 0)
        }
        if path.isEmpty, choices.eventSocket != .configured || choices.simulation == nil || !settings.enabled { return nil }
        do throws(EventSocketError) {
            let sink: EventSocketSink
            if path.isEmpty {
                let place = try EventSocketSink.simulationPath()
                sink = try EventSocketSink(
                    path: place.path, mode: settings.mode, ownDirectory: place.directory, inputs: inputs, version: choices.softwareVersion, logger: logger)
                logger.info("events socket: a simulation listens on \(sink.path) (gpio-debounce events --socket \(sink.path))")
            } else {
                sink = try EventSocketSink(
                    path: path, mode: settings.mode, group: settings.group, defaultGroup: EventSocketSettings.packageGroup, makesDirectory: !isChosen,
                    inputs: inputs, version: choices.softwareVersion, logger: logger)
                logger.info("events socket: listening on \(sink.path)")
            }
            return sink
        } catch {
            guard isChosen else {
                logger.notice("no events socket: \(error)")
                return nil
            }
            throw .eventSocket(error)
        }
    }
}
