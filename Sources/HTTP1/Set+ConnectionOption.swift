extension Set<String> {
    /// Whether the lowercased Connection options hold `option`. Most messages carry none or one (`keep-alive`,
    /// `close`): those are answered by one string comparison, not by hashing `option` (~150 instructions).
    @inline(__always)
    public func holdsConnectionOption(_ option: String) -> Bool {
        switch count {
        case 0: return false
        case 1: return first! == option
        default: return contains(option)
        }
    }
}
