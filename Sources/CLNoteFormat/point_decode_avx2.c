// The AVX2 block of the point decoder (Spec/format.md E-001 ... E-003) for strokes without
// angles: points whose fields are varints of 1 or 2 bytes, decoded without leaving the block
// (point_decode.c's blocks stop at the first field of 2 bytes). Called by point_decode.c's AVX2
// build; CPUID (and XGETBV) chose it. Only x86-64.
#include "point_decode_internal.h"

#if defined(__x86_64__)
#  include <immintrin.h>
#  include <string.h>

/// The block's range proof allows deltas up to 2^13 in magnitude (a 2-byte zigzag varint).
enum { REACH2 = 8192 * BLOCK * (BLOCK + 1) / 2 };

/// x and y stay in range over the block; time stays at or below `time_max` (0xFFFFFFFF, or
/// 0x7FFFFFFF for the AVX-512 block, which tests time's velocity and value in one OR).
static inline int block_in_range2(const dstate *s, int64_t time_max) {
    const int64_t lo = INT32_MIN + REACH2, span = (int64_t)INT32_MAX - REACH2 - lo;
    uint64_t pre = (uint64_t)(s->x - lo) | (uint64_t)(s->x + BLOCK * s->vx - lo) | (uint64_t)(s->y - lo) |
                   (uint64_t)(s->y + BLOCK * s->vy - lo);
    return pre <= (uint64_t)span && s->t + BLOCK * s->vt + REACH2 <= time_max;
}

/// For the continuation bits of a point's first 10 bytes (5 fields, no angles): bit k set when
/// field k is a 2-byte varint, 0xFF when a field has 3 bytes or more. For each such pattern,
/// the byte shuffle that puts field k's bytes in 16-bit lane k (the high byte zero for a 1-byte
/// field; lanes 5-7 zero) and the point's length. Built once at first use (`tables_ready`).
static uint8_t two_byte_fields[1024];
static __attribute__((aligned(16))) uint8_t two_byte_shuffle[32][16];
static uint8_t two_byte_length[32];
/// 0 not built, 1 being built by one thread (the others use the one-byte blocks meanwhile), 2 built.
static int tables_state = 0;

static void build_tables(void) {
    for (unsigned m = 0; m < 1024; m++) {
        unsigned pos = 0, pattern = 0;
        for (unsigned k = 0; k < 5 && pattern != 0xFF; k++) {
            if (!((m >> pos) & 1)) {
                pos += 1;
                continue;
            }
            if ((m >> (pos + 1)) & 1)
                pattern = 0xFF; // a third byte: not this block's
            else {
                pattern |= 1u << k;
                pos += 2;
            }
        }
        two_byte_fields[m] = (uint8_t)pattern;
    }
    for (unsigned pattern = 0; pattern < 32; pattern++) {
        uint8_t *sh = two_byte_shuffle[pattern];
        memset(sh, 0x80, 16); // 0x80: a zero byte
        unsigned pos = 0;
        for (unsigned k = 0; k < 5; k++) {
            sh[2 * k] = (uint8_t)pos;
            if ((pattern >> k) & 1) {
                sh[2 * k + 1] = (uint8_t)(pos + 1);
                pos += 2;
            } else
                pos += 1;
        }
        two_byte_length[pattern] = (uint8_t)pos;
    }
}

/// See point_decode_internal.h (no thread waits for the tables).
int lnote_point_tables_ready(void) {
    int st = __atomic_load_n(&tables_state, __ATOMIC_ACQUIRE);
    if (st == 2) return 1;
    int expected = 0;
    if (st == 0 && __atomic_compare_exchange_n(&tables_state, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        build_tables();
        __atomic_store_n(&tables_state, 2, __ATOMIC_RELEASE);
        return 1;
    }
    return 0;
}

/// The block's constants: the mask of the second-order lanes, the shuffles to the 20-byte
/// layout and the last slot of the output (the only one a 32-byte store would overrun).
typedef struct {
    __m256i keep, pack, gather;
    const lnote_point_out *last;
} block8v_state;

/// A point's 20 bytes, `out`'s low 20, stored at `o + i`: as 32 (12 onto the next point's
/// slot) when there is one.
__attribute__((target("avx2"), always_inline)) static inline void store_point(__m256i out, const block8v_state *k,
                                                                              lnote_point_out *o, size_t i) {
    uint8_t *at = (uint8_t *)(o + i);
    if (__builtin_expect(o + i < k->last, 1)) {
        _mm256_storeu_si256((__m256i *)at, out);
    } else {
        _mm_storeu_si128((__m128i *)at, _mm256_castsi256_si128(out));
        _mm_storeu_si32(at + 16, _mm256_extracti128_si256(out, 1));
    }
}

/// One point of the block: its deltas `d` (eight int32 lanes) added (P += V + d, V += d's
/// second-order lanes), the checks collected, and its 20 bytes stored at `o + i`: as 32 (12
/// onto the next point's slot) when there is one.
__attribute__((target("avx2"), always_inline)) static inline void advance(__m256i d, const block8v_state *k, __m256i *P,
                                                                          __m256i *V, __m256i *acc, __m256i *accv,
                                                                          lnote_point_out *o, size_t i) {
    __m256i t = _mm256_add_epi32(*V, d);
    *V = _mm256_add_epi32(*V, _mm256_and_si256(d, k->keep));
    *P = _mm256_add_epi32(*P, t);
    *acc = _mm256_or_si256(*acc, *P);
    *accv = _mm256_or_si256(*accv, *V);
    // The 20 bytes in order: an in-lane shuffle, then time and angles moved to dword 3.
    store_point(_mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(*P, k->pack), k->gather), k, o, i);
}

/// The AVX-512 features `advance512` and `lnote_points_span512` use (on ymm registers).
#  define LNOTE_AVX512_TARGET "avx2,avx512f,avx512vl,avx512bw,avx512vbmi,prfchw"

/// `advance`'s arithmetic with AVX-512 on ymm registers: the checks in one three-way OR
/// (`vpternlogd`: radius and pressure in P's lanes 2 and 3, time's velocity in V's lane 4,
/// with P's lane 4, time, kept below 2^31 by the block's range proof so its bit 31 is the
/// velocity's sign), and the 20 bytes in order by one byte permute (`vpermb`). The angles'
/// four bytes are radius's third byte, four times: zero in every block that passes its checks
/// (a block that fails is decoded again), and it keeps the permute a byte permute: with a
/// zeroing mask and zeros there, clang turns it into a two-source word permute (`vpermt2w`,
/// three micro-ops), which took about a quarter of the decoder's time on Sapphire Rapids.
__attribute__((target(LNOTE_AVX512_TARGET), always_inline)) static inline __m256i
step512(__m256i d, const block8v_state *k, __m256i *P, __m256i *V, __m256i *acc) {
    __m256i t = _mm256_add_epi32(*V, d);
    *V = _mm256_mask_add_epi32(*V, (__mmask8)0x13, *V, d); // lanes x, y, time
    *P = _mm256_add_epi32(*P, t);
    *acc = _mm256_ternarylogic_epi32(*acc, *P, *V, 0xFE);
    return _mm256_permutexvar_epi8(k->pack, *P);
}

/// One point of an AVX-512 block: `step512`, its 20 bytes stored at `o + i` by `store_point`.
__attribute__((target(LNOTE_AVX512_TARGET), always_inline)) static inline void
advance512(__m256i d, const block8v_state *k, __m256i *P, __m256i *V, __m256i *acc, __m256i *accv, lnote_point_out *o,
           size_t i) {
    (void)accv;
    store_point(step512(d, k, P, V, acc), k, o, i);
}

/// `advance512` in a block that ends before the output's last slot: every point stored as 32
/// bytes (12 onto the next slot), without `store_point`'s test.
__attribute__((target(LNOTE_AVX512_TARGET), always_inline)) static inline void
advance512_wide(__m256i d, const block8v_state *k, __m256i *P, __m256i *V, __m256i *acc, __m256i *accv,
                lnote_point_out *o, size_t i) {
    (void)accv;
    _mm256_storeu_si256((__m256i *)(o + i), step512(d, k, P, V, acc));
}

/// The points of a block from point `ii` to `end` (both loops' body): per 16-byte load (`LOAD`
/// of the address) its continuation bits, three points of five 1-byte fields at once, one such
/// point alone, or a point of 1- and 2-byte fields through the tables; a field of 3 bytes or
/// more runs `ON_LONG` (which leaves the loop). `ADVANCE` takes each point; `qq` and `ii`
/// move on.
#  define BLOCK8V_POINTS(ADVANCE, LOAD, ON_LONG)                                                                       \
    while (ii < end) {                                                                                                 \
      __m128i v = LOAD(p + qq);                                                                                        \
      unsigned m = (unsigned)_mm_movemask_epi8(v);                                                                     \
      if (__builtin_expect((m & 0x7FFF) == 0, 1) && ii + 3 <= end) {                                                   \
        /* Three points of 1-byte fields in these 16 bytes: one zigzag for the three. */                               \
        __m128i z =                                                                                                    \
            _mm_xor_si128(_mm_and_si128(_mm_srli_epi16(v, 1), low7), _mm_sub_epi8(zero, _mm_and_si128(v, one8)));      \
        ADVANCE(_mm256_cvtepi8_epi32(z), &k, &P, &V, &acc, &accv, oo, 0);                                              \
        ADVANCE(_mm256_cvtepi8_epi32(_mm_srli_si128(z, 5)), &k, &P, &V, &acc, &accv, oo, 1);                           \
        ADVANCE(_mm256_cvtepi8_epi32(_mm_srli_si128(z, 10)), &k, &P, &V, &acc, &accv, oo, 2);                          \
        qq += 15;                                                                                                      \
        ii += 3;                                                                                                       \
        oo += 3;                                                                                                       \
        continue;                                                                                                      \
      }                                                                                                                \
      __m256i d;                                                                                                       \
      if ((m & 0x1F) == 0) {                                                                                           \
        __m128i z =                                                                                                    \
            _mm_xor_si128(_mm_and_si128(_mm_srli_epi16(v, 1), low7), _mm_sub_epi8(zero, _mm_and_si128(v, one8)));      \
        d = _mm256_cvtepi8_epi32(z);                                                                                   \
        qq += 5;                                                                                                       \
      } else {                                                                                                         \
        unsigned pattern = two_byte_fields[m & 0x3FF];                                                                 \
        if (pattern == 0xFF) ON_LONG;                                                                                  \
        __m128i w = _mm_shuffle_epi8(v, _mm_load_si128((const __m128i *)two_byte_shuffle[pattern]));                   \
        __m128i val = _mm_or_si128(_mm_and_si128(w, low7w), _mm_and_si128(_mm_srli_epi16(w, 1), high7w));              \
        /* A 2-byte field (bit 7 of its lane's low byte) whose high byte is 0: lane below 0x100. */                    \
        nonminimal = _mm_or_si128(nonminimal, _mm_and_si128(_mm_sub_epi16(w, hi1), _mm_slli_epi16(w, 8)));             \
        __m128i z = _mm_xor_si128(_mm_srli_epi16(val, 1), _mm_sub_epi16(zero, _mm_and_si128(val, one16)));             \
        d = _mm256_cvtepi16_epi32(z);                                                                                  \
        qq += two_byte_length[pattern];                                                                                \
      }                                                                                                                \
      ADVANCE(d, &k, &P, &V, &acc, &accv, oo, 0);                                                                      \
      ii++;                                                                                                            \
      oo++;                                                                                                            \
    }

/// The constants both loops use.
#  define BLOCK8V_CONSTANTS                                                                                            \
    const __m128i low7 = _mm_set1_epi8(0x7F), one8 = _mm_set1_epi8(1);                                                 \
    const __m128i low7w = _mm_set1_epi16(0x7F), high7w = _mm_set1_epi16(0x3F80), one16 = _mm_set1_epi16(1);            \
    const __m128i hi1 = _mm_set1_epi16(0x100), zero = _mm_setzero_si128();

#  define BLOCK8V_LOAD(at) _mm_loadu_si128((const __m128i *)(at))

/// Decodes up to `n` (<= BLOCK) points at `p` without angles whose fields are all varints of 1
/// or 2 bytes into `o` (`left` points of room); returns how many and their bytes in `*used`
/// (0 when the first is not such a point, or when the block's range proof or checks fail:
/// `step` then takes the points one by one, so results and errors stay exact). Reads
/// p[0 ..< LNOTE_BLOCK8V_READS].
///
/// Per 16-byte load its continuation bits (`pmovmskb`): three points of five 1-byte fields
/// (about 96% of the points of handwriting have them) are zigzagged as bytes at once and each
/// sign-extended to eight int32 lanes; one such point alone the same way; any other goes
/// through the tables: one shuffle puts each field's 1 or 2 bytes in a 16-bit lane, two masks
/// join their 7-bit groups, the zigzag and a sign extension follow. A
/// 2-byte field whose high byte is 0 (not minimal, G-003) is collected and fails the block.
/// The running values are those of point_decode.c's `block8` (P, V), the checks the same: radius and pressure in
/// [0, 2^16), time's velocity not negative, x, y, time in range by the proof for deltas of
/// 2^13. Unlike `block8`, a point of 2-byte fields does not end the block, so the block's
/// setup is paid once per 32 points.
__attribute__((target("avx2"))) size_t lnote_points_block8v(const uint8_t *p, size_t n, size_t left, dstate *s,
                                                            lnote_point_out *o, size_t *used) {
    *used = 0;
    if (!block_in_range2(s, 0xFFFFFFFFLL)) return 0;
    __m256i P = _mm256_setr_epi32((int32_t)s->x, (int32_t)s->y, (int32_t)s->r, (int32_t)s->pr, (int32_t)(uint32_t)s->t,
                                  0, 0, 0);
    __m256i V = _mm256_setr_epi32((int32_t)s->vx, (int32_t)s->vy, 0, 0, (int32_t)s->vt, 0, 0, 0);
    // x y radius pressure (bytes 0-9, 12-13) and time (16-19) with zero angles, per half.
    const __m256i pack = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, -1, -1, -1, -1, 0, 1, 2, 3, -1, -1, -1,
                                          -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const block8v_state k = {_mm256_setr_epi32(-1, -1, 0, 0, -1, 0, 0, 0), pack,
                             _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 3), o + left - 1};
    BLOCK8V_CONSTANTS
    __m256i acc = _mm256_setzero_si256(), accv = acc;
    __m128i nonminimal = zero;
    size_t qq = 0, ii = 0, end = n;
    lnote_point_out *oo = o;
    BLOCK8V_POINTS(advance, BLOCK8V_LOAD, break)
    if (ii == 0) return 0;
    int32_t a[8], av[8], pv[8], vv[8];
    _mm256_storeu_si256((__m256i *)a, acc);
    _mm256_storeu_si256((__m256i *)av, accv);
    _mm256_storeu_si256((__m256i *)pv, P);
    _mm256_storeu_si256((__m256i *)vv, V);
    // Radius and pressure in [0, 2^16); time's velocity not negative; every varint minimal.
    uint32_t bad = (((uint32_t)a[2] | (uint32_t)a[3]) >> 16) | ((uint32_t)av[4] >> 31) |
                   ((uint32_t)_mm_movemask_epi8(nonminimal) & 0xAAAA);
    if (bad) return 0;
    s->x = pv[0];
    s->y = pv[1];
    s->vx = vv[0];
    s->vy = vv[1];
    s->r = pv[2];
    s->pr = pv[3];
    s->t = (uint32_t)pv[4];
    s->vt = vv[4];
    s->az = 0;
    s->al = 0;
    *used = qq;
    return ii;
}

/// 16 bytes at `at`; those from `pend` on read as 0x80 (a masked load: no fault past `pend`),
/// which never ends a varint, so no point is taken past the real end.
#  define SPAN512_LOAD(at)                                                                                             \
    (__builtin_expect(pend - (at) >= 16, 1)                                                                            \
         ? _mm_loadu_si128((const __m128i *)(at))                                                                      \
         : _mm_mask_loadu_epi8(fill, (__mmask16)((1u << (unsigned)(pend - (at))) - 1), (at)))

/// See point_decode_internal.h. Blocks of BLOCK points as `lnote_points_block8v` decodes them
/// (with `advance512`), one after another without leaving the loop: the running values stay in
/// their vectors from block to block (no store and reload of the state between blocks, which
/// cost the block about a fifth of its time in stalls), the next block's range proof is taken
/// from the lanes, and a block whose checks fail is undone to its start (the values saved
/// there), so the points before it stand and `step` takes it point by point. The last bytes
/// are read by masked loads, so the stroke's end needs no padded copy; a block whose reach
/// has neither the last bytes nor the output's last slot loads and stores without those tests
/// (`advance512_wide`: 6-12% less time on the bench's handwriting, decoded alone).
__attribute__((target(LNOTE_AVX512_TARGET))) size_t lnote_points_span512(const uint8_t *p, const uint8_t *pend,
                                                                         size_t n, size_t left, dstate *s,
                                                                         lnote_point_out *o, size_t *used) {
    *used = 0;
    if (n == 0 || pend <= p || !block_in_range2(s, 0x7FFFFFFFLL)) return 0;
    __m256i P = _mm256_setr_epi32((int32_t)s->x, (int32_t)s->y, (int32_t)s->r, (int32_t)s->pr, (int32_t)(uint32_t)s->t,
                                  0, 0, 0);
    __m256i V = _mm256_setr_epi32((int32_t)s->vx, (int32_t)s->vy, 0, 0, (int32_t)s->vt, 0, 0, 0);
    // vpermb indices: x y radius pressure time (bytes 0-9, 12-13, 16-19), then radius's third
    // byte (zero in a block that passes) as the angles; bytes 20-31 go to the next slot.
    const __m256i pack = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 18, 19, 10, 10, 10, 10, 0, 0, 0,
                                          0, 0, 0, 0, 0, 0, 0, 0, 0);
    const block8v_state k = {_mm256_setzero_si256(), pack, _mm256_setzero_si256(), o + left - 1};
    // Radius and pressure in [0, 2^16), time's velocity (bit 31 of the OR with time) not negative.
    const __m256i checks = _mm256_setr_epi32(0, 0, (int)0xFFFF0000u, (int)0xFFFF0000u, (int)0x80000000u, 0, 0, 0);
    const __m128i fill = _mm_set1_epi8((char)0x80);
    BLOCK8V_CONSTANTS
    __m256i accv = _mm256_setzero_si256();
    size_t q = 0, i = 0;    // the points and bytes of the blocks that passed
    __m256i P0 = P, V0 = V; // the running values at the block's start
    for (;;) {
        size_t end = n - i < BLOCK ? n : i + BLOCK;
        size_t qq = q, ii = i;
        lnote_point_out *oo = o + i;
        prefetch_block_out(oo);
        __m256i acc = _mm256_setzero_si256();
        __m128i nonminimal = zero;
        int longer = 0;
        if (end < n && pend - (p + q) >= BLOCK * 10 + 16) {
            // A block with neither the output's last slot nor the input's last bytes within
            // its reach (BLOCK points of at most 10 bytes, and a load's 16): no test per point.
            BLOCK8V_POINTS(advance512_wide, BLOCK8V_LOAD, {
                longer = 1;
                break;
            })
        } else {
            BLOCK8V_POINTS(advance512, SPAN512_LOAD, {
                longer = 1;
                break;
            })
        }
        if (_mm256_test_epi32_mask(acc, checks) | (_mm_movemask_epi8(nonminimal) & 0xAAAA)) {
            P = P0;
            V = V0;
            break;
        }
        q = qq;
        i = ii;
        if (longer || i == n) break;
        dstate next;
        next.x = _mm256_extract_epi32(P, 0);
        next.y = _mm256_extract_epi32(P, 1);
        next.vx = _mm256_extract_epi32(V, 0);
        next.vy = _mm256_extract_epi32(V, 1);
        next.t = (uint32_t)_mm256_extract_epi32(P, 4);
        next.vt = _mm256_extract_epi32(V, 4);
        if (!block_in_range2(&next, 0x7FFFFFFFLL)) break;
        P0 = P;
        V0 = V;
    }
    if (i == 0) return 0;
    int32_t pv[8], vv[8];
    _mm256_storeu_si256((__m256i *)pv, P);
    _mm256_storeu_si256((__m256i *)vv, V);
    s->x = pv[0];
    s->y = pv[1];
    s->vx = vv[0];
    s->vy = vv[1];
    s->r = pv[2];
    s->pr = pv[3];
    s->t = (uint32_t)pv[4];
    s->vt = vv[4];
    s->az = 0;
    s->al = 0;
    *used = q;
    return i;
}
#endif
