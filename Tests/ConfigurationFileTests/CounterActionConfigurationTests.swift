import ConfigurationFile
import Inputs
import Settings
import Testing

/// A counter's `actions:`: commands its pulses (`on: pulse`) and rates (`on: rate`) run, coalesced
/// unless the entry gives a policy.
@Suite struct CounterActionConfigurationTests {
    static let meter = """
        sensors:
          - name: door
            line: 23
            actions:
              - {on: on, run: [/bin/true]}
        counters:
          - name: energy
            line: 24
            per_unit: 1000
            unit: kWh
            device_class: energy
            actions:
              - {on: rate, run: [/usr/local/bin/log-power, --verbose]}
              - on: pulse
                shell: 'echo "$GPIO_TOTAL"'
                policy: queue
                timeout: 2s
        """

    /// The message of loading one counter with `actions` (a YAML flow value), or "loaded".
    static func refusal(_ actions: String) -> String {
        do {
            _ = try ConfigurationLoader.load("counters:\n  - {name: energy, line: 24, actions: \(actions)}\n", file: "c.yaml")
            return "loaded"
        } catch {
            return error.description
        }
    }

    @Test func aCountersActionsAreReadWithTheirTriggersAndPolicies() throws {
        let configuration = try ConfigurationLoader.load(Self.meter, file: "c.yaml")
        let counter = try #require(configuration.counters.first)
        #expect(counter.actions.map(\.on) == [.rate, .pulse])
        #expect(counter.actions.map(\.action.name) == ["energy.rate", "energy.pulse"])
        #expect(counter.actions[0].action.arguments == ["/usr/local/bin/log-power", "--verbose"])
        #expect(counter.actions[1].action.arguments == ["/bin/sh", "-c", "echo \"$GPIO_TOTAL\""])
        // A meter can pulse many times a second: coalesced unless the entry says otherwise.
        #expect(counter.actions[0].action.policy == .coalesce)
        #expect(counter.actions[1].action.policy == .queue)
        #expect(counter.actions[1].action.timeoutNs == 2_000_000_000)
        #expect(counter.perUnit == 1000 && counter.unit == "kWh" && counter.rateUnit == "W")
    }

    @Test func thePlanBindsACountersActionsToItsLineAfterTheSensorsActions() throws {
        let configuration = try ConfigurationLoader.load(Self.meter, file: "c.yaml")
        let plan = DaemonPlan(configuration)
        #expect(plan.actions.map(\.name) == ["door.on", "energy.rate", "energy.pulse"])
        // The contact is the first input, the meter the second: each binding names its input.
        #expect(plan.actionBindings == [
            InputActionBinding(input: 0, on: "on", action: 0), InputActionBinding(input: 1, on: "rate", action: 1),
            InputActionBinding(input: 1, on: "pulse", action: 2),
        ])
    }

    @Test func aCounterWithoutActionsBindsNone() throws {
        let configuration = try ConfigurationLoader.load("counters:\n  - {name: water, line: 24}\n", file: "c.yaml")
        #expect(configuration.counters[0].actions.isEmpty)
        #expect(DaemonPlan(configuration).actionBindings.isEmpty)
    }

    @Test func aCountersActionNeedsPulseOrRate() {
        #expect(Self.refusal("[{run: [/bin/true]}]").contains("counters[0].actions[0]: a counter's action needs `on:` (pulse or rate)"))
        let wrong = Self.refusal("[{on: press, run: [/bin/true]}]")
        #expect(wrong.contains("counters[0].actions[0].on") && wrong.contains("'press' is not allowed; allowed: pulse, rate"), "\(wrong)")
        #expect(Self.refusal("{on: pulse, run: [/bin/true]}").contains("counters[0].actions: must be a list (`- on: pulse` entries)"))
        #expect(Self.refusal("[{on: rate}]").contains("counters[0].actions[0]"))
        #expect(Self.refusal("[{on: rate, run: [/bin/true], key: KEY_A}]").contains("key"))
        #expect(Self.refusal("[{on: rate, run: [/bin/true], policy: sometimes}]").contains("allowed: queue, drop, parallel, coalesce"))
    }
}
