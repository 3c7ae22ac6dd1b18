import DebounceCore

/// Everything a run's pipeline is made of, before its lines' levels are read: each line's stages, the
/// groups its lines lock each other out in, the stages that decode several lines together (a rotary
/// encoder's pair, a keypad's code entry). The loop builds its `ButtonPipeline` from it once the source's
/// initial levels are read (`ButtonPipeline.init(plan:lineCount:initialLevels:atNs:reportsEdges:)`).
public struct PipelinePlan: Sendable {
    /// One plan per line, or one for every line.
    public var lines: [LinePlan]
    /// The lockouts that `LinePlan.group` indexes.
    public var groups: [GroupLockout]
    /// Pairs of raw lines decoded into detents.
    public var encoders: [EncoderPlan]
    /// Keypads' code entry, collected from their keys' presses.
    public var codes: [CodePlan]
    /// Selector switches: raw lines read together as one value.
    public var selectors: [SelectorPlan]

    public init(lines: [LinePlan], groups: [GroupLockout] = [], encoders: [EncoderPlan] = [], codes: [CodePlan] = [], selectors: [SelectorPlan] = []) {
        self.lines = lines
        self.groups = groups
        self.encoders = encoders
        self.codes = codes
        self.selectors = selectors
    }

    /// The plan of each of `lineCount` lines: `lines` itself, or its one plan for every line.
    package func linePlans(count lineCount: Int) -> [LinePlan] {
        lines.count == lineCount ? lines : Array(repeating: lines[0], count: lineCount)
    }

    /// Whether `lines` fits a source of `lineCount` lines: one plan per line, or one for all.
    package func fits(lineCount: Int) -> Bool { lines.count == 1 || lines.count == lineCount }
}

extension ButtonPipeline {
    /// A pipeline of `plan` over `lineCount` lines whose line `i` reads `initialLevels[i]` at `timeNs`.
    package init(plan: PipelinePlan, lineCount: Int, initialLevels: [Level], atNs timeNs: Int64, reportsEdges: Bool = true) {
        self.init(
            plans: plan.linePlans(count: lineCount), groups: plan.groups, encoders: plan.encoders, codes: plan.codes, selectors: plan.selectors, initialLevels: initialLevels, atNs: timeNs,
            reportsEdges: reportsEdges)
    }
}
