#include "CByteCopy.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)
#include <emmintrin.h>

/* 64 bytes per iteration in four unaligned 16-byte loads and stores; the tail (under 64 bytes) is memcpy's, which
 * does not use `rep movsb` for so few. */
static void copy_sse2(uint8_t *destination, const uint8_t *source, size_t count) {
    size_t index = 0;
    for (; index + 64 <= count; index += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(source + index));
        __m128i b = _mm_loadu_si128((const __m128i *)(source + index + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(source + index + 32));
        __m128i d = _mm_loadu_si128((const __m128i *)(source + index + 48));
        _mm_storeu_si128((__m128i *)(destination + index), a);
        _mm_storeu_si128((__m128i *)(destination + index + 16), b);
        _mm_storeu_si128((__m128i *)(destination + index + 32), c);
        _mm_storeu_si128((__m128i *)(destination + index + 48), d);
    }
    memcpy(destination + index, source + index, count - index);
}
#endif

void partgate_copy_bytes_using(void *destination, const void *source, size_t count, int level) {
#if defined(__x86_64__)
    if (level >= 1) {
        copy_sse2(destination, source, count);
        return;
    }
#endif
    (void)level;
    memcpy(destination, source, count);
}

void partgate_copy_bytes(void *destination, const void *source, size_t count) {
#if defined(__x86_64__)
    /* Below 2 KiB glibc does not use `rep movsb` (its threshold is 2,112 bytes on this CPU). */
    uintptr_t distance = ((uintptr_t)destination - (uintptr_t)source) & 4095;
    if (count >= 2048 && distance != 0 && distance < 64) {
        copy_sse2(destination, source, count);
        return;
    }
#endif
    memcpy(destination, source, count);
}
