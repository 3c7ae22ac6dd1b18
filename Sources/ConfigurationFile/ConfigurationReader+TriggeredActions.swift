import Settings
import YAMLDocument

/// The `actions:` of an input with a few fixed triggers (an encoder's `on: cw`, `on: ccw`...):
/// commands started by one of them, each `run:` or `shell:` with a `policy`, `limit` and `timeout`
/// as a button's.
extension ConfigurationReader {
    /// Each entry of `node` (the `actions:` of `owner`, at `key`) as its trigger and its command, named
    /// `OWNER.TRIGGER`; `defaultPolicy` where the entry gives none. `what` names the owner in the
    /// message for a missing `on:` ("an encoder's").
    package func triggeredActions<Trigger: RawRepresentable & CaseIterable>(
        _ node: YAMLNode, key: String, owner: String, what: String, defaultPolicy: ActionPolicy = .queue
    ) throws(ConfigurationError) -> [(on: Trigger, action: Action)] where Trigger.RawValue == String {
        let triggers = Trigger.allCases.map(\.rawValue)
        let listed = triggers.dropLast().joined(separator: ", ") + " or " + (triggers.last ?? "")
        guard case .sequence(let list) = node else { throw reader.error(node, key, "must be a list (`- on: \(triggers.first ?? "")` entries)") }
        var actions: [(on: Trigger, action: Action)] = []
        for (index, actionNode) in list.enumerated() {
            let actionKey = "\(key)[\(index)]"
            let fields = try reader.mapping(actionNode, key: actionKey, allowed: ["on", "run", "shell", "policy", "limit", "timeout"])
            guard let onNode = fields["on"] else { throw reader.error(actionNode, actionKey, "\(what) action needs `on:` (\(listed))") }
            let chosen = try reader.choice(onNode, key: "\(actionKey).on", allowed: triggers)
            guard let on = Trigger(rawValue: chosen) else { throw reader.error(onNode, "\(actionKey).on", "allowed: \(listed)") }
            var command = try action(fields, node: actionNode, key: actionKey, input: owner, on: .press, count: nil).action
            command.name = "\(owner).\(on.rawValue)"
            if fields["policy"] == nil { command.policy = defaultPolicy }
            actions.append((on, command))
        }
        return actions
    }
}
