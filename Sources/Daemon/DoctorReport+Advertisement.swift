import ConfigurationFile
import ESPHomeDevice
import ServiceAdvertisement

extension DoctorReport {
    /// The `api:` section's device: whether avahi-daemon advertises it over mDNS now (by this machine:
    /// `run` is advertising it), so that Home Assistant lists it under Discovered; else how to add it.
    static func advertisement(_ inputs: DoctorInputs) -> [DoctorFinding] {
        guard let api = inputs.configuration?.api else { return [] }
        guard let probe = inputs.advertisement else {
            return [.warning("mdns", "the mDNS advertisement was not checked", toDo: "run doctor on the machine that runs the configuration")]
        }
        let service = probe.service
        let byHand = APIAdvertising.byHand(hostName: probe.hostName, port: api.port)
        switch probe.outcome {
        case .advertised(byThisMachine: true, let avahi):
            return [.ok("mdns", "\(avahi) advertises \(service) for this machine: Home Assistant lists the device under Discovered")]
        case .advertised(byThisMachine: false, _):
            return [.warning(
                "mdns", "another machine on the network advertises \(service): Home Assistant would take it for this device",
                toDo: "give this device another name (api: name:), or rename the other one")]
        case .notAdvertised(let avahi):
            return [.warning(
                "mdns", "\(avahi) runs, and nothing advertises \(service) now",
                toDo: "start the daemon (sudo systemctl start gpio-debounce): run advertises the device through avahi-daemon, and its log says why when it cannot")]
        case .noAvahi(let reason):
            return [.warning(
                "mdns", "no avahi-daemon answers (\(reason)): Home Assistant does not discover the device by itself",
                toDo: "install it (sudo apt install avahi-daemon: run advertises the device through it), or \(byHand)")]
        case .failed(let reason):
            return [.warning("mdns", "asking avahi-daemon for \(service) failed: \(reason)", toDo: "check avahi-daemon (systemctl status avahi-daemon), or \(byHand)")]
        }
    }
}
