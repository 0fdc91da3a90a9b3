#ifndef PARTGATE_C_DELIMITER_SCAN_H
#define PARTGATE_C_DELIMITER_SCAN_H

#include <stddef.h>
#include <stdint.h>

/// The first index i in [0, count - length] at which the `length` bytes of `pattern` occur in `bytes`, or -1 when
/// they occur nowhere in `bytes` in full. `length` must be at least 2.
///
/// On x86-64 it compares the pattern's first and last bytes against 32 (AVX2) or 16 (SSE2) positions at a time
/// and checks the whole pattern only where both match; elsewhere it falls back to `memchr` on the first byte.
ptrdiff_t partgate_find_pattern(const uint8_t *bytes, size_t count, const uint8_t *pattern, size_t length);

/// ``partgate_find_pattern`` with the instruction set chosen: 0 `memchr` only, 1 SSE2, 2 AVX2 (each falls back
/// to the one below where the CPU lacks it). For tests, which run every variant on every machine they can.
ptrdiff_t partgate_find_pattern_using(const uint8_t *bytes, size_t count, const uint8_t *pattern, size_t length,
                                      int level);

#endif
