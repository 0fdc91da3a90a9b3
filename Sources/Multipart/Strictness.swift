/// The action chosen for each ``StrictFlag``.
///
/// Starts from every flag's ``StrictFlag/defaultAction``; ``setAction(_:for:)`` refuses an action a flag
/// does not permit, so a configuration can only relax checks where the reading stays unambiguous.
public struct Strictness: Sendable, Hashable {
    private var overrides: [StrictFlag: StrictAction] = [:]

    /// Every flag at its default action.
    public init() {}

    /// Every flag at its default action, then the given overrides.
    /// - Throws: ``StrictnessError`` if an override is not permitted for its flag.
    public init(_ overrides: [StrictFlag: StrictAction]) throws(StrictnessError) {
        for (flag, action) in overrides {
            try setAction(action, for: flag)
        }
    }

    /// The action for `flag`.
    public func action(for flag: StrictFlag) -> StrictAction {
        overrides[flag] ?? flag.defaultAction
    }

    /// Whether `header_folding` is normalized: what every parser asks when it is made (one per request), kept
    /// here so that it costs no lookup (a flag hashes as its raw value, a string).
    public private(set) var normalizesHeaderFolding = StrictFlag.headerFolding.defaultAction == .normalize

    /// Whether `flag`'s action was set (``setAction(_:for:)``), rather than left at its default.
    public func isSet(_ flag: StrictFlag) -> Bool {
        overrides[flag] != nil
    }

    /// Sets the action for `flag`.
    /// - Throws: ``StrictnessError`` if `flag` does not permit `action`.
    public mutating func setAction(_ action: StrictAction, for flag: StrictFlag) throws(StrictnessError) {
        guard flag.permittedActions.contains(action) else {
            throw StrictnessError(flag: flag, action: action)
        }
        overrides[flag] = action
        if flag == .headerFolding { normalizesHeaderFolding = action == .normalize }
    }
}

/// An action a flag does not permit, e.g. `delimiter_garbage: allow`.
public struct StrictnessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The flag.
    public var flag: StrictFlag
    /// The refused action.
    public var action: StrictAction

    /// - Parameters:
    ///   - flag: the flag.
    ///   - action: the refused action.
    public init(flag: StrictFlag, action: StrictAction) {
        self.flag = flag
        self.action = action
    }

    public var description: String {
        let allowed = flag.permittedActions.map(\.rawValue).sorted().joined(separator: ", ")
        return "strict flag '\(flag.rawValue)' does not allow '\(action.rawValue)' (allowed: \(allowed))"
    }
}
