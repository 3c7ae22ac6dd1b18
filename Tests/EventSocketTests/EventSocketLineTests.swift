import InputModel
import Inputs
import Pipeline
import Testing

@testable import EventSocket

/// The protocol's lines: an event as `run` prints it with the input's name, kind and sequence number
/// added; a state with each channel's value as JSON.
@Suite struct EventSocketLineTests {
    static let button = ButtonPresenter(name: "bell", input: 3, chip: "gpiochip0", line: 17, lineIndex: 2, gestures: [.press])

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func anEventKeepsItsFieldsAndGainsInputKindAndSequence() {
        let input = EventSocketInput(Self.button)
        let payload = Array(#"{"event":"press","time_ns":5,"button":"bell"}"#.utf8)
        #expect(Self.text(EventSocketLine.event(payload[...], of: input, seq: 7)) == #"{"event":"press","time_ns":5,"button":"bell","input":"bell","kind":"button","seq":7}"# + "\n")
        #expect(EventSocketLine.eventName(payload) == "press")
        #expect(EventSocketLine.eventName(Array("{}".utf8)) == "")
    }

    @Test func aStateIsAWordANumberOrAnObjectAsJSON() {
        var input = EventSocketInput(Self.button)
        #expect(Self.text(EventSocketLine.state(input, timeNs: 9, seq: nil))
            == #"{"event":"state","input":"bell","kind":"button","available":true,"state":null,"time_ns":9,"snapshot":true}"# + "\n")
        let changed = input.apply(InputUpdate(channel: "state", text: "pressed", delivery: .state))
        let again = input.apply(InputUpdate(channel: "state", text: "pressed", delivery: .state))
        let event = input.apply(InputUpdate(channel: "event", text: "{}", delivery: .event))
        #expect(changed)
        #expect(!again, "the same state is no change")
        #expect(!event, "an event is no state")
        input.awayLines = [2]
        #expect(Self.text(EventSocketLine.state(input, timeNs: 9, seq: 4))
            == #"{"event":"state","input":"bell","kind":"button","available":false,"state":"pressed","time_ns":9,"seq":4}"# + "\n")
        let counter = CounterPresenter(name: "energy \"main\"", input: 1, chip: "c", line: 4, lineIndex: 0, perUnit: 1000, unit: "kWh", deviceClass: "energy", startTotal: 0, publishIntervalNs: 0)
        var meter = EventSocketInput(counter)
        _ = meter.apply(counter.state(total: 1500, ratePerMinute: 0, rate: 0))
        let line = Self.text(EventSocketLine.state(meter, timeNs: 1, seq: 2))
        #expect(line.contains(#""input":"energy \"main\"""#))
        #expect(line.contains(#""state":{"total":1500,"value":1.5,"#), "\(line)")
    }

    @Test func theStatusLineCarriesTheHealthAndTheEndCountsInputs() {
        let line = Self.text(EventSocketLine.status(EventSocketInput(Self.button), health: InputHealth(edges: 4).json, timeNs: 3))
        #expect(line.hasPrefix(#"{"event":"status","input":"bell","#))
        #expect(line.hasSuffix(#""time_ns":3,"health":{"edges":4,"bounces_absorbed":0,"glitches_rejected":0,"noise_bursts":0,"lost_events":0}}"# + "\n"))
        #expect(Self.text(EventSocketLine.statusEnd(inputs: 2)) == #"{"event":"status_end","inputs":2}"# + "\n")
        #expect(Self.text(EventSocketLine.lost(12)) == #"{"event":"lost","count":12}"# + "\n")
        #expect(Self.text(EventSocketLine.error("a \"b\"")) == #"{"event":"error","message":"a \"b\""}"# + "\n")
        #expect(Self.text(EventSocketLine.reloaded(added: ["x"], removed: [], seq: 5)) == #"{"event":"reloaded","added":["x"],"removed":[],"seq":5}"# + "\n")
    }

    @Test func textReadsTheLinesBackAsWatchWritesEvents() {
        let event = Array(#"{"event":"press","time_ns":1250000000,"onset_ns":-5,"button":"bell","chip":"c","line":17,"lines":[1,2],"input":"bell","kind":"button","seq":7}"#.utf8)
        #expect(EventSocketText.line(event) == "press   time=1.250000000 onset=-0.000000005 button=bell chip=c line=17 lines=1,2")
        let state = Array(#"{"event":"state","input":"m","kind":"counter","available":true,"state":{"total":3},"time_ns":0,"snapshot":true}"#.utf8)
        #expect(EventSocketText.line(state) == "state   input=m available=true state.total=3 time=0.000000000 snapshot=true")
        #expect(EventSocketText.line(Array("not json".utf8)) == nil)
        let table = EventSocketText.statusTable([
            Array(#"{"event":"status","input":"bell","kind":"button","available":true,"state":"released","time_ns":3,"health":{"edges":4,"bounces_absorbed":2,"lost_events":0}}"#.utf8)
        ])
        #expect(table == ["INPUT  KIND    STATE           AVAILABLE  EDGES  BOUNCES  LOST", "bell   button  state=released  yes        4      2        0"])
    }
}
