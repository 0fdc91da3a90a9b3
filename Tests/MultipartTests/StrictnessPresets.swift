import Multipart

extension Strictness {
    /// Every flag set to reject: canonical output must pass even this.
    static let rejectingEverything: Strictness = {
        var strictness = Strictness()
        for flag in StrictFlag.allCases { try! strictness.setAction(.reject, for: flag) }
        return strictness
    }()
}
