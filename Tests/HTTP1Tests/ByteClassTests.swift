import Testing

@testable import HTTP1

@Suite struct ByteClassTests {
    /// The 128-bit tchar set against RFC 9110 §5.6.2's list, for all 256 byte values.
    @Test func tcharSetMatchesTheRFCList() {
        let tchars = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for value in 0...255 {
            let byte = UInt8(value)
            #expect(ByteClass.isTChar(byte) == tchars.contains(byte), "byte \(value)")
        }
    }
}
