import ESPHomeAPI
import InputModel

/// The entities the device shows its clients, made from the inputs' descriptions (the same set as
/// MQTT's discovery: each `EntityDescription` one entity), each entity's latest state, and what each
/// update of an input makes the device send.
struct APIEntityTable: Sendable {
    private(set) var entities: [APIEntity] = []
    /// Each state entity's latest state message (by its place in `entities`); nil: none yet.
    private var states: [APIMessage?] = []
    /// Each state entity's latest update while no client listened, not yet made a message (`states`
    /// is made from it when a client subscribes): with no client, an update costs no encoding.
    private var pending: [InputUpdate?] = []
    /// The entities of each input (by `InputDescription.input`), by channel: places in `entities`.
    private var byInput: [Int: [(channel: String, places: [Int])]] = [:]
    /// The inputs whose chip is away: their states are missing meanwhile.
    private var awayInputs: Set<Int> = []

    /// The entities of `descriptions`, in their order, then each input's health (`<input>_health`, a
    /// diagnostic sensor). Object ids are `<input>_<entity key>`; where two
    /// inputs' names spell the same id (`front door` and `front_door`), or two ids hash to one key, the
    /// later one takes `_2` (then `_3`...).
    init(_ descriptions: [InputDescription]) {
        var taken: [String: Set<String>] = [:]  // object ids by platform
        var takenKeys: [String: Set<UInt32>] = [:]
        /// A free object id and key for `name` among `platform`'s entities.
        func place(_ name: String, platform: String) -> (objectID: String, key: UInt32) {
            let base = APIEntityKey.objectID(of: name)
            var objectID = base
            var suffix = 1
            while taken[platform, default: []].contains(objectID) || takenKeys[platform, default: []].contains(APIEntityKey.key(ofObjectID: objectID)) {
                suffix += 1
                objectID = "\(base)_\(suffix)"
            }
            let key = APIEntityKey.key(ofObjectID: objectID)
            taken[platform, default: []].insert(objectID)
            takenKeys[platform, default: []].insert(key)
            return (objectID, key)
        }
        for input in descriptions {
            for entity in input.entities {
                let platform = APIEntity(entity, of: input, objectID: "", key: 0).kind.platform
                let (objectID, key) = place("\(input.name)_\(entity.key)", platform: platform)
                add(APIEntity(entity, of: input, objectID: objectID, key: key))
            }
        }
        for input in descriptions {
            let (objectID, key) = place("\(input.name)_health", platform: "sensor")
            add(APIEntity.health(of: input, objectID: objectID, key: key))
        }
        states = Array(repeating: nil, count: entities.count)
        pending = Array(repeating: nil, count: entities.count)
    }

    /// Adds `entity`, found by its input and channel.
    private mutating func add(_ entity: APIEntity) {
        var channels = byInput[entity.input, default: []]
        if let index = channels.firstIndex(where: { $0.channel == entity.channel }) {
            channels[index].places.append(entities.count)
        } else {
            channels.append((entity.channel, [entities.count]))
        }
        byInput[entity.input] = channels
        entities.append(entity)
    }

    /// What answers a `ListEntitiesRequest`: every entity's listing, then `ListEntitiesDoneResponse`.
    var listing: [APIMessage] {
        entities.map(\.listing) + [APIMessage(APIListEntitiesDoneResponse())]
    }

    /// What a client that subscribes to the states gets first: every state entity's state now, or that
    /// it has none (before its first value, or while its input's chip is away).
    mutating func currentStates() -> [APIMessage] {
        settle()
        return entities.indices.compactMap { index in
            isAway(index) ? entities[index].missingState : states[index] ?? entities[index].missingState
        }
    }

    /// Takes `update` of input `input`: keeps the states it sets and, when a client listens
    /// (`sending`), returns what the subscribed clients are to be sent (nothing for a state that did
    /// not change, or while the chip is away). With no client (`sending` false) it only notes the
    /// update, and sends nothing.
    mutating func apply(_ update: InputUpdate, of input: Int, sending: Bool = true) -> [APIMessage] {
        guard let channels = byInput[input], let places = channels.first(where: { $0.channel == update.channel })?.places else { return [] }
        var messages: [APIMessage] = []
        for place in places {
            if case .event = entities[place].kind {
                if sending, let message = entities[place].message(for: update) { messages.append(message) }
                continue
            }
            guard sending else {
                pending[place] = update
                continue
            }
            settle(place)
            guard let message = entities[place].message(for: update), states[place] != message else { continue }
            states[place] = message
            if !isAway(place) { messages.append(message) }
        }
        return messages
    }

    /// Whether the entity at `place` has its state missing now: its input's chip is away.
    private func isAway(_ place: Int) -> Bool {
        entities[place].followsChip && awayInputs.contains(entities[place].input)
    }

    /// Makes the state of `place` from its update noted while no client listened.
    private mutating func settle(_ place: Int) {
        guard let update = pending[place] else { return }
        pending[place] = nil
        if let message = entities[place].message(for: update) { states[place] = message }
    }

    /// Makes every noted update a state.
    private mutating func settle() {
        for place in pending.indices where pending[place] != nil { settle(place) }
    }

    /// Input `input`'s chip went away (`isAvailable` false: its states are missing) or came back (its
    /// latest states): what the subscribed clients are to be sent.
    mutating func setAvailable(_ isAvailable: Bool, input: Int) -> [APIMessage] {
        guard isAvailable == awayInputs.contains(input) else { return [] }
        if isAvailable { awayInputs.remove(input) } else { awayInputs.insert(input) }
        settle()
        return entities.indices.compactMap { index in
            guard entities[index].input == input, entities[index].followsChip else { return nil }
            return isAvailable ? states[index] ?? entities[index].missingState : entities[index].missingState
        }
    }

    /// The latest states of `other`'s entities carried into this table (a reload): an entity of the same
    /// object id and kind keeps its state.
    mutating func keepStates(of other: APIEntityTable) {
        var other = other
        other.settle()
        for index in entities.indices {
            guard let kept = other.entities.firstIndex(where: { $0.objectID == entities[index].objectID && $0.kind == entities[index].kind }) else { continue }
            states[index] = other.states[kept]
        }
    }

    /// Whether `other` lists the same entities (a reload that changed no input's entities: the clients
    /// need not list them again).
    func listsTheSame(as other: APIEntityTable) -> Bool {
        entities.map(\.listing) == other.entities.map(\.listing)
    }
}
