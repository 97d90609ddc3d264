// The bulk loop of the point decoder (Spec/format.md E-001 ... E-003): decodes the points of a
// stroke while each one is "plain" and leaves every other point to the Swift decoder, which
// applies each rule in the reference order (so errors, reason and offset, stay exact).
//
// A point is plain when each of its 5 (7) fields is a minimal varint of 1 to 3 bytes, every
// sum stays in its range of section 6.1 and time does not decrease. Such a point is decoded
// exactly as the reference decoder would; at the first point that is not plain (a longer or
// non-minimal varint, a value out of range, a decreasing time, or fewer than 24 (32) bytes
// left in the buffer) the loop stops before it and reports how far it got.
//
// Speed: the common point, five one-byte varints, is one 8-byte load, a mask test, the
// zigzag of all its bytes at once in one word, the sums, one OR-ed range test and three stores. Otherwise the continuation bits of 16 (24) bytes are gathered into a
// mask with one multiply per 8-byte word; each field's end is the next clear bit (count
// trailing zeros, clear lowest bit) and its value the 7-bit groups of one unaligned load,
// with no loop over bytes. The sums need no overflow checks: between points |x|, |y| < 2^31,
// |vx|, |vy| < 2^32, 0 <= t, vt < 2^32 and a 3-byte delta is below 2^20 in magnitude.
#include "ccrc32c.h"

#include <string.h>

typedef struct {
    int32_t x, y;
    uint16_t radius, pressure;
    uint32_t time;
    uint16_t azimuth, altitude;
} lnote_point_out;

_Static_assert(sizeof(lnote_point_out) == 20, "Point is 20 bytes");

static inline __attribute__((always_inline)) uint64_t load64(const uint8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/// Bit i set when byte i of `w` is >= 0x80 (8 bits).
static inline __attribute__((always_inline)) uint64_t high_bits(uint64_t w) {
    uint64_t lanes = (w >> 7) & 0x0101010101010101ULL;
    return (lanes * 0x0102040810204080ULL) >> 56;
}

static inline __attribute__((always_inline)) int64_t unzigzag(uint64_t u) {
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static inline __attribute__((always_inline)) size_t run(const uint8_t *base, size_t end, size_t *pos_io,
                                                        lnote_point_out *out, size_t count,
                                                        lnote_point_acc *a, const int angles) {
    const int fields = angles ? 7 : 5;
    const size_t slack = angles ? 32 : 24;  // readable bytes a point's loads may touch
    const uint64_t one_byte_mask = angles ? 0x0080808080808080ULL : 0x0000008080808080ULL;
    const uint64_t lane_high = 0xFFFF0000FFFF0000ULL;
    size_t pos = *pos_io;
    if (pos > end || end - pos < slack || count == 0) return 0;
    const uint8_t *p = base + pos;
    const uint8_t *const stop = base + end - slack;  // a point may start at or before stop
    lnote_point_out *o = out;
    lnote_point_out *const o_end = out + count;
    int64_t x = a->x, y = a->y, vx = a->vx, vy = a->vy, t = a->time, vt = a->vt;
    // radius + pressure << 32, and azimuth + altitude << 32: one add and one mask test each
    // (a lane below 0 or above 0xFFFF sets bits of lane_high, or the word's sign).
    int64_t rp = a->radius | a->pressure << 32;
    int64_t aa = angles ? (a->azimuth | a->altitude << 32) : 0;
    while (o < o_end && p <= stop) {
        uint64_t w0 = load64(p);
        int64_t d0, d1, d2, d3, d4, d5 = 0, d6 = 0;
        size_t len;
        if ((w0 & one_byte_mask) == 0) {
            // Zigzag (G-005) of every byte at once: each lane becomes its value as int8.
            uint64_t z = ((w0 >> 1) & 0x3F3F3F3F3F3F3F3FULL) ^ ((w0 & 0x0101010101010101ULL) * 0xFF);
            d0 = (int8_t)z;
            d1 = (int8_t)(z >> 8);
            d2 = (int8_t)(z >> 16);
            d3 = (int8_t)(z >> 24);
            d4 = (int8_t)(z >> 32);
            if (angles) {
                d5 = (int8_t)(z >> 40);
                d6 = (int8_t)(z >> 48);
            }
            len = (size_t)fields;
        } else {
            uint64_t m = high_bits(w0) | high_bits(load64(p + 8)) << 8;
            if (angles) m |= high_bits(load64(p + 16)) << 16;
            uint64_t term = ~m;  // bits above the mask are set: a field too long ends there
            size_t s = 0;
            int64_t d[7];
            int ok = 1;
            for (int k = 0; k < fields; k++) {
                size_t e = (size_t)__builtin_ctzll(term);
                term &= term - 1;
                size_t l = e + 1 - s;
                if (l > 3) { ok = 0; break; }  // also keeps every load below p + slack
                uint64_t v = load64(p + s);
                uint64_t u = (v & 0x7F) | ((v >> 1) & 0x3F80) | ((v >> 2) & 0x1FC000);
                u &= (1ULL << (7 * l)) - 1;
                // Minimal (G-003): a last byte of 0 leaves u below 2^(7(l-1)).
                ok &= (l == 1) | (u >= (1ULL << (7 * (l - 1))));
                d[k] = unzigzag(u);
                s = e + 1;
            }
            if (!ok) break;
            d0 = d[0]; d1 = d[1]; d2 = d[2]; d3 = d[3]; d4 = d[4];
            if (angles) { d5 = d[5]; d6 = d[6]; }
            len = s;
        }
        int64_t nx = x + vx + d0, ny = y + vy + d1;
        int64_t nrp = rp + d2 + (int64_t)((uint64_t)d3 << 32);
        int64_t nvt = vt + d4, nt = t + nvt;
        uint64_t bad = ((uint64_t)(nx + 0x80000000LL) | (uint64_t)(ny + 0x80000000LL)
                        | (uint64_t)nvt | (uint64_t)nt) >> 32;
        bad |= (uint64_t)nrp & lane_high;
        int64_t naa = aa;
        if (angles) {
            naa = aa + d5 + (int64_t)((uint64_t)d6 << 32);
            bad |= (uint64_t)naa & lane_high;
        }
        if (bad) break;
        vx = nx - x; vy = ny - y; vt = nvt;
        x = nx; y = ny; rp = nrp; t = nt; aa = naa;
        // The 20 bytes of the point in three stores (x y | radius pressure time | angles).
        uint64_t xy = (uint64_t)(uint32_t)x | (uint64_t)(uint32_t)y << 32;
        uint64_t rpt = ((uint64_t)rp & 0xFFFF) | ((uint64_t)rp >> 32) << 16 | (uint64_t)(uint32_t)t << 32;
        uint32_t ang = (uint32_t)((uint64_t)aa & 0xFFFF) | (uint32_t)((uint64_t)aa >> 32) << 16;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        o->x = (int32_t)x; o->y = (int32_t)y;
        o->radius = (uint16_t)rp; o->pressure = (uint16_t)((uint64_t)rp >> 32);
        o->time = (uint32_t)t;
        o->azimuth = (uint16_t)aa; o->altitude = (uint16_t)((uint64_t)aa >> 32);
        (void)xy; (void)rpt; (void)ang;
#else
        memcpy((uint8_t *)o, &xy, 8);
        memcpy((uint8_t *)o + 8, &rpt, 8);
        memcpy((uint8_t *)o + 16, &ang, 4);
#endif
        o++;
        p += len;
    }
    a->x = x; a->y = y; a->vx = vx; a->vy = vy; a->time = t; a->vt = vt;
    a->radius = rp & 0xFFFF; a->pressure = (int64_t)((uint64_t)rp >> 32);
    if (angles) { a->azimuth = aa & 0xFFFF; a->altitude = (int64_t)((uint64_t)aa >> 32); }
    *pos_io = (size_t)(p - base);
    return (size_t)(o - out);
}

size_t lnote_points_decode_plain(const uint8_t *base, size_t end, size_t *pos, void *out, size_t count,
                                 int has_angles, lnote_point_acc *acc) {
    if (has_angles) return run(base, end, pos, (lnote_point_out *)out, count, acc, 1);
    return run(base, end, pos, (lnote_point_out *)out, count, acc, 0);
}
