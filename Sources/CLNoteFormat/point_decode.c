// The bulk loop of the point decoder (Spec/format.md E-001 ... E-003): decodes the points of a
// stroke while each one is "plain" and leaves every other point to the Swift decoder, which
// applies each rule in the reference order (so errors, reason and offset, stay exact).
//
// A point is plain when each of its 5 (7) fields is a minimal varint of 1 to 3 bytes, every
// sum stays in its range of section 6.1 and time does not decrease. Such a point is decoded
// exactly as the reference decoder would; at the first point that is not plain (a longer or
// non-minimal varint, a value out of range, a decreasing time, or the end of the buffer) the
// loop stops before it and reports how far it got.
//
// Speed: almost all the points of real handwriting have five one-byte fields.
// `block` takes up to 32 of them at once: in one pass over their 160 (224) bytes, 16 at a
// time, the zigzag (G-005) of every byte into a stack buffer and the first byte >= 0x80
// (`pmovmskb` on x86-64), which bounds the leading points of one-byte fields; one range proof for the block (x, y and time cannot leave their ranges in 32 points
// of deltas in -64 ... 63 from the current state); then per point, in two vectors of four
// int32 lanes, two sign-extending loads, four adds, three ORs that collect the checks of
// radius, pressure, angles and time's velocity, and two shuffled stores (about 21
// instructions a point with SSE4.1, against about 40 for the one-point path). A block whose
// checks fail is dropped whole and `step` takes its points one at a time with every check,
// so the result and the stopping point are exact. `step` also takes points with fields of 2
// or 3 bytes: the continuation bits of 24 (32) bytes gathered into a mask with one multiply
// per word; each field's end is the next clear bit and its value the 7-bit groups of one
// unaligned load.
// The last 160 (224) bytes of a stroke are copied into a stack buffer padded with 0x80 so the
// same loops run to the end with every load in bounds; a 0x80 byte never ends a varint, so no
// point is taken past the real end. (The AVX-512 build copies only the last 23: its loop reads
// the end with masked loads that give 0x80 past it.)
// The vector code is clang's portable vector extensions: NEON on arm64; on x86-64 it is built
// twice, for SSE4.1 + SSSE3 and for AVX2, and CPUID picks one at first use (a CPU with
// neither, none made since about 2013, decodes in the Swift loop). The AVX2 build keeps the
// running values in one vector of eight lanes (`block8`)
// and, for strokes without angles, takes points of 1- and 2-byte fields in the same block
// (`lnote_points_block8v` in point_decode_avx2.c: per point a 16-byte load, its continuation
// bits, and for a point with 2-byte fields a shuffle from a table of the 32 layouts), so those
// points no longer end a block: 20-30% less CPU than the SSE4.1 build on the bench's handwriting.
// With AVX-512 (VL, BW, VBMI) the blocks follow one another inside one call
// (`lnote_points_span512`), the running values kept in their vectors between blocks.
// The sums need no overflow checks: between points |x|, |y| < 2^31, |vx|, |vy| < 2^32,
// 0 <= t, vt < 2^32 and a 3-byte delta is below 2^20 in magnitude.
#include "lnote_format.h"
#include "cpu_features.h"
#include "point_decode_internal.h"

#include <string.h>

#if defined(__x86_64__)
#  include <immintrin.h>
#endif

#define INLINE static inline __attribute__((always_inline))

/// How far x, y or time can move from where the velocity alone takes them in BLOCK points of
/// one-byte deltas (64 * BLOCK * (BLOCK + 1) / 2).
enum { REACH = 64 * BLOCK * (BLOCK + 1) / 2 };

typedef int32_t i32x4 __attribute__((vector_size(16)));
typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef int8_t i8x4 __attribute__((vector_size(4)));
typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef uint8_t u8x8 __attribute__((vector_size(8)));

INLINE uint64_t load64(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

INLINE uint64_t high_bits(uint64_t w) {
    uint64_t lanes = (w >> 7) & 0x0101010101010101ULL;
    return (lanes * 0x0102040810204080ULL) >> 56;
}

/// Bit i set when byte i of `v` is >= 0x80 (one `pmovmskb` on x86-64; on other targets the
/// 8-byte halves' high bits gathered by one multiply each).
INLINE uint64_t high_mask16(u8x16 v) {
#if defined(__SSE2__)
    return (uint64_t)(uint32_t)_mm_movemask_epi8((__m128i)v);
#else
    typedef uint64_t u64x2 __attribute__((vector_size(16)));
    u64x2 w = (u64x2)v;
#  if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w[0] = __builtin_bswap64(w[0]);
    w[1] = __builtin_bswap64(w[1]);
#  endif
    return high_bits(w[0]) | high_bits(w[1]) << 8;
#endif
}

INLINE int64_t unzigzag(uint64_t u) {
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

INLINE void store(lnote_point_out *o, int64_t x, int64_t y, int64_t r, int64_t pr, int64_t t, int64_t az, int64_t al) {
    lnote_point_out v;
    v.x = (int32_t)x;
    v.y = (int32_t)y;
    v.radius = (uint16_t)r;
    v.pressure = (uint16_t)pr;
    v.time = (uint32_t)t;
    v.azimuth = (uint16_t)az;
    v.altitude = (uint16_t)al;
    memcpy(o, &v, sizeof v);
}

/// The zigzag (G-005) of the bytes of up to `n` (<= BLOCK) points at `p` into `zz`, and how many
/// leading points have fields that are all one-byte varints (0 when the first has not). Reads
/// p[0 ..< BLOCK * F]; writes zz[0 ..< chunks + 1] (the last chunk zeroed: a point's loads read
/// 3 bytes past it).
INLINE size_t zigzag_run(const uint8_t *p, size_t n, const int F, u8x16 *zz) {
    // The chunks of 16 bytes the n points' loads touch (a point's second load reads 3 bytes
    // past it), at most the BLOCK points' bytes: 10 chunks (14 with angles).
    int chunks = (int)((n * (size_t)F + 3 + 15) / 16);
    if (chunks > BLOCK * F / 16) chunks = BLOCK * F / 16;
    size_t k = n;
    // One pass, 16 bytes at a time: the zigzag (G-005) of every byte, each byte below 0x80
    // becoming its value as int8 (bytes >= 0x80 give garbage no point reads), and the first
    // byte >= 0x80, which ends the run of one-byte points. A stroke of multi-byte deltas (wide
    // strokes) stops at its first chunk.
    int j = 0;
    while (j < chunks) {
        u8x16 v;
        memcpy(&v, p + 16 * j, 16);
        zz[j] = (v >> 1) ^ (u8x16)(-(v & 1));
        uint64_t h = high_mask16(v);
        j++;
        if (h) {
            size_t first = 16 * (size_t)(j - 1) + (size_t)__builtin_ctzll(h);
            if (first / (size_t)F < k) k = first / (size_t)F;
            break;
        }
    }
    if (k == 0) return 0;
    memset(&zz[j], 0, sizeof zz[j]);
    return k;
}

/// The range proof of a block: after j <= BLOCK points of deltas in -64 ... 63, x is within
/// 64 * j(j+1)/2 <= REACH of x + j vx, which lies between x and x + BLOCK vx; the same for y,
/// and time (vt >= 0, checked per point) is at most t + BLOCK vt + REACH. It also keeps |vx|,
/// |vy|, vt below 2^28, so every lane fits int32.
INLINE int block_in_range(const dstate *s) {
    const int64_t lo = INT32_MIN + REACH, span = (int64_t)INT32_MAX - REACH - lo;
    uint64_t pre = (uint64_t)(s->x - lo) | (uint64_t)(s->x + BLOCK * s->vx - lo) | (uint64_t)(s->y - lo) |
                   (uint64_t)(s->y + BLOCK * s->vy - lo);
    return pre <= (uint64_t)span && s->t + BLOCK * s->vt + REACH <= 0xFFFFFFFFLL;
}

/// Decodes up to `n` (<= BLOCK) points at `p` whose fields are all one-byte varints into `o`;
/// returns how many (0 when the first is not such a point, or when the block's range proof or
/// checks fail: `step` then takes the points one by one). Reads p[0 ..< BLOCK * fields].
///
/// The running values live in two vectors of four int32 lanes: A = x, y, radius, pressure
/// and B = time, azimuth, altitude, 0, with the velocities of the second-order lanes (x, y,
/// time) beside them. A point is two sign-extending loads of its zigzagged deltas, four adds
/// (velocities kept or dropped per lane by a mask), three ORs for the checks and two
/// shuffles and stores. The lanes cannot wrap: the range proof bounds x, y and time, and
/// radius, pressure and angles move by at most 64 * BLOCK from values below 2^16.
INLINE size_t block(const uint8_t *p, size_t n, dstate *s, lnote_point_out *o, const int angles) {
    const int F = angles ? 7 : 5;
    // One spare chunk: the last point's second load reads 3 bytes past it (masked off).
    u8x16 zz[BLOCK * 7 / 16 + 1];
    size_t k = zigzag_run(p, n, F, zz);
    if (k == 0 || !block_in_range(s)) return 0;
    const int8_t *d = (const int8_t *)zz;
    i32x4 pa = {(int32_t)s->x, (int32_t)s->y, (int32_t)s->r, (int32_t)s->pr};
    i32x4 va = {(int32_t)s->vx, (int32_t)s->vy, 0, 0};
    // Time may pass 2^31: B's lanes are unsigned, so its sums wrap where int32 ones would overflow.
    u32x4 pb = {(uint32_t)s->t, (uint32_t)s->az, (uint32_t)s->al, 0};
    u32x4 vb = {(uint32_t)s->vt, 0, 0, 0};
    const i32x4 keep_a = {-1, -1, 0, 0};
    const u32x4 keep_b = {~0u, 0, 0, 0};
    const u32x4 mask_b = {~0u, angles ? ~0u : 0, angles ? ~0u : 0, 0};
    i32x4 acc_a = {0, 0, 0, 0};
    u32x4 acc_b = {0, 0, 0, 0}, acc_v = acc_b;
    for (size_t i = 0; i < k; i++, d += F) {
        i8x4 da, db;
        memcpy(&da, d, 4);
        memcpy(&db, d + 4, 4);
        va = (va & keep_a) + __builtin_convertvector(da, i32x4);
        pa += va;
        vb = (vb & keep_b) + ((u32x4) __builtin_convertvector(db, i32x4) & mask_b);
        pb += vb;
        acc_a |= pa;
        acc_b |= pb;
        acc_v |= vb;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        store(o + i, pa[0], pa[1], pa[2], pa[3], pb[0], pb[1], pb[2]);
#else
        // x y radius pressure (12 bytes, 4 more the next store covers), time azimuth altitude.
        u8x16 xyrp =
            __builtin_shufflevector((u8x16)pa, (u8x16)pa, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 12, 13, 14, 15);
        u8x8 taa = __builtin_shufflevector((u8x16)pb, (u8x16)pb, 0, 1, 2, 3, 4, 5, 8, 9);
        memcpy((uint8_t *)(o + i), &xyrp, 16);
        memcpy((uint8_t *)(o + i) + 12, &taa, 8);
#endif
    }
    // Radius, pressure and angles in [0, 2^16); time's velocity not negative.
    uint32_t bad = ((uint32_t)acc_a[2] | (uint32_t)acc_a[3] | acc_b[1] | acc_b[2]) >> 16;
    if (bad | (acc_v[0] >> 31)) return 0;
    s->x = pa[0];
    s->y = pa[1];
    s->vx = va[0];
    s->vy = va[1];
    s->r = pa[2];
    s->pr = pa[3];
    s->t = pb[0];
    s->vt = vb[0];
    s->az = pb[1];
    s->al = pb[2];
    return k;
}

typedef uint32_t u32x8 __attribute__((vector_size(32)));
typedef int32_t i32x8 __attribute__((vector_size(32)));
typedef int8_t i8x8 __attribute__((vector_size(8)));
typedef uint8_t u8x32 __attribute__((vector_size(32)));

/// `block` with every running value in one vector of eight 32-bit lanes (AVX2 builds only):
/// P = x, y, radius, pressure, time, azimuth, altitude, - and V = the velocities of x, y and
/// time in their lanes, 0 elsewhere. A point is one sign-extending load of its 8 zigzagged
/// bytes (lanes past its fields take the next point's: they are never stored or checked), an
/// AND and three adds (P += V + d, V += d's second-order lanes), two ORs for the checks and
/// one in-lane shuffle to the 20-byte layout in two stores of 16 bytes (the last 8 land on the
/// next point's slot, written after): about 12 instructions a point. Only the point that may be
/// the last of the slot (`left` points of room) stores exactly its 20 bytes. Same results as `block`; lanes are
/// unsigned, so nothing overflows.
INLINE size_t block8(const uint8_t *p, size_t n, size_t left, dstate *s, lnote_point_out *o, const int angles) {
    const int F = angles ? 7 : 5;
    u8x16 zz[BLOCK * 7 / 16 + 1];
    size_t k = zigzag_run(p, n, F, zz);
    if (k == 0 || !block_in_range(s)) return 0;
    const uint8_t *d = (const uint8_t *)zz;
    u32x8 P = {(uint32_t)s->x, (uint32_t)s->y,  (uint32_t)s->r,  (uint32_t)s->pr,
               (uint32_t)s->t, (uint32_t)s->az, (uint32_t)s->al, 0};
    u32x8 V = {(uint32_t)s->vx, (uint32_t)s->vy, 0, 0, (uint32_t)s->vt, 0, 0, 0};
    const u32x8 keep = {~0u, ~0u, 0, 0, ~0u, 0, 0, 0};
    const u8x32 zero = {0};
    u32x8 acc = {0}, accv = acc;
    const size_t wide = k == left ? k - 1 : k; // points whose 32-byte store stays in the slot
    for (size_t i = 0; i < k; i++, d += F) {
        i8x8 raw;
        memcpy(&raw, d, 8);
        u32x8 dv = (u32x8) __builtin_convertvector(raw, i32x8);
        u32x8 t = V + dv;
        V += dv & keep;
        P += t;
        acc |= P;
        accv |= V;
        // In each 16-byte half (one in-lane byte shuffle): x y radius pressure (bytes 0-9, 12-13)
        // and time azimuth altitude (16-19, 20-21, 24-25), stored at 0 and 12 (the second
        // store overwrites the first's 4 spare bytes).
        u8x32 q = angles ? __builtin_shufflevector((u8x32)P, zero, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, -1, -1, -1, -1,
                                                   16, 17, 18, 19, 20, 21, 24, 25, -1, -1, -1, -1, -1, -1, -1, -1)
                         : __builtin_shufflevector((u8x32)P, zero, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, -1, -1, -1, -1,
                                                   16, 17, 18, 19, 48, 48, 48, 48, -1, -1, -1, -1, -1, -1, -1, -1);
        uint8_t *at = (uint8_t *)(o + i);
        memcpy(at, &q, 16);
        if (__builtin_expect(i < wide, 1))
            memcpy(at + 12, (const uint8_t *)&q + 16, 16);
        else
            memcpy(at + 12, (const uint8_t *)&q + 16, 8);
    }
    // Radius, pressure and angles in [0, 2^16); time's velocity not negative.
    uint32_t bad = (acc[2] | acc[3] | (angles ? acc[5] | acc[6] : 0)) >> 16;
    if (bad | (accv[4] >> 31)) return 0;
    s->x = (int32_t)P[0];
    s->y = (int32_t)P[1];
    s->vx = (int32_t)V[0];
    s->vy = (int32_t)V[1];
    s->r = P[2];
    s->pr = P[3];
    s->t = P[4];
    s->vt = V[4];
    s->az = angles ? P[5] : 0;
    s->al = angles ? P[6] : 0;
    return k;
}

/// Decodes one plain point at `p` (fields: minimal varints of 1 to 3 bytes, values in range,
/// time not decreasing) into `o`; returns its length, or 0 (nothing changed) for any other
/// point. Reads p[0 ..< 24] (32 with angles).
INLINE size_t step(const uint8_t *p, dstate *s, lnote_point_out *o, const int angles) {
    const int fields = angles ? 7 : 5;
    uint64_t m = high_bits(load64(p)) | high_bits(load64(p + 8)) << 8 | high_bits(load64(p + 16)) << 16;
    if (angles) m |= high_bits(load64(p + 24)) << 24;
    uint64_t term = ~m;
    size_t st = 0;
    int64_t d[7] = {0};
    for (int k = 0; k < fields; k++) {
        size_t e = (size_t)__builtin_ctzll(term);
        term &= term - 1;
        size_t l = e + 1 - st;
        if (l > 3) return 0;
        uint64_t v = load64(p + st);
        uint64_t u = (v & 0x7F) | ((v >> 1) & 0x3F80) | ((v >> 2) & 0x1FC000);
        u &= (1ULL << (7 * l)) - 1;
        if (l > 1 && u < (1ULL << (7 * (l - 1)))) return 0;
        d[k] = unzigzag(u);
        st = e + 1;
    }
    int64_t nx = s->x + s->vx + d[0], ny = s->y + s->vy + d[1];
    int64_t nr = s->r + d[2], np = s->pr + d[3];
    int64_t nvt = s->vt + d[4], nt = s->t + nvt;
    int64_t na = s->az + d[5], nb = s->al + d[6];
    uint64_t bad = ((uint64_t)(nx + 0x80000000LL) | (uint64_t)(ny + 0x80000000LL) | (uint64_t)nvt | (uint64_t)nt) >> 32;
    bad |= ((uint64_t)nr | (uint64_t)np | (uint64_t)na | (uint64_t)nb) >> 16;
    if (bad) return 0;
    s->vx = nx - s->x;
    s->vy = ny - s->y;
    s->vt = nvt;
    s->x = nx;
    s->y = ny;
    s->r = nr;
    s->pr = np;
    s->t = nt;
    s->az = na;
    s->al = nb;
    store(o, nx, ny, nr, np, nt, na, nb);
    return st;
}

/// Decodes plain points while one starts at or before `pmax` (every load of `block` and `step`
/// from there must be in bounds; `lnote_points_span512` reads up to `pend`) and points remain.
/// Returns 0 when it stopped before a point that is not plain, 1 when it ran out of points or
/// of room.
INLINE int phase(const uint8_t **p_io, const uint8_t *pmax, const uint8_t *pend, lnote_point_out **o_io,
                 lnote_point_out *o_end, dstate *s, const int angles, const int wide) {
    const size_t F = angles ? 7 : 5;
    const uint8_t *p = *p_io;
    lnote_point_out *o = *o_io;
    int more = 1;
    while (o < o_end && p <= pmax) {
        size_t left = (size_t)(o_end - o);
        size_t n = left < BLOCK ? left : BLOCK;
        size_t k, used;
        if (wide != 3 || angles) prefetch_block_out(o); // the span prefetches block by block
#if defined(__x86_64__)
        if (wide == 3 && !angles) {
            n = left; // every point left, block after block, up to pend
            k = lnote_points_span512(p, pend, n, left, s, o, &used);
        } else if (wide == 2 && !angles) {
            k = lnote_points_block8v(p, n, left, s, o, &used);
        } else
#endif
        {
            k = wide ? block8(p, n, left, s, o, angles) : block(p, n, s, o, angles);
            used = k * F;
        }
        p += used;
        o += k;
        if (k == n) continue;
        if (p > pmax) break;
        size_t len = step(p, s, o, angles);
        if (len == 0) {
            more = 0;
            break;
        }
        p += len;
        o++;
    }
    *p_io = p;
    *o_io = o;
    return more;
}

INLINE size_t run(const uint8_t *base, size_t end, size_t *pos_io, lnote_point_out *out, size_t count,
                  lnote_point_acc *a, const int angles, const int wide) {
    // Bytes a block reads (a step reads fewer); the AVX-512 span reads only up to the end, so
    // there the bytes of a step.
#if defined(__x86_64__)
    const size_t safe = wide == 3 && !angles   ? 24
                        : wide == 2 && !angles ? LNOTE_BLOCK8V_READS
                                               : BLOCK * (angles ? 7 : 5);
#else
    const size_t safe = BLOCK * (angles ? 7 : 5);
#endif
    size_t pos = *pos_io;
    if (pos > end || count == 0) return 0;
    dstate s = {a->x,
                a->y,
                a->vx,
                a->vy,
                a->radius,
                a->pressure,
                a->time,
                a->vt,
                angles ? a->azimuth : 0,
                angles ? a->altitude : 0};
    const uint8_t *p = base + pos;
    lnote_point_out *o = out;
    lnote_point_out *const o_end = out + count;
    int more = 1;
    if (end - pos >= safe) more = phase(&p, base + end - safe, base + end, &o, o_end, &s, angles, wide);
    if (more && o < o_end && p < base + end) {
        // A point may start at buf[rem - 1] at most and a block reads `safe` bytes from there.
        uint8_t buf[2 * (BLOCK * 10 + 16)];
        size_t rem = (size_t)(base + end - p); // below `safe`
        memcpy(buf, p, rem);
        memset(buf + rem, 0x80, safe);
        const uint8_t *q = buf;
        phase(&q, buf + rem - 1, buf + rem + safe, &o, o_end, &s, angles, wide);
        p += q - buf;
    }
    a->x = s.x;
    a->y = s.y;
    a->vx = s.vx;
    a->vy = s.vy;
    a->time = s.t;
    a->vt = s.vt;
    a->radius = s.r;
    a->pressure = s.pr;
    if (angles) {
        a->azimuth = s.az;
        a->altitude = s.al;
    }
    *pos_io = (size_t)(p - base);
    return (size_t)(o - out);
}

#if !defined(__x86_64__)
/// The loops compiled for the target's baseline (NEON on arm64). On x86-64 there is no
/// baseline build: a CPU without SSE4.1 and SSSE3 (none made since about 2013) decodes in the
/// Swift loop, and the 10 KB an SSE2 build took stay out of every app's binary.
static size_t run_base(const uint8_t *base, size_t end, size_t *pos, void *out, size_t count, int has_angles,
                       lnote_point_acc *acc) {
    if (has_angles) return run(base, end, pos, (lnote_point_out *)out, count, acc, 1, 0);
    return run(base, end, pos, (lnote_point_out *)out, count, acc, 0, 0);
}
#endif

#if defined(__x86_64__)
/// The same loops with SSE4.1 and SSSE3 (`pmovsxbd` for the sign extension, `pshufb` for
/// the stores): about 20% faster than SSE2 alone. Chosen at run time through CPUID, so the
/// package needs no unsafeFlags and runs on every x86-64 CPU.
__attribute__((target("sse4.1,ssse3"))) static size_t run_sse41(const uint8_t *base, size_t end, size_t *pos, void *out,
                                                                size_t count, int has_angles, lnote_point_acc *acc) {
    if (has_angles) return run(base, end, pos, (lnote_point_out *)out, count, acc, 1, 0);
    return run(base, end, pos, (lnote_point_out *)out, count, acc, 0, 0);
}

/// The same loops with `block8` (AVX2): one vector of eight lanes a point instead of two of
/// four, about half the instructions of the SSE4.1 block. Chosen through CPUID (and XGETBV).
/// Strokes without angles take `lnote_points_block8v`, or with `avx512` (and the CPU's
/// AVX-512 VL, BW and VBMI) `lnote_points_span512`.
__attribute__((target("avx2"))) static size_t run_avx2(const uint8_t *base, size_t end, size_t *pos, void *out,
                                                       size_t count, int has_angles, lnote_point_acc *acc, int avx512) {
    if (has_angles) return run(base, end, pos, (lnote_point_out *)out, count, acc, 1, 1);
    if (lnote_point_tables_ready()) {
        if (avx512 && lnote_cpu_has_avx512vbmi()) return run(base, end, pos, (lnote_point_out *)out, count, acc, 0, 3);
        return run(base, end, pos, (lnote_point_out *)out, count, acc, 0, 2);
    }
    return run(base, end, pos, (lnote_point_out *)out, count, acc, 0, 1);
}
#endif

size_t lnote_points_decode_plain(const uint8_t *base, size_t end, size_t *pos, void *out, size_t count, int has_angles,
                                 lnote_point_acc *acc) {
#if defined(__x86_64__)
    if (lnote_cpu_has_avx2()) return run_avx2(base, end, pos, out, count, has_angles, acc, 1);
#endif
    return lnote_points_decode_plain_narrow(base, end, pos, out, count, has_angles, acc);
}

size_t lnote_points_decode_plain_avx2(const uint8_t *base, size_t end, size_t *pos, void *out, size_t count,
                                      int has_angles, lnote_point_acc *acc) {
#if defined(__x86_64__)
    if (lnote_cpu_has_avx2()) return run_avx2(base, end, pos, out, count, has_angles, acc, 0);
#endif
    return lnote_points_decode_plain_narrow(base, end, pos, out, count, has_angles, acc);
}

size_t lnote_points_decode_plain_narrow(const uint8_t *base, size_t end, size_t *pos, void *out, size_t count,
                                        int has_angles, lnote_point_acc *acc) {
#if defined(__x86_64__)
    if (lnote_cpu_has_sse41_ssse3()) return run_sse41(base, end, pos, out, count, has_angles, acc);
    return 0; // no point decoded: the Swift loop takes them
#else
    return run_base(base, end, pos, out, count, has_angles, acc);
#endif
}

size_t lnote_points_decode_plain_baseline(const uint8_t *base, size_t end, size_t *pos, void *out, size_t count,
                                          int has_angles, lnote_point_acc *acc) {
#if defined(__x86_64__)
    return lnote_points_decode_plain_narrow(base, end, pos, out, count, has_angles, acc);
#else
    return run_base(base, end, pos, out, count, has_angles, acc);
#endif
}

/// One varint of point 0 at `p[*at ..< len]`, of at most 5 bytes and minimal (G-003); 0 (and
/// nothing moved) for any other.
INLINE int first_field(const uint8_t *p, size_t len, size_t *at, uint64_t *value) {
    uint64_t v = 0;
    size_t i = *at;
    for (unsigned shift = 0; shift < 35; shift += 7) {
        if (i >= len) return 0;
        uint8_t b = p[i++];
        v |= (uint64_t)(b & 0x7F) << shift;
        if (b < 0x80) {
            if (b == 0 && shift > 0) return 0; // not minimal
            *value = v;
            *at = i;
            return 1;
        }
    }
    return 0;
}

int lnote_points_decode_stroke(const uint8_t *p, size_t len, size_t count, int has_angles, void *out) {
    if (p == NULL || count == 0 || count > len / 5) return 0;
    uint64_t f[7] = {0};
    const int fields = has_angles ? 7 : 5;
    size_t at = 0;
    for (int k = 0; k < fields; k++) {
        if (!first_field(p, len, &at, &f[k])) return 0;
    }
    // Point 0 (E-001): x and y as zigzag varints, the rest plain; its ranges and time 0 (E-002,
    // E-003).
    int64_t x = unzigzag(f[0]), y = unzigzag(f[1]);
    uint64_t bad = ((uint64_t)(x + 0x80000000LL) | (uint64_t)(y + 0x80000000LL)) >> 32;
    bad |= (f[2] | f[3] | f[5] | f[6]) >> 16;
    if (bad || f[4] != 0) return 0;
    lnote_point_out *o = (lnote_point_out *)out;
    store(o, x, y, (int64_t)f[2], (int64_t)f[3], 0, (int64_t)f[5], (int64_t)f[6]);
    if (count == 1) return at == len;
    lnote_point_acc acc = {x, y, 0, 0, (int64_t)f[2], (int64_t)f[3], 0, 0, (int64_t)f[5], (int64_t)f[6]};
    size_t k = lnote_points_decode_plain(p, len, &at, o + 1, count - 1, has_angles, &acc);
    return k == count - 1 && at == len;
}
