/// Two cut points inside `input` derived from its bytes (an FNV-1a hash), so the fuzzer steers where a
/// split-invariance check cuts; sorted, and empty for inputs of two bytes or fewer.
public func cutPoints(in input: UnsafeRawBufferPointer) -> [Int] {
    guard input.count > 2 else { return [] }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in input {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let first = Int(hash % UInt64(input.count))
    let second = Int((hash >> 32) % UInt64(input.count))
    return [min(first, second), max(first, second)]
}
