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
        for request in [EventSocketRequest.status, .reload, .health, .subscribe(inputs: ["b", "a"], events: ["press"])] {
            #expect(try EventSocketRequest.parse(request.line) == request, "written as a client sends it, read back")
        }
        #expect(throws: EventSocketRequest.Refusal.self) { try EventSocketRequest.parse(#"{"request":"status","inputs":["a"]}"#) }
    }

    @Test(arguments: [
        ("hello", "not a JSON object"),
        ("{", "not JSON"),
        (#"{"request":"restart"}"#, #""request" must be "subscribe" or "status" (or, on the control socket, "reload" or "health")"#),
        (#"{"request":"reload","inputs":["a"]}"#, "reload takes no inputs or events"),
        (#"{"request":"subscribe","inputs":[]}"#, #""inputs" must be a list of names"#),
        (#"{"request":"subscribe","inputs":"door"}"#, #""inputs" must be a list of names"#),
        (#"{"request":"subscribe","input":["door"]}"#, #"unknown key "input""#),
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
