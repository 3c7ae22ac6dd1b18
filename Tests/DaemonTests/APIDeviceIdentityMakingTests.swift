import LinuxSys
import Settings
import Testing

@testable import Daemon

/// Who the ESPHome device says it is: the machine's card's MAC address, or in a container (whose
/// interface is made anew with it) one made from the host name that stays while the host name does;
/// a simulation never the live device's.
@Suite struct APIDeviceIdentityMakingTests {
    static let settings = ESPHomeAPISettings(name: "hall-pi", encryption: .none)

    @Test func aContainersMACAddressIsMadeFromItsHostNameAndStays() {
        let made = DaemonAssembly.madeMACAddress(hostName: "a0d7b954-gpio-debounce", name: "hall-pi")
        #expect(made == DaemonAssembly.madeMACAddress(hostName: "a0d7b954-gpio-debounce", name: "hall-pi"))
        #expect(made != DaemonAssembly.madeMACAddress(hostName: "other", name: "hall-pi"))
        #expect(made.hasPrefix("02:") && made.count == 17 && made == made.uppercased())
        let container = MachineIdentity(macAddress: "0A:58:0A:00:00:07", model: nil, manufacturer: nil, isHardwareAddress: false)
        let identity = DaemonAssembly.apiIdentity(Self.settings, machine: container, simulated: false, version: "0.5.0")
        #expect(identity.macAddress.hasPrefix("02:") && identity.macAddress != "0A:58:0A:00:00:07")
    }

    @Test func aCardsMACAddressIsTheDevicesAndASimulationsIsAnother() {
        let pi = MachineIdentity(macAddress: "DC:A6:32:01:02:03", model: "Raspberry Pi 4 Model B Rev 1.4", manufacturer: "Raspberry Pi")
        let live = DaemonAssembly.apiIdentity(Self.settings, machine: pi, simulated: false, version: "0.5.0")
        #expect(live.macAddress == "DC:A6:32:01:02:03" && live.name == "hall-pi" && live.manufacturer == "Raspberry Pi")
        let simulation = DaemonAssembly.apiIdentity(Self.settings, machine: pi, simulated: true, version: "0.5.0")
        #expect(simulation.macAddress == "DE:A6:32:01:02:03" && simulation.name == "hall-pi-simulation")
    }
}
