import CEventTLS
import Multipart

/// 64-bit words from the kernel CSPRNG, fetched `batch` at a time with one `getrandom` call and served as a
/// `RandomNumberGenerator`.
///
/// A fresh boundary needs 128 bits, and `SystemRandomNumberGenerator` makes one system call per word. Each
/// worker keeps one generator with a batch of 64 words, so 32 requests share a `getrandom` call. A served word
/// is zeroed in the buffer, so no past boundary can be read back from memory. If `getrandom` fails, the word
/// comes from `SystemRandomNumberGenerator` and the next call tries to refill again.
struct SystemRandomWords: RandomNumberGenerator {
    private var words: [UInt64]
    private var index: Int
    private var fallback = SystemRandomNumberGenerator()

    /// A generator that fetches `batch` words per system call (at least 1), on first use.
    init(batch: Int = 2) {
        words = [UInt64](repeating: 0, count: max(batch, 1))
        index = words.count
    }

    mutating func next() -> UInt64 {
        if index == words.count {
            let filled = words.withUnsafeMutableBytes { cshim_fill_random($0.baseAddress, $0.count) == 0 }
            guard filled else { return fallback.next() }
            index = 0
        }
        defer {
            words[index] = 0
            index += 1
        }
        return words[index]
    }
}

extension Boundary {
    /// A fresh boundary from one `getrandom` call (``Boundary/random()`` makes two).
    package static func fresh() -> Boundary {
        var generator = SystemRandomWords()
        return random(using: &generator)
    }
}
