// The bulk loop of the point encoder (Spec/format.md E-001): writes points `first ..< count`
// of a stroke as second-order (x, y, time) and first-order (radius, pressure, angles) zigzag
// deltas, byte for byte what the Swift writer (`ByteWriter.varint` / `svarint`) produces.
//
// Speed: a point whose five fields zigzag below 0x80 is one 8-byte store (5 bytes kept);
// other fields take an unrolled writer for 1 to 3 bytes and a loop beyond. No overflow: every
// value comes from 32-bit fields, so differences fit easily in 64 bits.
#include "ccrc32c.h"

#include <string.h>

typedef struct {
    int32_t x, y;
    uint16_t radius, pressure;
    uint32_t time;
    uint16_t azimuth, altitude;
} lnote_point_in;

_Static_assert(sizeof(lnote_point_in) == 20, "Point is 20 bytes");

static inline __attribute__((always_inline)) uint64_t zigzag(int64_t v) {
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline __attribute__((always_inline)) uint8_t *put(uint8_t *d, uint64_t v) {
    if (v < 0x80) { d[0] = (uint8_t)v; return d + 1; }
    if (v < 0x4000) { d[0] = (uint8_t)(v | 0x80); d[1] = (uint8_t)(v >> 7); return d + 2; }
    if (v < 0x200000) {
        d[0] = (uint8_t)(v | 0x80); d[1] = (uint8_t)((v >> 7) | 0x80); d[2] = (uint8_t)(v >> 14);
        return d + 3;
    }
    while (v >= 0x80) { *d++ = (uint8_t)(v | 0x80); v >>= 7; }
    *d++ = (uint8_t)v;
    return d;
}

static inline __attribute__((always_inline)) size_t run(const lnote_point_in *pts, size_t first, size_t count,
                                                        uint8_t *dst, size_t cap, size_t *written, const int angles) {
    uint8_t *d = dst;
    uint8_t *const limit = cap >= LNOTE_POINT_BYTES_MAX + 8 ? dst + cap - LNOTE_POINT_BYTES_MAX - 8 : dst;
    size_t i = first;
    if (i == 0 || i >= count || d >= limit) { *written = 0; return first; }
    const lnote_point_in *prev = &pts[i - 1];
    int64_t px = prev->x, py = prev->y, pt = prev->time, pr = prev->radius, pp = prev->pressure;
    int64_t paz = prev->azimuth, pal = prev->altitude;
    int64_t vx = 0, vy = 0, vt = 0;
    if (i >= 2) {
        const lnote_point_in *pp2 = &pts[i - 2];
        vx = px - pp2->x; vy = py - pp2->y; vt = pt - (int64_t)pp2->time;
    }
    while (i < count && d < limit) {
        const lnote_point_in *p = &pts[i];
        int64_t x = p->x, y = p->y, t = p->time, r = p->radius, q = p->pressure;
        int64_t nvx = x - px, nvy = y - py, nvt = t - pt;
        uint64_t zx = zigzag(nvx - vx), zy = zigzag(nvy - vy);
        uint64_t zr = zigzag(r - pr), zp = zigzag(q - pp), zt = zigzag(nvt - vt);
        if ((zx | zy | zr | zp | zt) < 0x80) {
            uint64_t word = zx | zy << 8 | zr << 16 | zp << 24 | zt << 32;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
            word = __builtin_bswap64(word);
#endif
            memcpy(d, &word, 8);
            d += 5;
        } else {
            d = put(d, zx); d = put(d, zy); d = put(d, zr); d = put(d, zp); d = put(d, zt);
        }
        if (angles) {
            int64_t a = p->azimuth, b = p->altitude;
            d = put(d, zigzag(a - paz)); d = put(d, zigzag(b - pal));
            paz = a; pal = b;
        }
        vx = nvx; vy = nvy; vt = nvt;
        px = x; py = y; pt = t; pr = r; pp = q;
        i++;
    }
    *written = (size_t)(d - dst);
    return i;
}

size_t lnote_points_encode(const void *points, size_t first, size_t count, int has_angles,
                           uint8_t *dst, size_t cap, size_t *written) {
    const lnote_point_in *pts = (const lnote_point_in *)points;
    if (has_angles) return run(pts, first, count, dst, cap, written, 1);
    return run(pts, first, count, dst, cap, written, 0);
}
