// The bulk loop of the point encoder (Spec/format.md E-001, G-003 ... G-005): writes the points
// of a stroke from point 2 on, "plain" points in vector lanes and every other point with
// 64-bit scalar arithmetic, so a stroke takes one call (LNoteFormat's PointEncodeLoop writes
// points 0 and 1, and every point where the vector lanes are not available).
//
// Point i (i >= 2) is plain when every field it writes is a one-byte varint (its zigzag value
// is below 0x80) and the values it depends on (points i-2, i-1, i) are in the range where the
// 32-bit lanes below give the exact differences: x and y in [-2^29, 2^29), time below 2^30,
// radius, pressure (and the angles) below 2^15. Then its x, y and time second-order deltas lie
// in (-2^31, 2^31) and its first-order deltas of 16-bit fields in (-2^15, 2^15), so the lanes
// never wrap and the bytes written are exactly those of the reference encoder (one byte a
// field, the zigzag value). About 95% of the points of real handwriting are plain, in runs of
// about 20.
//
// Per point: one 16-byte load (x, y, radius|pressure, time as four 32-bit lanes; the angles as
// one more 32-bit lane), the differences with the previous point in 32-bit lanes and, for the
// lane that packs two 16-bit fields, in 16-bit lanes; the previous differences subtracted in
// the x, y and time lanes; the zigzag in both widths; one test of every byte that must be zero
// (a field of two or more bytes, or a value out of the range above); one shuffle and one 8-byte
// store of the 5 (7) bytes. No branch but the loop's and the test's.
// The vector code is clang's portable vector extensions: NEON on arm64; on x86-64 it is built
// for SSE4.1 + SSSE3 and for AVX-512 (four points a step; with VBMI2, points of two-byte
// fields in the step too), and CPUID picks one at first use (a CPU with neither encodes in
// the Swift loop).
#include "lnote_format.h"
#include "cpu_features.h"

#include <string.h>
#if defined(__x86_64__)
#  include <immintrin.h>
#endif

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
    ei32x4 v = {a, 0, 0, 0};
    return v;
}

/// The bits that must be clear for a point's values to be in the exact range: x + 2^29 and
/// y + 2^29 and time below 2^30, radius and pressure below 2^15.
INLINE ei32x4 range_bits(ei32x4 p) {
    const ei32x4 bias = {1 << 29, 1 << 29, 0, 0};
    const ei32x4 mask = {(int32_t)0xC0000000u, (int32_t)0xC0000000u, (int32_t)0x80008000u, (int32_t)0xC0000000u};
    return (ei32x4)((eu32x4)p + (eu32x4)bias) & mask;
}

/// The differences `a - b`: lanes 0, 1, 3 as 32-bit values, lane 2 as two 16-bit values.
INLINE ei32x4 differences(ei32x4 a, ei32x4 b) {
    const ei32x4 wide = {-1, -1, 0, -1};
    ei32x4 d32 = (ei32x4)((eu32x4)a - (eu32x4)b);
    ei32x4 d16 = (ei32x4)((eu16x8)a - (eu16x8)b);
    return (d32 & wide) | (d16 & ~wide);
}

/// The zigzag (G-005) of lanes 0, 1, 3 as 32-bit values and of lane 2 as two 16-bit values.
INLINE ei32x4 zigzag_lanes(ei32x4 e) {
    const ei32x4 wide = {-1, -1, 0, -1};
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
    const ei32x4 long_main = {(int32_t)0xFFFFFF80u, (int32_t)0xFFFFFF80u, (int32_t)0xFF80FF80u, (int32_t)0xFFFFFF80u};
    const ei32x4 long_angles = {(int32_t)0xFF80FF80u, 0, 0, 0};
    const ei32x4 second = {-1, -1, 0, -1}; // lanes written as second-order deltas
    const ei32x4 angle_range = {(int32_t)0x80008000u, 0, 0, 0};
    const uint8_t *q = pts + from * POINT_BYTES;
    ei32x4 p2 = load_main(q - 2 * POINT_BYTES), p1 = load_main(q - POINT_BYTES);
    ei32x4 bad = range_bits(p2) | range_bits(p1);
    ei32x4 a1 = {0, 0, 0, 0};
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
        ei32x4 a = a1, za = {0, 0, 0, 0};
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
        p1 = p;
        v1 = v;
        a1 = a;
    }
    return k;
}

/// The most bytes `encode_any` writes for one point: x, y and time 5 bytes each (a zigzag
/// below 2^35), radius, pressure and the angles 3 each (below 2^17); and the room
/// `encode_stroke` keeps for any point (the vector loops store up to 8 bytes past their last).
enum { ANY_POINT_BYTES_MAX = 27, ANY_POINT_ROOM = 35 };

INLINE uint64_t zigzag64(int64_t v) {
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

INLINE size_t put_varint(uint64_t v, uint8_t *out, size_t n) {
    while (v >= 0x80) {
        out[n++] = (uint8_t)v | 0x80;
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

/// The point's fields as 64-bit values: x, y, radius, pressure, time, azimuth, altitude.
INLINE void load_fields(const uint8_t *q, int64_t f[7]) {
    int32_t x, y;
    uint16_t r, p, az, al;
    uint32_t t;
    memcpy(&x, q, 4);
    memcpy(&y, q + 4, 4);
    memcpy(&r, q + 8, 2);
    memcpy(&p, q + 10, 2);
    memcpy(&t, q + 12, 4);
    memcpy(&az, q + 16, 2);
    memcpy(&al, q + 18, 2);
    f[0] = x;
    f[1] = y;
    f[2] = r;
    f[3] = p;
    f[4] = t;
    f[5] = az;
    f[6] = al;
}

/// Writes point `i` (i >= 2), plain or not, as the reference encoder does: x, y and time as
/// second-order deltas, the others as first-order ones, each zigzagged and a minimal varint.
/// 64-bit arithmetic on 32- and 16-bit fields: exact, no overflow. Returns the bytes written
/// (at most ANY_POINT_BYTES_MAX).
INLINE size_t encode_any(const uint8_t *pts, size_t i, uint8_t *out, const int angles) {
    int64_t c[7], b[7], a[7];
    load_fields(pts + i * POINT_BYTES, c);
    load_fields(pts + (i - 1) * POINT_BYTES, b);
    load_fields(pts + (i - 2) * POINT_BYTES, a);
    size_t n = 0;
    n = put_varint(zigzag64((c[0] - b[0]) - (b[0] - a[0])), out, n);
    n = put_varint(zigzag64((c[1] - b[1]) - (b[1] - a[1])), out, n);
    n = put_varint(zigzag64(c[2] - b[2]), out, n);
    n = put_varint(zigzag64(c[3] - b[3]), out, n);
    n = put_varint(zigzag64((c[4] - b[4]) - (b[4] - a[4])), out, n);
    if (angles) {
        n = put_varint(zigzag64(c[5] - b[5]), out, n);
        n = put_varint(zigzag64(c[6] - b[6]), out, n);
    }
    return n;
}

/// The end of the points `from ..< to` a vector loop may take within `room` bytes when it
/// writes at most `per_point` bytes a point and stores up to `tail` bytes past its last
/// (`room` is at least `tail`).
INLINE size_t fitting_end(size_t from, size_t to, size_t room, size_t per_point, size_t tail) {
    size_t fit = (room - tail) / per_point;
    return to - from < fit ? to : from + fit;
}

/// A wider vector loop that `encode_stroke` runs instead of `encode`: it writes points `from`
/// onward while it can take them, storing within `room` bytes of `out` (at least
/// ANY_POINT_ROOM), and returns the points written, their bytes in `*bytes`.
typedef size_t (*wide_loop)(const uint8_t *pts, size_t from, size_t to, uint8_t *out, size_t room, int angles,
                            size_t *bytes);

/// Points `from ..< to` at `out`, within `room` bytes: each run of plain points in the vector
/// loop (`wide` where not NULL, else `encode`), the point after it with `encode_any`. After a
/// call of the vector loop that wrote nothing (values out of its range), the next `backoff`
/// points (1, 2, 4, ... up to 16) take `encode_any` alone. Stops before a point that might not
/// fit.
INLINE size_t encode_stroke(const uint8_t *pts, size_t from, size_t to, uint8_t *out, size_t room, size_t *written,
                            const int angles, const wide_loop wide) {
    const size_t F = angles ? 7 : 5;
    size_t k = from, n = 0, backoff = 1, scalar_only = 0;
    while (k < to && room - n >= ANY_POINT_ROOM) {
        if (scalar_only == 0) {
            size_t m, bytes;
            if (wide != NULL) {
                m = wide(pts, k, to, out + n, room - n, angles, &bytes);
            } else {
                // `encode` stores 8 bytes a point: (points * 7 + 8) bytes of room.
                m = encode(pts, k, fitting_end(k, to, room - n, 7, 8), out + n, angles);
                bytes = m * F;
            }
            k += m;
            n += bytes;
            if (m == 0) {
                scalar_only = backoff;
                backoff = backoff < 16 ? backoff * 2 : 16;
            } else
                backoff = 1;
            if (k >= to || room - n < ANY_POINT_ROOM) break;
        }
        if (scalar_only > 0) scalar_only--;
        n += encode_any(pts, k, out + n, angles);
        k++;
    }
    *written = n;
    return k - from;
}

#if !defined(__x86_64__)
/// The loop compiled for the target's baseline (NEON on arm64). On x86-64 there is none: a CPU
/// without SSE4.1 and SSSE3 encodes in the Swift loop (as `run_base` in point_decode.c).
static size_t encode_base(const void *pts, size_t from, size_t to, int has_angles, uint8_t *out, size_t room,
                          size_t *written) {
    if (has_angles) return encode_stroke((const uint8_t *)pts, from, to, out, room, written, 1, NULL);
    return encode_stroke((const uint8_t *)pts, from, to, out, room, written, 0, NULL);
}
#endif

#if defined(__x86_64__)
/// The same loop with SSE4.1 and SSSE3 (`pshufb` for the byte gather, `ptest`, blends).
__attribute__((target("sse4.1,ssse3"))) static size_t
encode_sse41(const void *pts, size_t from, size_t to, int has_angles, uint8_t *out, size_t room, size_t *written) {
    if (has_angles) return encode_stroke((const uint8_t *)pts, from, to, out, room, written, 1, NULL);
    return encode_stroke((const uint8_t *)pts, from, to, out, room, written, 0, NULL);
}
#endif

#if defined(__x86_64__)
// Four points a step with AVX-512 (F, VL, BW, VBMI): the same lanes as `encode`, point j of the
// step in lanes 4j ... 4j + 3 of one 16-lane vector. Two 64-byte loads hold points k - 2 ...
// k + 3 (30 of their 32 dwords); one two-source dword permute each gives the four points, the
// four before them and the four before those, so no value is carried from step to step and
// every step checks the range of all six points it reads. One byte permute gathers the 20
// (28) bytes, stored with one 32-byte store. A step with a point that is not plain keeps the
// bytes of the points before it and returns; `encode_stroke` writes that point with
// `encode_any` and calls again.
typedef int32_t ei32x16 __attribute__((vector_size(64)));
typedef uint32_t eu32x16 __attribute__((vector_size(64)));
typedef int16_t ei16x32 __attribute__((vector_size(64)));
typedef uint16_t eu16x32 __attribute__((vector_size(64)));
typedef uint8_t eu8x64 __attribute__((vector_size(64)));
typedef uint8_t eu8x32 __attribute__((vector_size(32)));

#  define AVX512_ENCODE __attribute__((target("avx512f,avx512vl,avx512bw,avx512vbmi,avx2")))
/// Lanes 4j ... 4j + 3 from dwords f + 5j ... f + 5j + 3 of lo | hi (one point's x, y,
/// radius | pressure, time when f + 5j is the point's first dword).
#  define FOUR_MAIN(lo, hi, f)                                                                                         \
    __builtin_shufflevector(lo, hi, f, f + 1, f + 2, f + 3, f + 5, f + 6, f + 7, f + 8, f + 10, f + 11, f + 12,        \
                            f + 13, f + 15, f + 16, f + 17, f + 18)
/// Lane j (j < 4) from dword f + 5j (a point's angles); the other lanes hold dword 0.
#  define FOUR_ANGLES(lo, hi, f)                                                                                       \
    __builtin_shufflevector(lo, hi, f, f + 5, f + 10, f + 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
/// A constant of four 32-bit lanes repeated four times.
#  define REPEAT4(a, b, c, d)                                                                                          \
    {                                                                                                                  \
      (int32_t)(a), (int32_t)(b), (int32_t)(c), (int32_t)(d), (int32_t)(a), (int32_t)(b), (int32_t)(c), (int32_t)(d),  \
          (int32_t)(a), (int32_t)(b), (int32_t)(c), (int32_t)(d), (int32_t)(a), (int32_t)(b), (int32_t)(c),            \
          (int32_t)(d)                                                                                                 \
    }

AVX512_ENCODE INLINE ei32x16 range_bits4(ei32x16 p) {
    const ei32x16 bias = REPEAT4(1 << 29, 1 << 29, 0, 0);
    const ei32x16 mask = REPEAT4(0xC0000000u, 0xC0000000u, 0x80008000u, 0xC0000000u);
    return (ei32x16)((eu32x16)p + (eu32x16)bias) & mask;
}

AVX512_ENCODE INLINE ei32x16 differences4(ei32x16 a, ei32x16 b) {
    const ei32x16 wide = REPEAT4(-1, -1, 0, -1);
    ei32x16 d32 = (ei32x16)((eu32x16)a - (eu32x16)b);
    ei32x16 d16 = (ei32x16)((eu16x32)a - (eu16x32)b);
    return (d32 & wide) | (d16 & ~wide);
}

AVX512_ENCODE INLINE ei32x16 zigzag_lanes4(ei32x16 e) {
    const ei32x16 wide = REPEAT4(-1, -1, 0, -1);
    ei32x16 z32 = (ei32x16)((eu32x16)e << 1) ^ (e >> 31);
    ei16x32 e16 = (ei16x32)e;
    ei32x16 z16 = (ei32x16)((ei16x32)((eu16x32)e16 << 1) ^ (e16 >> 15));
    return (z32 & wide) | (z16 & ~wide);
}

/// The zigzag of the two 16-bit angle values in each lane of `a - b`.
AVX512_ENCODE INLINE ei32x16 zigzag_angles4(ei32x16 a, ei32x16 b) {
    ei16x32 e = (ei16x32)((eu16x32)a - (eu16x32)b);
    return (ei32x16)((ei16x32)((eu16x32)e << 1) ^ (e >> 15));
}

/// One step's lanes: points k - 2 ... k + 3 loaded from `base` (point k - 2) as `lo` and `hi`
/// (their 32 dwords), and the zigzag values of points k ... k + 3 (lane group j: point k + j).
/// `range` gets the range bits (`range_bits4`) of the six points, in the lane group of the
/// point that depends on them.
AVX512_ENCODE INLINE ei32x16 step_zigzag(const uint8_t *base, ei32x16 *lo, ei32x16 *hi, ei32x16 *range) {
    const ei32x16 second = REPEAT4(-1, -1, 0, -1);
    memcpy(lo, base, 64);
    memcpy(hi, base + 64, 64);
    ei32x16 p = FOUR_MAIN(*lo, *hi, 10), p1 = FOUR_MAIN(*lo, *hi, 5), p2 = FOUR_MAIN(*lo, *hi, 0);
    *range = range_bits4(p) | range_bits4(p1) | range_bits4(p2);
    return zigzag_lanes4((ei32x16)((eu32x16)differences4(p, p1) - (eu32x16)(differences4(p1, p2) & second)));
}

/// The first point of a step that is not plain, from the lane bits `bad` (four a point) and
/// `bad_angles` (one a point); one of them is not zero.
INLINE unsigned first_bad_point(unsigned bad, unsigned bad_angles) {
    bad |= bad >> 1;
    bad |= bad >> 2;
    return (unsigned)__builtin_ctz((bad & 1) | ((bad >> 3) & 2) | ((bad >> 6) & 4) | ((bad >> 9) & 8) |
                                   (bad_angles & 0xF));
}

AVX512_ENCODE INLINE size_t encode_four(const uint8_t *pts, size_t from, size_t to, uint8_t *out, const int angles) {
    const ei32x16 long_main = REPEAT4(0xFFFFFF80u, 0xFFFFFF80u, 0xFF80FF80u, 0xFFFFFF80u);
    // Lanes 0-3 only: the angle lanes of the four points.
    const ei32x16 long_angles = {(int32_t)0xFF80FF80u,
                                 (int32_t)0xFF80FF80u,
                                 (int32_t)0xFF80FF80u,
                                 (int32_t)0xFF80FF80u,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0};
    const ei32x16 angle_range = {(int32_t)0x80008000u,
                                 (int32_t)0x80008000u,
                                 (int32_t)0x80008000u,
                                 (int32_t)0x80008000u,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0};
    const size_t F = angles ? 7 : 5;
    size_t k = from;
    // Points k - 2 ... k + 4 exist below `to` (the loads reach 8 bytes into point k + 4), and
    // the 32-byte store ends within the room the caller gives ((to - from) * 7 + 8 bytes).
    while (k + 5 <= to) {
        ei32x16 lo, hi, range;
        ei32x16 z = step_zigzag(pts + (k - 2) * POINT_BYTES, &lo, &hi, &range);
        ei32x16 test = (z & long_main) | range;
        eu8x64 zb = (eu8x64)z;
        eu8x32 bytes;
        // Lane bits of every point that is not plain (lane group j: point k + j), angles apart
        // (lane j: point k + j).
        __mmask16 bad = _mm512_test_epi32_mask((__m512i)test, (__m512i)test), bad_angles = 0;
        if (angles) {
            ei32x16 a = FOUR_ANGLES(lo, hi, 14), a1 = FOUR_ANGLES(lo, hi, 9);
            ei32x16 za = zigzag_angles4(a, a1);
            ei32x16 test_angles = (za & long_angles) | ((a | a1) & angle_range);
            bad_angles = _mm512_test_epi32_mask((__m512i)test_angles, (__m512i)test_angles);
            eu8x64 ab = (eu8x64)za;
            bytes = __builtin_shufflevector(zb, ab, 0, 4, 8, 10, 12, 64, 66, 16, 20, 24, 26, 28, 68, 70, 32, 36, 40, 42,
                                            44, 72, 74, 48, 52, 56, 58, 60, 76, 78, 0, 0, 0, 0);
        } else {
            bytes = __builtin_shufflevector(zb, zb, 0, 4, 8, 10, 12, 16, 20, 24, 26, 28, 32, 36, 40, 42, 44, 48, 52, 56,
                                            58, 60, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        memcpy(out + F * (k - from), &bytes, 32);
        // The first point that is not plain: the bytes of the points before it are stored.
        if ((bad | bad_angles) != 0) return (k - from) + first_bad_point(bad, bad_angles);
        k += 4;
    }
    // The last points, one at a time.
    return (k - from) + (k < to ? encode(pts, k, to, out + F * (k - from), angles) : 0);
}

/// `encode_four` as a `wide_loop`: up to the points whose 5 (7) bytes fit in `room` with the
/// 8 bytes past the last that `encode` may store.
AVX512_ENCODE INLINE size_t four_steps(const uint8_t *pts, size_t from, size_t to, uint8_t *out, size_t room,
                                       const int angles, size_t *bytes) {
    size_t m = encode_four(pts, from, fitting_end(from, to, room, 7, 8), out, angles);
    *bytes = m * (angles ? 7 : 5);
    return m;
}

AVX512_ENCODE
static size_t encode_four_loop(const uint8_t *pts, size_t from, size_t to, uint8_t *out, size_t room, int angles,
                               size_t *bytes) {
    if (angles) return four_steps(pts, from, to, out, room, 1, bytes);
    return four_steps(pts, from, to, out, room, 0, bytes);
}

// Points of one- and two-byte fields, four a step, where the CPU also has AVX-512 VBMI2 (and
// BMI2): the lanes of `encode_four`, each field's zigzag value (below 2^14) made a varint of
// one or two bytes in its 16-bit word (x, y and time in the low word of their lane), and one
// byte compress (`vpcompressb`) keeps the bytes in use, in order: the 5 low bytes of every
// point, and each high byte whose word is above 0x7F. About one point in 20 of handwriting
// has a two-byte field; with them in the step, only a field of three or more bytes or a value
// outside the lanes' exact range leaves it. Strokes without angles (the angles lane would
// interleave a fifth word per point); those with angles take `four_steps`.
#  define AVX512_SHORT __attribute__((target("avx512f,avx512vl,avx512bw,avx512vbmi,avx512vbmi2,bmi2,popcnt,avx2")))

AVX512_SHORT
static size_t encode_four_short(const uint8_t *pts, size_t from, size_t to, uint8_t *out, size_t room, int angles,
                                size_t *bytes) {
    // Up to 10 bytes a point, and each step stores 64 bytes.
    if (angles || room < 64 + 10 * 5) return encode_four_loop(pts, from, to, out, room, angles, bytes);
    const ei32x16 long_short = REPEAT4(0xFFFFC000u, 0xFFFFC000u, 0xC000C000u, 0xFFFFC000u);
    // The low bytes of x, y, radius, pressure and time in each point's 16 bytes, and their high
    // bytes.
    const uint64_t low_bytes = 0x1511151115111511ull, high_bytes = 0x2A222A222A222A22ull;
    size_t limit = fitting_end(from, to, room, 10, 64);
    size_t k = from, n = 0;
    while (k + 5 <= limit) {
        ei32x16 lo, hi, range;
        ei32x16 z = step_zigzag(pts + (k - 2) * POINT_BYTES, &lo, &hi, &range);
        ei32x16 test = (z & long_short) | range;
        __mmask16 bad = _mm512_test_epi32_mask((__m512i)test, (__m512i)test);
        eu16x32 w = (eu16x32)z;
        const eu16x32 seven = (eu16x32)_mm512_set1_epi16(0x7F), high = (eu16x32)_mm512_set1_epi16(0x7F00);
        const eu16x32 more = (eu16x32)_mm512_set1_epi16((short)0x80);
        eu16x32 varints = (w & seven) | ((w << 1) & high) | ((eu16x32)(w > seven) & more);
        __mmask32 two = _mm512_cmpgt_epu16_mask((__m512i)w, (__m512i)seven);
        uint64_t keep = low_bytes | (_pdep_u64(two, 0xAAAAAAAAAAAAAAAAull) & high_bytes);
        // The first point that leaves the step, if any: keep the bytes of the points before it.
        unsigned j = bad != 0 ? first_bad_point(bad, 0) : 4;
        if (j < 4) keep = j == 0 ? 0 : keep & (~0ull >> (64 - 16 * j));
        _mm512_storeu_si512(out + n, _mm512_maskz_compress_epi8(keep, (__m512i)varints));
        n += (size_t)__builtin_popcountll(keep);
        if (j < 4) {
            *bytes = n;
            return (k - from) + j;
        }
        k += 4;
    }
    // The last points: `encode` has room for them (10 bytes a point and 64 more were kept).
    size_t m = k < limit ? encode(pts, k, limit, out + n, 0) : 0;
    *bytes = n + 5 * m;
    return (k - from) + m;
}

AVX512_SHORT
static size_t encode_avx512_short(const void *pts, size_t from, size_t to, int has_angles, uint8_t *out, size_t room,
                                  size_t *written) {
    if (has_angles) return encode_stroke((const uint8_t *)pts, from, to, out, room, written, 1, encode_four_short);
    return encode_stroke((const uint8_t *)pts, from, to, out, room, written, 0, encode_four_short);
}

AVX512_ENCODE
static size_t encode_avx512(const void *pts, size_t from, size_t to, int has_angles, uint8_t *out, size_t room,
                            size_t *written) {
    if (has_angles) return encode_stroke((const uint8_t *)pts, from, to, out, room, written, 1, encode_four_loop);
    return encode_stroke((const uint8_t *)pts, from, to, out, room, written, 0, encode_four_loop);
}
#endif

/// True when the arguments describe a call the loops can make (see ccrc32c.h).
static int encode_arguments_valid(const void *points, size_t from, size_t to, const uint8_t *out, size_t *written) {
    if (written != NULL) *written = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return 0; // the lanes assume little-endian memory; the Swift loop writes every point
#else
    return points != NULL && out != NULL && written != NULL && from >= 2 && to > from;
#endif
}

size_t lnote_points_encode(const void *points, size_t from, size_t to, int has_angles, uint8_t *out, size_t room,
                           size_t *written) {
    if (!encode_arguments_valid(points, from, to, out, written)) return 0;
#if defined(__x86_64__)
    if (lnote_cpu_has_avx512vbmi2_bmi2()) return encode_avx512_short(points, from, to, has_angles, out, room, written);
    if (lnote_cpu_has_avx512vbmi()) return encode_avx512(points, from, to, has_angles, out, room, written);
#endif
    return lnote_points_encode_narrow(points, from, to, has_angles, out, room, written);
}

size_t lnote_points_encode_narrow(const void *points, size_t from, size_t to, int has_angles, uint8_t *out, size_t room,
                                  size_t *written) {
    if (!encode_arguments_valid(points, from, to, out, written)) return 0;
#if defined(__x86_64__)
    if (lnote_cpu_has_sse41_ssse3()) return encode_sse41(points, from, to, has_angles, out, room, written);
    return 0; // no point written: the Swift loop writes them
#else
    return encode_base(points, from, to, has_angles, out, room, written);
#endif
}

size_t lnote_points_encode_baseline(const void *points, size_t from, size_t to, int has_angles, uint8_t *out,
                                    size_t room, size_t *written) {
    if (!encode_arguments_valid(points, from, to, out, written)) return 0;
#if defined(__x86_64__)
    return lnote_points_encode_narrow(points, from, to, has_angles, out, room, written);
#else
    return encode_base(points, from, to, has_angles, out, room, written);
#endif
}
