// The point decoder's C loop, shared between point_decode.c (the loop and its 128-bit blocks)
// and point_decode_avx2.c (the AVX2 block of 1- and 2-byte fields). Private to CLNoteFormat.
#ifndef LNOTE_POINT_DECODE_INTERNAL_H
#define LNOTE_POINT_DECODE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/// One decoded point, the layout of Swift's `Point` (checked by `PointBulkDecode.layoutMatches`).
typedef struct {
    int32_t x, y;
    uint16_t radius, pressure;
    uint32_t time;
    uint16_t azimuth, altitude;
} lnote_point_out;

_Static_assert(sizeof(lnote_point_out) == 20, "Point is 20 bytes");

/// The decoder's running values (E-001) while inside the C loop.
typedef struct {
    int64_t x, y, vx, vy, r, pr, t, vt, az, al;
} dstate;

/// Points a block takes at most.
enum { BLOCK = 32 };

/// Takes the output of the block four blocks after `o` for writing now (a block's 640 bytes,
/// 2.5 KB ahead): a page's points are several MB that no cache holds, and each store that
/// misses waits for its line. A hint (`prefetchw`, or a read prefetch where the target lacks
/// it; `prfm pstl1keep` on arm64): never a fault, also past the output's end, where the
/// address is only computed. It shortens an open ready to draw with cold caches
/// (docs/benchmarks.md, the open suite).
static inline __attribute__((always_inline)) void prefetch_block_out(const lnote_point_out *o) {
    uintptr_t ahead = (uintptr_t)o + 4 * BLOCK * sizeof *o;
    for (int line = 0; line < 10; line++) __builtin_prefetch((const void *)(ahead + (uintptr_t)line * 64), 1, 3);
}

#if defined(__x86_64__)
/// 1 when `lnote_points_block8v`'s tables are built (the first caller builds them; a caller
/// that finds them being built gets 0 and decodes without them).
int lnote_point_tables_ready(void);

/// Decodes up to `n` (<= BLOCK) points without angles at `p` whose fields are varints of 1 or 2
/// bytes into `o` (`left` points of room); returns how many and their bytes in `*used` (0 when
/// the block's proof or checks fail). Reads p[0 ..< LNOTE_BLOCK8V_READS]. Needs AVX2 and the
/// tables (`lnote_point_tables_ready`).
size_t lnote_points_block8v(const uint8_t *p, size_t n, size_t left, dstate *s, lnote_point_out *o, size_t *used);

/// Points without angles at `p` whose fields are varints of 1 or 2 bytes, as many of the `n`
/// (<= `left`, the room at `o`) as blocks of them pass, decoded as `lnote_points_block8v`
/// decodes each block, one block after another: returns how many and their bytes in `*used`,
/// stopping before a field of 3 bytes or more, before a block whose range proof or checks
/// fail, or at `pend`. Reads only p[0 ..< pend - p] (masked loads at the end). Needs AVX-512
/// VL, BW and VBMI (`lnote_cpu_has_avx512vbmi`) and the tables.
size_t lnote_points_span512(const uint8_t *p, const uint8_t *pend, size_t n, size_t left, dstate *s, lnote_point_out *o,
                            size_t *used);

/// The bytes `lnote_points_block8v` reads from its start.
enum { LNOTE_BLOCK8V_READS = BLOCK * 10 + 16 };
#endif

#endif
