/// Random version-4 UUIDs in lower case (`{uuid}` in rename templates), from the system CSPRNG.
public enum RandomUUID {
    /// A fresh UUID such as `0f8fad5b-d9cb-469f-a165-70867728950e`.
    @Sendable public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in stride(from: 0, to: 16, by: 8) {
            withUnsafeBytes(of: generator.next() as UInt64) { random in
                for offset in 0..<8 { bytes[index + offset] = random[offset] }
            }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.hexString
        var text = ""
        text.reserveCapacity(36)
        for (index, character) in hex.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append("-") }
            text.append(character)
        }
        return text
    }
}
