#ifndef PARTGATE_C_BYTE_COPY_H
#define PARTGATE_C_BYTE_COPY_H

#include <stddef.h>

/// Copies `count` bytes from `source` to `destination` (which must not overlap), as `memcpy` does, but never at
/// the speed of `rep movsb` with a destination 1 to 63 bytes past the source modulo 4096.
///
/// glibc (2.36 here) copies 2 KiB and more with `rep movsb` on CPUs with ERMS. On the AMD EPYC (Zen 4) benchmark
/// VM that ran at 3.5 GB/s instead of 57 when the destination lay 1 to 15 bytes past the source modulo 4096 (a
/// 4 KiB aliasing stall), and at about 41 GB/s up to 63 bytes past it. Such copies go through 16-byte SSE2 loads
/// and stores here (42–58 GB/s at every distance); all others, and every copy on other architectures, are
/// `memcpy`'s.
void partgate_copy_bytes(void *destination, const void *source, size_t count);

/// ``partgate_copy_bytes`` with the path chosen: 0 `memcpy`, 1 the SSE2 loop (`memcpy` off x86-64). For tests.
void partgate_copy_bytes_using(void *destination, const void *source, size_t count, int level);

#endif
