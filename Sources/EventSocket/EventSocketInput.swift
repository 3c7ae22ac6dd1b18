import InputModel

/// One input as the events socket shows it: its presenter, its state channels' latest payloads (the
/// snapshot a client gets when it connects) and whether its chip is there.
struct EventSocketInput {
    let presenter: any InputPresenter
    /// Each state channel (`InputDescription.stateChannels`, in its entities' order) and its latest
    /// payload; nil before the first.
    private(set) var states: [(channel: String, payload: [UInt8]?)]
    /// Its run lines that are away with their chip now.
    var awayLines: Set<Int> = []

    init(_ presenter: any InputPresenter) {
        self.presenter = presenter
        var channels: [String] = []
        for entity in presenter.description.entities {
            if case .events = entity.value { continue }
            if !channels.contains(entity.channel) { channels.append(entity.channel) }
        }
        states = channels.map { ($0, nil) }
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
}
