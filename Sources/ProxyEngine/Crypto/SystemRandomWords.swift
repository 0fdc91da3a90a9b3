import CEventTLS
import Multipart

/// Two 64-bit words from the kernel CSPRNG in one `getrandom` call, served as a `RandomNumberGenerator`.
/// A fresh boundary needs 128 bits, and `SystemRandomNumberGenerator` makes one system call per word; past
/// its two words, or if `getrandom` failed, this one falls back to `SystemRandomNumberGenerator`.
struct SystemRandomWords: RandomNumberGenerator {
    private var words: (UInt64, UInt64) = (0, 0)
    private var available = 0
    private var fallback = SystemRandomNumberGenerator()

    init() {
        let filled = withUnsafeMutableBytes(of: &words) { cshim_fill_random($0.baseAddress, $0.count) == 0 }
        available = filled ? 2 : 0
    }

    mutating func next() -> UInt64 {
        switch available {
        case 2:
            available = 1
            return words.0
        case 1:
            available = 0
            return words.1
        default:
            return fallback.next()
        }
    }
}

extension Boundary {
    /// A fresh boundary from one `getrandom` call (``Boundary/random()`` makes two).
    package static func fresh() -> Boundary {
        var generator = SystemRandomWords()
        return random(using: &generator)
    }
}
