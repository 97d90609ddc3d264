// The bulk loop of the point encoder (Spec/format.md E-001, G-003 ... G-005): writes the points
// of a stroke while each one is "plain" and leaves every other point to the Swift encoder
// (LNoteFormat's PointEncodeLoop), which writes any point.
//
// Point i (i >= 2) is plain when every field it writes is a one-byte varint (its zigzag value
// is below 0x80) and the values it depends on (points i-2, i-1, i) are in the range where the
// 32-bit lanes below give the exact differences: x and y in [-2^29, 2^29), time below 2^30,
// radius, pressure (and the angles) below 2^15. Then its x, y and time second-order deltas lie
// in (-2^31, 2^31) and its first-order deltas of 16-bit fields in (-2^15, 2^15), so the lanes
// never wrap and the bytes written are exactly those of the reference encoder (one byte a
// field, the zigzag value). About 96% of the points of real handwriting are plain.
//
// Per point: one 16-byte load (x, y, radius|pressure, time as four 32-bit lanes; the angles as
// one more 32-bit lane), the differences with the previous point in 32-bit lanes and, for the
// lane that packs two 16-bit fields, in 16-bit lanes; the previous differences subtracted in
// the x, y and time lanes; the zigzag in both widths; one test of every byte that must be zero
// (a field of two or more bytes, or a value out of the range above); one shuffle and one 8-byte
// store of the 5 (7) bytes. No branch but the loop's and the test's.
// The vector code is clang's portable vector extensions: NEON on arm64; on x86-64 it is built
// for the SSE2 baseline and for SSE4.1 + SSSE3, and CPUID picks one at first use.
#include "ccrc32c.h"
#include "cpu_features.h"

#include <string.h>

#define INLINE static inline __attribute__((always_inline))

typedef int32_t ei32x4 __attribute__((vector_size(16)));
typedef uint32_t eu32x4 __attribute__((vector_size(16)));
typedef int16_t ei16x8 __attribute__((vector_size(16)));
typedef uint16_t eu16x8 __attribute__((vector_size(16)));
typedef uint8_t eu8x16 __attribute__((vector_size(16)));
typedef uint8_t eu8x8 __attribute__((vector_size(8)));

/// Bytes of one point in memory (x i32, y i32, radius u16, pressure u16, time u32, azimuth u16,
/// altitude u16), as `point_decode.c` writes them.
enum { POINT_BYTES = 20 };

/// The point's first 16 bytes as four 32-bit lanes: x, y, radius | pressure << 16, time.
INLINE ei32x4 load_main(const uint8_t *q) {
    ei32x4 v;
    memcpy(&v, q, 16);
    return v;
}

/// The point's angles as lane 0: azimuth | altitude << 16.
INLINE ei32x4 load_angles(const uint8_t *q) {
    int32_t a;
    memcpy(&a, q + 16, 4);
    ei32x4 v = { a, 0, 0, 0 };
    return v;
}

/// The bits that must be clear for a point's values to be in the exact range: x + 2^29 and
/// y + 2^29 and time below 2^30, radius and pressure below 2^15.
INLINE ei32x4 range_bits(ei32x4 p) {
    const ei32x4 bias = { 1 << 29, 1 << 29, 0, 0 };
    const ei32x4 mask = { (int32_t)0xC0000000u, (int32_t)0xC0000000u, (int32_t)0x80008000u, (int32_t)0xC0000000u };
    return (ei32x4)((eu32x4)p + (eu32x4)bias) & mask;
}

/// The differences `a - b`: lanes 0, 1, 3 as 32-bit values, lane 2 as two 16-bit values.
INLINE ei32x4 differences(ei32x4 a, ei32x4 b) {
    const ei32x4 wide = { -1, -1, 0, -1 };
    ei32x4 d32 = (ei32x4)((eu32x4)a - (eu32x4)b);
    ei32x4 d16 = (ei32x4)((eu16x8)a - (eu16x8)b);
    return (d32 & wide) | (d16 & ~wide);
}

/// The zigzag (G-005) of lanes 0, 1, 3 as 32-bit values and of lane 2 as two 16-bit values.
INLINE ei32x4 zigzag_lanes(ei32x4 e) {
    const ei32x4 wide = { -1, -1, 0, -1 };
    // Shifts left on unsigned lanes (no signed overflow), right on signed ones (the sign).
    ei32x4 z32 = (ei32x4)((eu32x4)e << 1) ^ (e >> 31);
    ei16x8 e16 = (ei16x8)e;
    ei32x4 z16 = (ei32x4)((ei16x8)((eu16x8)e16 << 1) ^ (e16 >> 15));
    return (z32 & wide) | (z16 & ~wide);
}

/// The zigzag of the two 16-bit angle values in lane 0 of `a - b`.
INLINE ei32x4 zigzag_angles(ei32x4 a, ei32x4 b) {
    ei16x8 e = (ei16x8)((eu16x8)a - (eu16x8)b);
    return (ei32x4)((ei16x8)((eu16x8)e << 1) ^ (e >> 15));
}

INLINE size_t encode(const uint8_t *pts, size_t from, size_t to, uint8_t *out, const int angles) {
    // Bits of a zigzag value that make it more than one byte: x, y, time as 32-bit values,
    // radius and pressure as 16-bit ones.
    const ei32x4 long_main = { (int32_t)0xFFFFFF80u, (int32_t)0xFFFFFF80u, (int32_t)0xFF80FF80u,
                               (int32_t)0xFFFFFF80u };
    const ei32x4 long_angles = { (int32_t)0xFF80FF80u, 0, 0, 0 };
    const ei32x4 second = { -1, -1, 0, -1 };  // lanes written as second-order deltas
    const ei32x4 angle_range = { (int32_t)0x80008000u, 0, 0, 0 };
    const uint8_t *q = pts + from * POINT_BYTES;
    ei32x4 p2 = load_main(q - 2 * POINT_BYTES), p1 = load_main(q - POINT_BYTES);
    ei32x4 bad = range_bits(p2) | range_bits(p1);
    ei32x4 a1 = { 0, 0, 0, 0 };
    if (angles) a1 = load_angles(q - POINT_BYTES);
    bad |= a1 & angle_range;
    {
        // Any lane set: no point can be written (a later point still depends on these two).
        eu32x4 b = (eu32x4)bad;
        if (b[0] | b[1] | b[2] | b[3]) return 0;
    }
    ei32x4 v1 = differences(p1, p2);
    size_t k = 0;
    const size_t n = to - from;
    const int F = angles ? 7 : 5;
    for (; k < n; k++, q += POINT_BYTES) {
        ei32x4 p = load_main(q);
        ei32x4 v = differences(p, p1);
        ei32x4 z = zigzag_lanes((ei32x4)((eu32x4)v - (eu32x4)(v1 & second)));
        ei32x4 test = (z & long_main) | range_bits(p);
        ei32x4 a = a1, za = { 0, 0, 0, 0 };
        if (angles) {
            a = load_angles(q);
            za = zigzag_angles(a, a1);
            test |= (za & long_angles) | (a & angle_range);
        }
        eu32x4 t = (eu32x4)test;
        if (t[0] | t[1] | t[2] | t[3]) break;
        // Bytes x, y, radius, pressure, time (lane bytes 0, 4, 8, 10, 12), then the angles.
        eu8x16 zb = (eu8x16)z;
        eu8x16 ab = (eu8x16)za;
        eu8x8 bytes = __builtin_shufflevector(zb, ab, 0, 4, 8, 10, 12, 16, 18, 19);
        memcpy(out + (size_t)F * k, &bytes, 8);
        p1 = p; v1 = v; a1 = a;
    }
    return k;
}

static size_t encode_base(const void *pts, size_t from, size_t to, int has_angles, uint8_t *out) {
    if (has_angles) return encode((const uint8_t *)pts, from, to, out, 1);
    return encode((const uint8_t *)pts, from, to, out, 0);
}

#if defined(__x86_64__)
/// The same loop with SSE4.1 and SSSE3 (`pshufb` for the byte gather, `ptest`, blends).
__attribute__((target("sse4.1,ssse3")))
static size_t encode_sse41(const void *pts, size_t from, size_t to, int has_angles, uint8_t *out) {
    if (has_angles) return encode((const uint8_t *)pts, from, to, out, 1);
    return encode((const uint8_t *)pts, from, to, out, 0);
}
#endif

size_t lnote_points_encode_plain(const void *points, size_t from, size_t to, int has_angles, uint8_t *out) {
    if (points == NULL || out == NULL || from < 2 || to <= from) return 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return 0;  // the lanes above assume little-endian memory; the Swift loop writes every point
#else
#  if defined(__x86_64__)
    if (lnote_cpu_has_sse41_ssse3()) return encode_sse41(points, from, to, has_angles, out);
#  endif
    return encode_base(points, from, to, has_angles, out);
#endif
}

size_t lnote_points_encode_plain_baseline(const void *points, size_t from, size_t to, int has_angles, uint8_t *out) {
    if (points == NULL || out == NULL || from < 2 || to <= from) return 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return 0;
#else
    return encode_base(points, from, to, has_angles, out);
#endif
}
