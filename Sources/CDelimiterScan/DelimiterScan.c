// The multipart parser's delimiter search (MultipartParser.search): where in a span the whole
// `CR LF - - boundary` pattern first occurs.
//
// glibc's memchr on the pattern's first byte stops at every CR of the data, every ~256 bytes of a binary upload,
// and each stop is a call, a mispredicted exit and a return: 9.8 % of the proxy's CPU on a 1 GiB upload. Testing
// the first and the last byte of the pattern at once (the last one is a boundary character) leaves a candidate
// about once in 65,536 positions of random data, so the loop runs through whole spans without leaving.
#include "CDelimiterScan.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/// From `from` on, with memchr on the first byte: the tail of a span, and every span where there are no vectors.
static ptrdiff_t find_scalar(const uint8_t *bytes, size_t count, const uint8_t *pattern, size_t length, size_t from) {
    size_t index = from;
    while (index + length <= count) {
        const uint8_t *hit = memchr(bytes + index, pattern[0], count - length + 1 - index);
        if (hit == NULL) return -1;
        size_t at = (size_t)(hit - bytes);
        if (bytes[at + length - 1] == pattern[length - 1] && memcmp(hit + 1, pattern + 1, length - 2) == 0) {
            return (ptrdiff_t)at;
        }
        index = at + 1;
    }
    return -1;
}

#if defined(__x86_64__)

/// The candidates in `mask` (bit b: position `at + b`), in order: the first whole match, or -1.
static inline ptrdiff_t check_candidates(uint64_t mask, const uint8_t *bytes, size_t at, const uint8_t *pattern,
                                         size_t length) {
    while (mask != 0) {
        size_t position = at + (size_t)__builtin_ctzll(mask);
        if (memcmp(bytes + position + 1, pattern + 1, length - 2) == 0) return (ptrdiff_t)position;
        mask &= mask - 1;
    }
    return -1;
}

/// The first block of 64 positions from `at` (a multiple of 64 below `stop`) with a candidate, its candidates in
/// `mask`; `stop` when there is none. Kept out of line, so that its loop contains no call: with the candidate
/// check (`memcmp`) in the same loop, the compiler kept the pattern vectors and the loop's bounds on the stack:
/// 23 instructions a block, 7 of them loads from the stack and 2 stores; 12 here, and 25-45 % more bytes per
/// second in a microbenchmark (bench/README.md, stop 45).
__attribute__((target("avx2"), noinline))
static size_t next_block_avx2(const uint8_t *bytes, size_t at, size_t stop, __m256i first, __m256i last,
                              size_t length, uint64_t *mask) {
    for (; at < stop; at += 64) {
        const uint8_t *head = bytes + at, *tail = bytes + at + length - 1;
        __m256i m0 = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)head), first),
                                      _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)tail), last));
        __m256i m1 = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(head + 32)), first),
                                      _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(tail + 32)), last));
        __m256i any = _mm256_or_si256(m0, m1);
        if (!_mm256_testz_si256(any, any)) {
            *mask = (uint64_t)(uint32_t)_mm256_movemask_epi8(m0) | (uint64_t)(uint32_t)_mm256_movemask_epi8(m1) << 32;
            return at;
        }
    }
    return stop;
}

__attribute__((target("avx2")))
static ptrdiff_t find_avx2(const uint8_t *bytes, size_t count, const uint8_t *pattern, size_t length) {
    // Positions at..at+63 are tested while their last bytes, up to at + 63 + length - 1, lie in the span: the
    // blocks that start below `stop`.
    if (count < 64 + length - 1) return find_scalar(bytes, count, pattern, length, 0);
    const size_t stop = (count - (64 + length - 1)) / 64 * 64 + 64;
    const __m256i first = _mm256_set1_epi8((char)pattern[0]);
    const __m256i last = _mm256_set1_epi8((char)pattern[length - 1]);
    size_t at = 0;
    while (at < stop) {
        uint64_t mask = 0;
        at = next_block_avx2(bytes, at, stop, first, last, length, &mask);
        if (at >= stop) break;
        ptrdiff_t found = check_candidates(mask, bytes, at, pattern, length);
        if (found >= 0) return found;
        at += 64;
    }
    return find_scalar(bytes, count, pattern, length, at);
}

static ptrdiff_t find_sse2(const uint8_t *bytes, size_t count, const uint8_t *pattern, size_t length) {
    const __m128i first = _mm_set1_epi8((char)pattern[0]);
    const __m128i last = _mm_set1_epi8((char)pattern[length - 1]);
    size_t at = 0;
    for (; at + 16 + length - 1 <= count; at += 16) {
        __m128i head = _mm_loadu_si128((const __m128i *)(bytes + at));
        __m128i tail = _mm_loadu_si128((const __m128i *)(bytes + at + length - 1));
        uint32_t mask = (uint32_t)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(head, first), _mm_cmpeq_epi8(tail, last)));
        if (mask == 0) continue;
        ptrdiff_t found = check_candidates(mask, bytes, at, pattern, length);
        if (found >= 0) return found;
    }
    return find_scalar(bytes, count, pattern, length, at);
}

#endif

/// 2 when the CPU has AVX2, else 1 (x86-64 always has SSE2); 0 elsewhere.
static int best_level(void) {
#if defined(__x86_64__)
    // Every thread that finds it unset computes the same value.
    static int level = -1;
    int known = __atomic_load_n(&level, __ATOMIC_RELAXED);
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") ? 2 : 1;
        __atomic_store_n(&level, known, __ATOMIC_RELAXED);
    }
    return known;
#else
    return 0;
#endif
}

ptrdiff_t partgate_find_pattern_using(const uint8_t *bytes, size_t count, const uint8_t *pattern, size_t length,
                                      int level) {
    if (length < 2 || count < length) return -1;
    int best = best_level();
    if (level > best) level = best;
#if defined(__x86_64__)
    if (level == 2) return find_avx2(bytes, count, pattern, length);
    if (level == 1) return find_sse2(bytes, count, pattern, length);
#endif
    return find_scalar(bytes, count, pattern, length, 0);
}

ptrdiff_t partgate_find_pattern(const uint8_t *bytes, size_t count, const uint8_t *pattern, size_t length) {
    return partgate_find_pattern_using(bytes, count, pattern, length, 2);
}
