import ConfigurationFile
import Inputs
import DebounceCore
import Pipeline
import Settings
import Testing

/// `sensors:` and `counters:` in a configuration: reading every key, the defaults, refusals, and the
/// plan's roles in the run's line order.
@Suite struct SensorConfigurationTests {
    static let doorAndMeter = """
        defaults:
          chip: gpiochip0
          debounce: defer:20ms
        buttons:
          - {name: bell, line: 22}
        sensors:
          - name: front-door
            line: GPIO23
            chip: gpiochip4
            bias: pull-down
            debounce: eager:30ms
            kernel_debounce: 5ms
            on_delay: 2s
            off_delay: 500ms
            inverted: true
            device_class: door
        counters:
          - name: energy
            line: 24
            chip: 0
            bias: disabled
            active: high
            debounce: defer:15ms
            kernel_debounce: 1ms
            per_unit: 1000
            unit: kWh
            device_class: energy
            flush: 30s
            publish_interval: 1min
            timeout: 10min
        """

    @Test func aDoorSensorIsReadWithEveryKey() throws {
        let configuration = try ConfigurationLoader.load(Self.doorAndMeter, file: "d.yaml")
        let sensor = try #require(configuration.sensors.first)
        #expect(configuration.sensors.count == 1)
        #expect(sensor.name == "front-door")
        #expect(sensor.lineSettings == LineSettings(chip: "gpiochip4", line: "GPIO23", bias: .pullDown, kernelDebounceNs: 5_000_000))
        #expect(sensor.debounce == DebounceConfiguration(both: .eager(lockoutNs: 30_000_000, glitchNs: 0), activeLevel: .activeLow))
        #expect(sensor.contact == ContactConfiguration(onDelayNs: 2_000_000_000, offDelayNs: 500_000_000))
        #expect(sensor.deviceClass == "door")
    }

    @Test func anEnergyCounterIsReadWithEveryKey() throws {
        let configuration = try ConfigurationLoader.load(Self.doorAndMeter, file: "d.yaml")
        let counter = try #require(configuration.counters.first)
        #expect(configuration.counters.count == 1)
        #expect(counter.name == "energy")
        #expect(counter.lineSettings == LineSettings(chip: "0", line: "24", bias: .disabled, kernelDebounceNs: 1_000_000))
        #expect(counter.debounce == DebounceConfiguration(both: .defer(windowNs: 15_000_000), activeLevel: .activeHigh))
        #expect(counter.perUnit == 1000 && counter.unit == "kWh" && counter.deviceClass == "energy")
        #expect(counter.flushIntervalNs == 30_000_000_000 && counter.publishIntervalNs == 60_000_000_000)
        // Its power in W: 1 Wh a pulse, 3600 J; 0 after 10 min, falling at most once a minute.
        #expect(counter.rateTimeoutNs == 600_000_000_000 && counter.rateUnit == "W" && counter.rateDeviceClass == "power")
        #expect(counter.rateConfiguration == MeterRateConfiguration(perPulsePerSecond: 3600, timeoutNs: 600_000_000_000, reportIntervalNs: 60_000_000_000))
    }

    /// The rate's unit and scale by device class and unit: the rate of one pulse a second.
    @Test(arguments: [
        ("per_unit: 1000, unit: kWh, device_class: energy", "W", "power", 3600.0),
        ("per_unit: 1, unit: Wh, device_class: energy", "W", "power", 3600),
        ("per_unit: 800, unit: MWh, device_class: energy", "W", "power", 4_500_000),
        ("per_unit: 1000, unit: MJ, device_class: energy", "W", "power", 1000),
        ("per_unit: 1000, unit: m³, device_class: water", "L/min", "volume_flow_rate", 60),
        ("per_unit: 0.1, unit: L, device_class: water", "L/min", "volume_flow_rate", 600),
        ("per_unit: 1, unit: gal, device_class: volume", "L/min", "volume_flow_rate", 3.785411784 * 60),
        ("per_unit: 100, unit: m³, device_class: gas", "m³/h", "volume_flow_rate", 36),
        ("per_unit: 1000, unit: kWh", "pulses/min", nil, 60),
        ("per_unit: 0.5", "pulses/min", nil, 60),
    ] as [(String, String, String?, Double)])
    func aCountersRateIsInTheUnitItsDeviceClassImplies(keys: String, unit: String, deviceClass: String?, perPulsePerSecond: Double) throws {
        let counter = try #require(try ConfigurationLoader.load("counters: [{name: m, line: 24, \(keys)}]", file: "r.yaml").counters.first)
        #expect(counter.rateUnit == unit && counter.rateDeviceClass == deviceClass)
        #expect(abs(counter.rateConfiguration.perPulsePerSecond - perPulsePerSecond) <= perPulsePerSecond * 1e-15)
    }

    @Test func defaultsForSensorsAndCounters() throws {
        let configuration = try ConfigurationLoader.load("""
            sensors: [{line: 23}, {line: 25}]
            counters: [{line: 24}]
            """, file: "d.yaml")
        let sensor = try #require(configuration.sensors.first)
        #expect(configuration.sensors.map(\.name) == ["sensor1", "sensor2"])
        #expect(sensor.lineSettings == LineSettings(chip: nil, line: "23", bias: .pullUp, kernelDebounceNs: 0))
        // "On" is the line high, debounced 50 ms both ways; no delays, no device class.
        #expect(sensor.debounce == DebounceConfiguration(both: .defer(windowNs: 50_000_000), activeLevel: .activeHigh))
        #expect(sensor.contact == ContactConfiguration())
        #expect(sensor.deviceClass == nil)
        let counter = try #require(configuration.counters.first)
        #expect(counter.name == "counter1" && counter.lineSettings == LineSettings(chip: nil, line: "24", bias: .pullUp))
        #expect(counter.debounce == DebounceConfiguration(both: DebounceConfiguration.defaultStrategy, activeLevel: .activeLow))
        #expect(counter.perUnit == 1 && counter.unit == nil && counter.deviceClass == nil)
        #expect(counter.flushIntervalNs == 5_000_000_000 && counter.publishIntervalNs == 5_000_000_000)
        #expect(counter.rateTimeoutNs == 300_000_000_000 && counter.rateUnit == "pulses/min" && counter.rateDeviceClass == nil)
        #expect(counter.rateConfiguration == MeterRateConfiguration())
    }

    @Test func theDefaultsSectionAppliesToCountersButItsDebounceNotToSensors() throws {
        let configuration = try ConfigurationLoader.load("""
            defaults: {chip: gpiochip0, bias: pull-down, active: high, debounce: defer:25ms, kernel_debounce: 2ms}
            sensors: [{name: door, line: 23}]
            counters: [{name: water, line: 24, per_unit: 0.5}]
            """, file: "d.yaml")
        let sensor = try #require(configuration.sensors.first)
        #expect(sensor.lineSettings == LineSettings(chip: "gpiochip0", line: "23", bias: .pullDown, kernelDebounceNs: 2_000_000))
        #expect(sensor.debounce == DebounceConfiguration(both: .defer(windowNs: 50_000_000), activeLevel: .activeHigh))
        let counter = try #require(configuration.counters.first)
        #expect(counter.lineSettings == LineSettings(chip: "gpiochip0", line: "24", bias: .pullDown, kernelDebounceNs: 2_000_000))
        #expect(counter.debounce == DebounceConfiguration(both: .defer(windowNs: 25_000_000), activeLevel: .activeHigh))
        #expect(counter.perUnit == 0.5)
    }

    @Test func delaysOfZeroMeanNone() throws {
        let configuration = try ConfigurationLoader.load("sensors: [{line: 23, on_delay: 0, off_delay: 0ms}]", file: "d.yaml")
        #expect(configuration.sensors.first?.contact == ContactConfiguration(onDelayNs: 0, offDelayNs: 0))
    }

    @Test func aFileWithOnlySensorsOrOnlyCountersIsAConfiguration() throws {
        let sensors = try ConfigurationLoader.load("sensors:\n  - {name: leak, line: 5, device_class: moisture}\n", file: "s.yaml")
        #expect(sensors.buttons.isEmpty && sensors.encoders.isEmpty && sensors.counters.isEmpty && sensors.sensors.count == 1)
        #expect(sensors.roster.lines.map(\.settings?.line) == ["5"])
        let counters = try ConfigurationLoader.load("counters:\n  - {name: gas, line: 6, unit: m³, device_class: gas}\n", file: "c.yaml")
        #expect(counters.buttons.isEmpty && counters.sensors.isEmpty && counters.counters.first?.unit == "m³")
    }

    @Test func noListAtAllNamesAllFour() {
        #expect {
            try ConfigurationLoader.load("defaults: {chip: gpiochip0}\n", file: "e.yaml")
        } throws: { error in
            let text = "\(error)"
            return text.contains("`buttons:`") && text.contains("`encoders:`") && text.contains("`sensors:`") && text.contains("`counters:`")
        }
    }

    @Test(arguments: [
        ("sensors: [{name: door, line: 23, device_class: doors}]", "f.yaml:1:48: sensors[0].device_class: 'doors' is not a Home Assistant binary_sensor device class (did you mean door?); allowed: battery, "),
        ("counters: [{name: e, line: 24, device_class: energy}]", "f.yaml:1:46: counters[0].unit: `device_class: energy` needs `unit:`: Home Assistant accepts Wh, kWh, MWh, GJ, MJ"),
        ("counters: [{name: e, line: 24, device_class: energy, unit: W}]", "f.yaml:1:60: counters[0].unit: 'W' is not a unit for `device_class: energy`; Home Assistant accepts Wh, kWh, MWh, GJ, MJ"),
        ("counters: [{name: e, line: 24, device_class: energy, unit: kwh}]", "'kwh' is not a unit for `device_class: energy` (did you mean kWh?)"),
        ("counters: [{name: w, line: 24, device_class: water, unit: m3}]", "(did you mean m³?); Home Assistant accepts L, gal, m³, ft³, CCF"),
        ("counters: [{name: e, line: 24, device_class: power, unit: W}]", "counters[0].device_class: 'power' is not a device class for a meter; allowed: energy, gas, water, volume"),
        ("counters: [{name: e, line: 24, per_unit: 0}]", "f.yaml:1:42: counters[0].per_unit: '0' is out of range: pulses per unit, a number more than 0 and at most 1000000000"),
        ("counters: [{name: e, line: 24, per_unit: 1e3}]", "counters[0].per_unit: '1e3' is not a plain number"),
        ("counters: [{name: e, line: 24, per_unit: 2000000000}]", "'2000000000' is out of range"),
        ("counters: [{name: e, line: 24, unit: kilowatt-hours-total}]", "a unit has at most 16 characters"),
        ("counters: [{name: e, line: 24, flush: 500ms}]", "f.yaml:1:39: counters[0].flush: '500ms' is too short: a flush interval (how often at most the state file is written) is from 1s to 1h"),
        ("counters: [{name: e, line: 24, publish_interval: 2h}]", "counters[0].publish_interval: '2h' is too long"),
        ("counters: [{name: e, line: 24, timeout: 2h}]", "counters[0].timeout: '2h' is too long: a timeout (how long without a pulse before the rate is 0) is from 1s to 1h"),
        ("counters: [{name: e, line: 24, timeout: 500ms}]", "counters[0].timeout: '500ms' is too short"),
        ("sensors: [{name: door, line: 23, on_delay: 2h}]", "sensors[0].on_delay: '2h' is too long: an on delay"),
        ("sensors: [{name: door, line: 23, off_delay: -1s}]", "sensors[0].off_delay: durations cannot be negative"),
        ("sensors: [{name: door, line: 23, inverted: maybe}]", "sensors[0].inverted: 'maybe' is not allowed; allowed: true, false"),
        ("sensors: [{name: door}]", "sensors[0]: a sensor needs `line:`"),
        ("counters: [{name: e}]", "counters[0]: a counter needs `line:`"),
        ("sensors: [{name: door, line: 23, active: low}]", "unknown key 'active'; allowed: name, line, chip, bias, debounce, kernel_debounce, on_delay, off_delay, inverted, device_class"),
        ("sensors: []", "sensors: must be a list"),
        ("counters: {line: 4}", "counters: must be a list"),
        ("buttons: [{name: door, line: 5}]\nsensors: [{name: door, line: 23}]", "f.yaml:2:18: sensors[0].name: the name 'door' is already that of button 'door' (buttons[0])"),
        ("buttons: [{name: bell, line: 5}]\ncounters: [{name: e, line: 5}]", "f.yaml:2:28: counters[0].line: line 5 of the 40-pin header's chip is already the line of button 'bell' (buttons[0])"),
        ("sensors: [{line: 23}]\ncounters: [{name: sensor1, line: 24}]", "the name 'sensor1' is already that of sensor 'sensor1' (sensors[0])"),
        ("encoders: [{name: k, lines: [5, 6]}]\nsensors: [{name: door, line: 6}]", "is already a line of encoder 'k' (encoders[0])"),
        ("sensors: [{name: a, line: 23, chip: 0}, {name: b, line: 23, chip: /dev/gpiochip0}]", "sensors[1].line: line 23 of 'gpiochip0' is already the line of sensor 'a' (sensors[0])"),
    ])
    func mistakesAreRefusedWithWhereAndWhatToWrite(yaml: String, message: String) {
        #expect {
            try ConfigurationLoader.load(yaml, file: "f.yaml")
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func atMost64LinesInAll() throws {
        let buttons = (0..<40).map { "  - {name: b\($0), line: \($0)}" }.joined(separator: "\n")
        let sensors = (40..<60).map { "  - {name: s\($0), line: \($0)}" }.joined(separator: "\n")
        let counters = (60..<64).map { "  - {name: c\($0), line: \($0)}" }.joined(separator: "\n")
        let full = "buttons:\n\(buttons)\nsensors:\n\(sensors)\ncounters:\n\(counters)\n"
        #expect(try ConfigurationLoader.load(full, file: "f.yaml").roster.lines.count == 64)
        #expect {
            try ConfigurationLoader.load(full + "  - {name: one-more, line: 64}\n", file: "f.yaml")
        } throws: { error in
            "\(error)".contains("counters: at most 64 lines in all") && "\(error)".contains("these are 65")
        }
    }

    @Test func thePlanGivesContactAndCounterRolesAfterTheButtonsAndEncoders() throws {
        let configuration = try ConfigurationLoader.load("""
            buttons: [{name: bell, line: 22}]
            encoders: [{name: volume, lines: [17, 27]}]
            sensors:
              - {name: door, line: 23, on_delay: 2s}
              - {name: motion, line: 25, off_delay: 30s}
            counters:
              - {name: energy, line: 24, per_unit: 1000}
              - {name: water, line: 26}
            """, file: "p.yaml")
        let roster = configuration.roster
        #expect(roster.sensors.map(\.line.index) == [3, 4] && roster.counters.map(\.line.index) == [5, 6])
        #expect(roster.lines.map { roster.label(of: $0.id) } == ["bell", "volume (A)", "volume (B)", "door", "motion", "energy", "water"])
        #expect(roster.lines.map(\.settings?.line) == ["22", "17", "27", "23", "25", "24", "26"])
        let plan = DaemonPlan(configuration, starts: [roster.index(of: InputID(.counter, "energy"))!: 123_456])
        #expect(plan.plans.count == 7)
        #expect(plan.plans[0].role == .button)
        #expect(plan.plans[3] == LinePlan(debounce: configuration.sensors[0].debounce, role: .contact(ContactConfiguration(onDelayNs: 2_000_000_000)), input: 2))
        #expect(plan.plans[4].role == .contact(ContactConfiguration(offDelayNs: 30_000_000_000)))
        #expect(plan.plans[5] == LinePlan(debounce: configuration.counters[0].debounce, role: .counter(initialTotal: 123_456), input: 4))
        // A counter the state file does not list starts from 0.
        #expect(plan.plans[6].role == .counter(initialTotal: 0))
        #expect(DaemonPlan(configuration, starts: [4: 7, 5: 9]).plans[roster.counters[1].line.index].role == .counter(initialTotal: 9))
    }
}

/// A sensor's `actions:`: commands its changes run, `on: on`, `off` or `change`.
@Suite struct SensorActionConfigurationTests {
    @Test func aSensorsActionsAreBoundToItsLineByTrigger() throws {
        let configuration = try ConfigurationLoader.load(
            """
            buttons:
              - {name: bell, line: 5}
            sensors:
              - name: front-door
                line: 23
                actions:
                  - {on: on, run: [/usr/bin/logger, door open]}
                  - {on: change, shell: 'echo "$GPIO_STATE"', policy: drop}
            """, file: "s.yaml")
        let sensor = try #require(configuration.sensors.first)
        #expect(sensor.actions.map(\.on) == [.on, .change])
        #expect(sensor.actions.map(\.action.name) == ["front-door.on", "front-door.change"])
        #expect(sensor.actions[1].action.arguments == ["/bin/sh", "-c", "echo \"$GPIO_STATE\""])
        #expect(sensor.actions[1].action.policy == .drop)
        let plan = DaemonPlan(configuration)
        // The contact is the second input, after the button.
        #expect(plan.actionBindings == [InputActionBinding(input: 1, on: "on", action: 0), InputActionBinding(input: 1, on: "change", action: 1)])
        #expect(plan.actions.map(\.name) == ["front-door.on", "front-door.change"])
    }

    @Test func aSensorsActionNeedsOnOffOrChange() throws {
        #expect {
            try ConfigurationLoader.load("sensors:\n  - {name: door, line: 23, actions: [{run: [/bin/true]}]}\n", file: "s.yaml")
        } throws: { error in
            (error as? ConfigurationError)?.description.contains("a sensor's action needs `on:` (on, off or change)") == true
        }
        #expect {
            try ConfigurationLoader.load("sensors:\n  - {name: door, line: 23, actions: [{on: press, run: [/bin/true]}]}\n", file: "s.yaml")
        } throws: { error in
            (error as? ConfigurationError)?.description.contains("sensors[0].actions[0].on") == true
        }
    }
}
