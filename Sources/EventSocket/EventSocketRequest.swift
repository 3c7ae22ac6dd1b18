import EventOutput
import YAMLDocument

/// One line a client of the events socket sends: JSON, one object per line.
///
/// - `{"request":"subscribe","inputs":["door","bell"],"events":["press","state"]}`: from now on only
///   these inputs' lines, and of those only these events (either list may be left out: all of them);
/// - `{"request":"status"}`: every input's state and health now, then `{"event":"status_end"}`;
/// - on the control socket only: `{"request":"reload"}`, the configuration read again (as SIGHUP), answered
///   with `reloaded` or `reload_refused`; `{"request":"health"}`, as `status`;
///   `{"request":"reset","input":"energy","to":41000}`, an input's value set (here a counter's total;
///   `to` left out: the input's own reset value, such as 0), answered with the `reset` event it made,
///   or an `error`.
public enum EventSocketRequest: Sendable, Hashable {
    case subscribe(inputs: Set<String>?, events: Set<String>?)
    case status
    case reload
    case health
    case reset(input: String, to: Int64?)

    /// The longest request line, in bytes, its newline included: a client that sends a longer one is
    /// told so and closed.
    public static let maximumLineBytes = 4096

    /// Why a line is not a request, as the `error` event tells the client.
    public struct Refusal: Error, Sendable, Hashable {
        public var message: String
    }

    /// Reads one line (without its newline), through libyaml (`YAMLNode.compose`: JSON is YAML's flow style).
    public static func parse(_ line: String) throws(Refusal) -> EventSocketRequest {
        let example = #"send one JSON object a line: {"request":"subscribe","inputs":["door"]} or {"request":"status"}"#
        let node: YAMLNode?
        do { node = try YAMLNode.compose(line, maximumNesting: 4, maximumAliasedNodes: 0) } catch { throw Refusal(message: "not JSON: \(example)") }
        guard case .mapping(let fields)? = node else { throw Refusal(message: "not a JSON object: \(example)") }
        let known = ["request", "inputs", "events", "input", "to"]
        if let unknown = fields.keys.first(where: { !known.contains($0.string ?? "") }) {
            throw Refusal(message: "unknown key \(unknown.string.map { "\"\($0)\"" } ?? "(not text)"): a request has \(known.joined(separator: ", "))")
        }
        let request = fields["request"]?.string
        func only(_ keys: String...) throws(Refusal) {
            if let other = fields.keys.compactMap(\.string).filter({ $0 != "request" && !keys.contains($0) }).sorted().first {
                throw Refusal(message: "\(request ?? "this request") takes no \"\(other)\"")
            }
        }
        switch request {
        case let name? where ["status", "reload", "health"].contains(name):
            try only()
            return name == "status" ? .status : name == "reload" ? .reload : .health
        case "subscribe"?:
            try only("inputs", "events")
            return .subscribe(inputs: try names(fields["inputs"], "inputs"), events: try names(fields["events"], "events"))
        case "reset"?:
            try only("input", "to")
            guard let input = fields["input"]?.string, !input.isEmpty else { throw Refusal(message: #"reset names one input: {"request":"reset","input":"energy","to":0}"#) }
            guard let to = fields["to"] else { return .reset(input: input, to: nil) }
            guard let text = to.string, let value = Int64(text) else { throw Refusal(message: "\"to\" must be a whole number, e.g. 0 or 41000") }
            return .reset(input: input, to: value)
        default:
            throw Refusal(message: "\"request\" must be \"subscribe\" or \"status\" (or, on the control socket, \"reload\", \"reset\" or \"health\"): \(example)")
        }
    }

    /// The request as a client sends it: one JSON object, without the newline (the names sorted).
    public var line: String {
        func list(_ key: String, _ names: Set<String>?) -> String {
            names.map { #","\#(key)":[\#($0.sorted().map(JSONText.quoted).joined(separator: ","))]"# } ?? ""
        }
        switch self {
        case .status: return #"{"request":"status"}"#
        case .reload: return #"{"request":"reload"}"#
        case .health: return #"{"request":"health"}"#
        case .reset(let input, let to): return #"{"request":"reset","input":\#(JSONText.quoted(input))\#(to.map { ",\"to\":\($0)" } ?? "")}"#
        case .subscribe(let inputs, let events): return #"{"request":"subscribe"\#(list("inputs", inputs))\#(list("events", events))}"#
        }
    }

    /// A list of names, or nil for none given.
    private static func names(_ node: YAMLNode?, _ key: String) throws(Refusal) -> Set<String>? {
        guard let node else { return nil }
        guard case .sequence(let list) = node, !list.isEmpty else { throw Refusal(message: "\"\(key)\" must be a list of names, e.g. [\"door\"]") }
        var names = Set<String>()
        for item in list {
            guard let name = item.string, !name.isEmpty else { throw Refusal(message: "\"\(key)\" must be a list of names, e.g. [\"door\"]") }
            names.insert(name)
        }
        return names
    }
}
