import EventOutput
import InputModel

/// One input as the events socket shows it: its presenter, its state channels' latest payloads (the
/// snapshot a client gets when it connects) and whether its chip is there. The bytes every line of
/// it repeats are made once, here: a line is then appends of bytes (`EventSocketLine`).
struct EventSocketInput {
    let presenter: any InputPresenter
    /// Each state channel (`InputDescription.stateChannels`, in its entities' order) and its latest
    /// payload; nil before the first.
    private(set) var states: [(channel: String, payload: [UInt8]?)]
    /// Each state channel's key, `,"state":`, made once.
    private let stateKeys: [[UInt8]]
    /// Its run lines that are away with their chip now.
    var awayLines: Set<Int> = []
    /// `,"input":"door","kind":"sensor"`: what every line of it carries.
    let identity: [UInt8]

    init(_ presenter: any InputPresenter) {
        self.presenter = presenter
        var channels: [String] = []
        for entity in presenter.description.entities {
            if case .events = entity.value { continue }
            if !channels.contains(entity.channel) { channels.append(entity.channel) }
        }
        states = channels.map { ($0, nil) }
        stateKeys = channels.map { Array(",\(JSONText.quoted($0)):".utf8) }
        identity = Array(#","input":\#(JSONText.quoted(presenter.description.name)),"kind":\#(JSONText.quoted(presenter.description.kind))"#.utf8)
    }

    var name: String { presenter.description.name }
    var kind: String { presenter.description.kind }
    var isAvailable: Bool { awayLines.isEmpty }

    /// Keeps `update`'s payload if it is one of its states: whether it changed one.
    mutating func apply(_ update: InputUpdate) -> Bool {
        guard update.delivery != .event, let index = states.firstIndex(where: { $0.channel == update.channel }) else { return false }
        guard states[index].payload != update.payload else { return false }
        states[index].payload = update.payload
        return true
    }

    /// Appends each state as `,"channel":value` (a number or an object as it is, a word as a string,
    /// `null` before the first): made when a line is, never when no client listens.
    func appendStates(to bytes: inout [UInt8]) {
        for (key, state) in zip(stateKeys, states) {
            bytes += key
            if let payload = state.payload { bytes += Self.value(payload) } else { bytes += "null".utf8 }
        }
    }

    /// A payload as a JSON value: a number or an object as it is, a word as a string.
    private static func value(_ payload: [UInt8]) -> [UInt8] {
        guard let first = payload.first else { return Array(#""""#.utf8) }
        let text = String(decoding: payload, as: UTF8.self)
        let isNumber = (first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)) && Double(text) != nil
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || isNumber ? payload : Array(JSONText.quoted(text).utf8)
    }
}
