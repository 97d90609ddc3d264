#ifndef LNOTE_VARINT_END_H
#define LNOTE_VARINT_END_H
#include <stddef.h>
#include <stdint.h>
/// The end of `need` varints at `p` when they are plain (Spec/format.md E-006, the load-time
/// check of a deferred stroke's points): the offset just past the `need`-th byte < 0x80 of the
/// `n` bytes, provided no group of 4 bytes >= 0x80 starting at a multiple of 4 comes before it.
/// Returns 0 otherwise: when the bytes end first, when a run of 10 or more bytes >= 0x80 (a
/// varint longer than G-003 allows) comes first, and also for some legal varints of 5 or more
/// bytes (never in real strokes); the caller then finds the exact end or error byte by byte.
/// Reads only `p[0 ..< n]`; `need` 0 returns 0.
size_t lnote_varint_end(const uint8_t *p, size_t n, size_t need);
/// The same with one variant, so tests check each where the CPU has it: 0 the portable one
/// (8-byte words, a multiply each; what arm64 runs), on x86-64 1 SSE2 with `popcnt`, 2 SSE2
/// alone, 3 AVX2 (what `lnote_varint_end` takes when the CPU and OS allow); a variant the CPU
/// lacks runs the portable one. A test hook.
size_t lnote_varint_end_variant(const uint8_t *p, size_t n, size_t need, int variant);
#endif
