import Testing

@testable import EventSocket

/// A client's request lines: what is taken, and what is refused with a message a person can act on.
@Suite struct EventSocketRequestTests {
    @Test func aSubscriptionNamesInputsEventsOrBoth() throws {
        #expect(try EventSocketRequest.parse(#"{"request":"subscribe","inputs":["door","bell"]}"#) == .subscribe(inputs: ["door", "bell"], events: nil))
        #expect(try EventSocketRequest.parse(#"{"request":"subscribe","events":["press"]}"#) == .subscribe(inputs: nil, events: ["press"]))
        #expect(try EventSocketRequest.parse(#"{"request":"subscribe"}"#) == .subscribe(inputs: nil, events: nil))
        #expect(try EventSocketRequest.parse(#" {"inputs": ["door"], "request": "subscribe"} "#) == .subscribe(inputs: ["door"], events: nil))
    }

    @Test func statusTakesNothingElse() throws {
        #expect(try EventSocketRequest.parse(#"{"request":"status"}"#) == .status)
        #expect(try EventSocketRequest.parse(#"{"request":"reload"}"#) == .reload)
        #expect(try EventSocketRequest.parse(#"{"request":"health"}"#) == .health)
        for request in [EventSocketRequest.status, .reload, .health, .subscribe(inputs: ["b", "a"], events: ["press"]), .reset(input: "energy", to: nil), .reset(input: "knob", to: -5)] {
            #expect(try EventSocketRequest.parse(request.line) == request, "written as a client sends it, read back")
        }
        #expect(throws: EventSocketRequest.Refusal.self) { try EventSocketRequest.parse(#"{"request":"status","inputs":["a"]}"#) }
    }

    @Test func aResetNamesOneInputAndMayGiveAWholeNumber() throws {
        #expect(try EventSocketRequest.parse(#"{"request":"reset","input":"energy","to":41000}"#) == .reset(input: "energy", to: 41000))
        #expect(try EventSocketRequest.parse(#"{"request":"reset","input":"knob","to":-3}"#) == .reset(input: "knob", to: -3))
        #expect(try EventSocketRequest.parse(#"{"request":"reset","input":"energy"}"#) == .reset(input: "energy", to: nil))
    }

    @Test(arguments: [
        ("hello", "not a JSON object"),
        ("{", "not JSON"),
        (#"{"request":"restart"}"#, #""request" must be "subscribe" or "status" (or, on the control socket, "reload", "reset" or "health")"#),
        (#"{"request":"reload","inputs":["a"]}"#, #"reload takes no "inputs""#),
        (#"{"request":"subscribe","input":"door"}"#, #"subscribe takes no "input""#),
        (#"{"request":"reset","inputs":["energy"]}"#, #"reset takes no "inputs""#),
        (#"{"request":"reset"}"#, "reset names one input"),
        (#"{"request":"reset","input":"energy","to":1.5}"#, #""to" must be a whole number"#),
        (#"{"request":"reset","input":"energy","to":"lots"}"#, #""to" must be a whole number"#),
        (#"{"request":"reset","input":"energy","to":99999999999999999999}"#, #""to" must be a whole number"#),
        (#"{"request":"subscribe","inputs":[]}"#, #""inputs" must be a list of names"#),
        (#"{"request":"subscribe","inputs":"door"}"#, #""inputs" must be a list of names"#),
        (#"{"request":"subscribe","source":["door"]}"#, #"unknown key "source""#),
        (#"{"request":"subscribe","inputs":[{"a":1}]}"#, #""inputs" must be a list of names"#),
        ("[1,2]", "not a JSON object"),
    ])
    func aBadLineIsRefusedWithWhatToSend(line: String, message: String) {
        do {
            _ = try EventSocketRequest.parse(line)
            Issue.record("\(line) was taken")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }
}
