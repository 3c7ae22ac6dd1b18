import EventOutput
import YAMLDocument

/// One line a client of the events socket sends: JSON, one object per line.
///
/// - `{"request":"subscribe","inputs":["door","bell"],"events":["press","state"]}`: from now on only
///   these inputs' lines, and of those only these events (either list may be left out: all of them);
/// - `{"request":"status"}`: every input's state and health now, then `{"event":"status_end"}`;
/// - on the control socket only: `{"request":"reload"}`, the configuration read again (as SIGHUP), answered
///   with `reloaded` or `reload_refused`; `{"request":"health"}`, as `status`.
public enum EventSocketRequest: Sendable, Hashable {
    case subscribe(inputs: Set<String>?, events: Set<String>?)
    case status
    case reload
    case health

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
        let known = ["request", "inputs", "events"]
        if let unknown = fields.keys.first(where: { !known.contains($0.string ?? "") }) {
            throw Refusal(message: "unknown key \(unknown.string.map { "\"\($0)\"" } ?? "(not text)"): a request has \(known.joined(separator: ", "))")
        }
        switch fields["request"]?.string {
        case let name? where ["status", "reload", "health"].contains(name):
            guard fields["inputs"] == nil, fields["events"] == nil else { throw Refusal(message: "\(name) takes no inputs or events") }
            return name == "status" ? .status : name == "reload" ? .reload : .health
        case "subscribe"?:
            return .subscribe(inputs: try names(fields["inputs"], "inputs"), events: try names(fields["events"], "events"))
        default:
            throw Refusal(message: "\"request\" must be \"subscribe\" or \"status\" (or, on the control socket, \"reload\" or \"health\"): \(example)")
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
