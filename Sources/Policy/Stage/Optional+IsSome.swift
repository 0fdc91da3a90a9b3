extension Optional {
    /// Whether a value is present, without `!= nil`: on an Equatable wrapped type that overload copies both sides
    /// into a tuple to compare them (a copy and a destroy of the whole value per test).
    @inline(__always)
    var isSome: Bool {
        if case .some = self { return true }
        return false
    }
}
