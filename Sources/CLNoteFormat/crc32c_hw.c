// Hardware CRC-32C (Spec/format.md section 2): SSE4.2 `crc32` on x86-64, the ARMv8 CRC
// extension on arm64. The instruction set is chosen per function with
// `__attribute__((target(...)))` and checked at run time, so the package needs no
// unsafeFlags. Other CPUs report "not available" and Swift uses its portable code.
//
// Speed: one stream of 8-byte `crc32` instructions is bound by the instruction's latency
// (3 cycles), so buffers of 192 bytes or more are split into three equal stretches that
// run as independent streams and are joined with `shift` (crc_combine.c). Throughput is
// then bound by the instruction's issue rate, about three times one stream.
// On x86-64 with PCLMULQDQ (asked once through CPUID) the stretches fit the buffer instead
// of a few fixed sizes: a buffer of 48 bytes or more (below 12 KiB; longer ones first take
// blocks of 3 x 4 KiB) is one block of three stretches of 8 * floor(len / 24) bytes, joined
// by a carry-less multiply with x^(8 * stretch - 33) and one `crc32` (the reduction), so at
// most 23 bytes are left to the single stream; no byte-wise alignment loop either (unaligned
// loads are as fast). The page frames of 0.5-1 KB the open checks take about 20% less time.
// Where the CPU also has VPCLMULQDQ and AVX2, buffers of 256 bytes or more are folded
// instead (`hw_raw_fold`): carry-less products of 128-bit chunks, eight at a time, which
// are not bound by the `crc32` instruction's one-a-cycle issue; with AVX-512 F and VL as well,
// on ZMM registers, four lanes a product (`hw_raw_fold512`).
#include "lnote_format.h"
#include "cpu_features.h"
#include "crc32c_combine.h"

#include <string.h>

#if defined(__x86_64__)
#  include <cpuid.h>
#  include <nmmintrin.h>
#  include <wmmintrin.h>
#  include <immintrin.h>
#  define LNOTE_CRC_TARGET __attribute__((target("sse4.2")))
#elif defined(__aarch64__) || defined(__arm64__)
#  include <arm_acle.h>
#  if defined(__linux__)
#    include <sys/auxv.h>
#    ifndef HWCAP_CRC32
#      define HWCAP_CRC32 (1 << 7)
#    endif
#  endif
#  define LNOTE_CRC_TARGET __attribute__((target("crc")))
#endif

int lnote_crc32c_hw_available(void) {
#if defined(__x86_64__)
    // CPUID leaf 1, ECX bit 20 is SSE4.2 (what __builtin_cpu_supports("sse4.2") reads,
    // without needing libgcc's __cpu_model at link time).
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_SSE4_2) ? 1 : 0;
#elif (defined(__aarch64__) || defined(__arm64__)) && defined(__APPLE__)
    return 1; // Every Apple arm64 CPU has the CRC extension.
#elif (defined(__aarch64__) || defined(__arm64__)) && defined(__linux__)
    return (getauxval(AT_HWCAP) & HWCAP_CRC32) ? 1 : 0;
#elif defined(__ARM_FEATURE_CRC32)
    return 1;
#else
    return 0;
#endif
}

#if defined(LNOTE_CRC_TARGET)

static inline uint64_t load64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v; // The instruction consumes the bytes in memory order on little-endian CPUs.
}

#  if defined(__x86_64__)
LNOTE_CRC_TARGET static inline uint32_t step64(uint32_t crc, const unsigned char *p) {
    return (uint32_t)_mm_crc32_u64(crc, load64(p));
}
LNOTE_CRC_TARGET static inline uint32_t step32(uint32_t crc, uint32_t w) {
    return _mm_crc32_u32(crc, w);
}
LNOTE_CRC_TARGET static inline uint32_t step16(uint32_t crc, uint16_t w) {
    return _mm_crc32_u16(crc, w);
}
LNOTE_CRC_TARGET static inline uint32_t step8(uint32_t crc, unsigned char b) {
    return _mm_crc32_u8(crc, b);
}
#  else
LNOTE_CRC_TARGET static inline uint32_t step64(uint32_t crc, const unsigned char *p) {
    return __crc32cd(crc, load64(p));
}
LNOTE_CRC_TARGET static inline uint32_t step32(uint32_t crc, uint32_t w) {
    return __crc32cw(crc, w);
}
LNOTE_CRC_TARGET static inline uint32_t step16(uint32_t crc, uint16_t w) {
    return __crc32ch(crc, w);
}
LNOTE_CRC_TARGET static inline uint32_t step8(uint32_t crc, unsigned char b) {
    return __crc32cb(crc, b);
}
#  endif

/// The raw register after the last `len` bytes at `p`, on one stream: 8 bytes a step, then
/// at most one step each of 4, 2 and 1 bytes (unaligned loads are as fast).
LNOTE_CRC_TARGET static inline uint32_t one_stream(uint32_t crc, const unsigned char *p, size_t len) {
    while (len >= 8) {
        crc = step64(crc, p);
        p += 8;
        len -= 8;
    }
    if (len >= 4) {
        uint32_t w;
        memcpy(&w, p, 4);
        crc = step32(crc, w);
        p += 4;
        len -= 4;
    }
    if (len >= 2) {
        uint16_t w;
        memcpy(&w, p, 2);
        crc = step16(crc, w);
        p += 2;
        len -= 2;
    }
    if (len > 0) crc = step8(crc, *p);
    return crc;
}

/// Runs three streams of `stride` bytes each over `*p` while at least `3 * stride` bytes
/// remain, joining them after every block. `stride` is a multiple of 8.
LNOTE_CRC_TARGET static inline uint32_t three_streams(uint32_t crc, const unsigned char **pp, size_t *lenp,
                                                      size_t stride, const lnote_crc_shift_table *shift) {
    const unsigned char *p = *pp;
    size_t len = *lenp;
    while (len >= 3 * stride) {
        uint32_t c0 = crc, c1 = 0, c2 = 0;
        const unsigned char *end = p + stride;
        while (p < end) {
            c0 = step64(c0, p);
            c1 = step64(c1, p + stride);
            c2 = step64(c2, p + 2 * stride);
            p += 8;
        }
        // Register after A ++ B ++ C: shift(shift(a) ^ b) ^ c (linearity of the CRC register).
        crc = lnote_crc_shift(shift, lnote_crc_shift(shift, c0) ^ c1) ^ c2;
        p += 2 * stride;
        len -= 3 * stride;
    }
    *pp = p;
    *lenp = len;
    return crc;
}

/// The raw register (no pre/post inversion) after `len` bytes at `data`.
LNOTE_CRC_TARGET static uint32_t hw_raw(uint32_t crc, const unsigned char *p, size_t len) {
    while (len > 0 && ((uintptr_t)p & 7) != 0) {
        crc = step8(crc, *p++);
        len--;
    }
    if (len >= 3 * LNOTE_CRC_SMALLEST_STRIDE) {
        const lnote_crc_shift_tables *t = lnote_crc_shift_tables_get();
        for (int i = 0; i < LNOTE_CRC_STRIDE_COUNT; i++) {
            crc = three_streams(crc, &p, &len, lnote_crc_strides[i], &t->stride[i]);
        }
    }
    return one_stream(crc, p, len);
}

#  if defined(__x86_64__)
/// The raw register `c` advanced over the zero bytes `k` stands for (`lnote_crc_clmul_shift`):
/// the 63-bit carry-less product, reduced modulo the polynomial by one `crc32` of it.
__attribute__((target("sse4.2,pclmul"))) static inline uint32_t clmul_shift(uint32_t c, uint32_t k) {
    __m128i t = _mm_clmulepi64_si128(_mm_cvtsi32_si128((int)c), _mm_cvtsi32_si128((int)k), 0);
    return (uint32_t)_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(t));
}

/// One block of three streams of `8 * j` bytes each at `*pp` (j <= LNOTE_CRC_CLMUL_MAX), joined.
__attribute__((target("sse4.2,pclmul"))) static inline uint32_t clmul_block(uint32_t crc, const unsigned char **pp,
                                                                            size_t j, const uint32_t *k) {
    const unsigned char *p = *pp;
    const size_t stride = 8 * j;
    uint32_t c0 = crc, c1 = 0, c2 = 0;
    for (const unsigned char *end = p + stride; p < end; p += 8) {
        c0 = step64(c0, p);
        c1 = step64(c1, p + stride);
        c2 = step64(c2, p + 2 * stride);
    }
    *pp = p + 2 * stride;
    return clmul_shift(clmul_shift(c0, k[j]) ^ c1, k[j]) ^ c2;
}

/// `hw_raw` with stretches fitted to the buffer (see the top of this file).
__attribute__((target("sse4.2,pclmul"))) static uint32_t hw_raw_clmul(uint32_t crc, const unsigned char *p,
                                                                      size_t len) {
    if (len >= 48) {
        const uint32_t *k = lnote_crc_clmul_shifts_get();
        while (len >= 3 * 8 * LNOTE_CRC_CLMUL_MAX) {
            crc = clmul_block(crc, &p, LNOTE_CRC_CLMUL_MAX, k);
            len -= 3 * 8 * LNOTE_CRC_CLMUL_MAX;
        }
        if (len >= 48) {
            size_t j = len / 24;
            crc = clmul_block(crc, &p, j, k);
            len -= 24 * j;
        }
    }
    return one_stream(crc, p, len);
}
#  endif

#  if defined(__x86_64__)
#    define LNOTE_FOLD_TARGET __attribute__((target("sse4.2,pclmul,avx2,vpclmulqdq")))

/// Fold constants for a distance of F bits, as [first 8 bytes, last 8 bytes] of a 128-bit
/// chunk: x^(64+F-1) and x^(F-1) mod P (P = x^32 + 0x1EDC6F41, Castagnoli), each remainder
/// written reflected in its 64-bit lane (x^d at bit 63 - d). A chunk L x^64 + H (L its first
/// 8 bytes, the message's bits in reflected order) moved F bits on is L x^(64+F) + H x^F,
/// congruent to a product of L and H with those remainders; a carry-less product of two
/// reflected operands comes out one bit short, hence the -1. `CRC32CTests` checks them
/// against the bitwise CRC at every length and alignment.
static const uint64_t fold_1024[2] = {0x6577b24500000000ull, 0x7417153f00000000ull};
static const uint64_t fold_256[2] = {0x33ccbbbc00000000ull, 0xa2158b3400000000ull};
static const uint64_t fold_128[2] = {0x3743f7bd00000000ull, 0x3171d43000000000ull};

/// Each 128-bit lane of `x` moved on by the distance of `k` (`fold_*`): two carry-less products.
LNOTE_FOLD_TARGET static inline __m256i fold_lanes(__m256i x, __m256i k) {
    return _mm256_xor_si256(_mm256_clmulepi64_epi128(x, k, 0x00), _mm256_clmulepi64_epi128(x, k, 0x11));
}

LNOTE_FOLD_TARGET static inline __m128i fold_lane(__m128i x, __m128i k) {
    return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

LNOTE_FOLD_TARGET static inline __m256i load256(const unsigned char *p) {
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

/// The eight 128-bit lanes of `x0` ... `x3` (in message order) folded onto the last one.
LNOTE_FOLD_TARGET static inline __m128i fold_four(__m256i x0, __m256i x1, __m256i x2, __m256i x3, __m128i k128) {
    const __m256i k256 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)fold_256));
    x1 = _mm256_xor_si256(x1, fold_lanes(x0, k256));
    x2 = _mm256_xor_si256(x2, fold_lanes(x1, k256));
    x3 = _mm256_xor_si256(x3, fold_lanes(x2, k256));
    return _mm_xor_si128(_mm256_extracti128_si256(x3, 1), fold_lane(_mm256_castsi256_si128(x3), k128));
}

/// The raw register after the 16 bytes of `r` from a zero register: two `crc32` instructions
/// (their remainder times x^32 is the CRC of the bytes folded into `r`).
LNOTE_FOLD_TARGET static inline uint32_t lane_register(__m128i r) {
    uint32_t c = (uint32_t)_mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(r));
    return (uint32_t)_mm_crc32_u64(c, (uint64_t)_mm_extract_epi64(r, 1));
}

/// The 32 bytes at `p + at`, also stored at `d + at` when `copy` (`d` is not used otherwise).
LNOTE_FOLD_TARGET static inline __attribute__((always_inline)) __m256i take256(unsigned char *d, const unsigned char *p,
                                                                               size_t at, const int copy) {
    __m256i v = load256(p + at);
    if (copy) _mm256_storeu_si256((__m256i *)(void *)(d + at), v);
    return v;
}

/// The raw register after `len` >= `LNOTE_CRC_FOLD_MIN` bytes at `p`, folding (x86-64 with
/// VPCLMULQDQ and AVX2): four YMM registers hold the first 128 bytes (the register XORed into
/// the first four, which is what starting from it means), then every next 128 bytes are XORed
/// onto the four moved on by 1024 bits; the eight 128-bit lanes are then folded onto the last
/// one, the 16-byte chunks left onto that, and its 16 bytes taken through two `crc32`
/// instructions; the last 0-15 bytes on one stream. No load past `p + len`. With `copy` (a
/// constant: each caller gets its own build) every byte is also stored at `d`, each 32 bytes
/// loaded once, and the last 0-15 bytes are copied, then checksummed where they now lie.
/// About 2.5x the three streams of `crc32` on frames of 1-3 KB (24-35 GB/s against 13 on this
/// bench's Xeon).
LNOTE_FOLD_TARGET static inline __attribute__((always_inline)) uint32_t
fold_run(uint32_t crc, unsigned char *d, const unsigned char *p, size_t len, const int copy) {
    const __m256i k1024 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)fold_1024));
    __m256i x0 = _mm256_xor_si256(take256(d, p, 0, copy), _mm256_zextsi128_si256(_mm_cvtsi32_si128((int)crc)));
    __m256i x1 = take256(d, p, 32, copy), x2 = take256(d, p, 64, copy), x3 = take256(d, p, 96, copy);
    p += 128;
    if (copy) d += 128;
    len -= 128;
    while (len >= 128) {
        x0 = _mm256_xor_si256(fold_lanes(x0, k1024), take256(d, p, 0, copy));
        x1 = _mm256_xor_si256(fold_lanes(x1, k1024), take256(d, p, 32, copy));
        x2 = _mm256_xor_si256(fold_lanes(x2, k1024), take256(d, p, 64, copy));
        x3 = _mm256_xor_si256(fold_lanes(x3, k1024), take256(d, p, 96, copy));
        p += 128;
        if (copy) d += 128;
        len -= 128;
    }
    const __m128i k128 = _mm_loadu_si128((const __m128i *)(const void *)fold_128);
    __m128i r = fold_four(x0, x1, x2, x3, k128);
    while (len >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        if (copy) {
            _mm_storeu_si128((__m128i *)(void *)d, v);
            d += 16;
        }
        r = _mm_xor_si128(fold_lane(r, k128), v);
        p += 16;
        len -= 16;
    }
    uint32_t c = lane_register(r);
    if (!copy) return one_stream(c, p, len);
    memcpy(d, p, len);
    return one_stream(c, d, len);
}

LNOTE_FOLD_TARGET static uint32_t hw_raw_fold(uint32_t crc, const unsigned char *p, size_t len) {
    return fold_run(crc, NULL, p, len, 0);
}

#    define LNOTE_FOLD512_TARGET __attribute__((target("sse4.2,pclmul,avx2,vpclmulqdq,avx512f,avx512vl")))

/// Fold constants (as `fold_1024`) for 2048 and 512 bits.
static const uint64_t fold_2048[2] = {0xe9a5d8be00000000ull, 0x1426a81500000000ull};
static const uint64_t fold_512[2] = {0x1c19243b00000000ull, 0x75bba45b00000000ull};

/// Each 128-bit lane of `x` moved on by the distance of `k`, XORed with `v` (one ternary logic).
LNOTE_FOLD512_TARGET static inline __m512i fold_zmm(__m512i x, __m512i k, __m512i v) {
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00), _mm512_clmulepi64_epi128(x, k, 0x11), v,
                                     0x96);
}

LNOTE_FOLD512_TARGET static inline __m512i load512(const unsigned char *p) {
    return _mm512_loadu_si512((const void *)p);
}

/// `hw_raw_fold` on ZMM registers (x86-64 with AVX-512 F and VL and VPCLMULQDQ): four of them
/// hold 256 bytes, moved on by 2048 bits a step, so each carry-less multiply takes four
/// 128-bit lanes: about twice the YMM fold where the CPU issues one a cycle of either width
/// (46 against 27 GB/s on 2,600-byte frames on this bench's AMD EPYC). The four are folded
/// onto the last, its two halves onto one YMM register, that as `fold_four`'s last step, and
/// the 16-byte chunks left onto the result as in `fold_run`. Needs `len` >= 256; no load past
/// `p + len`.
LNOTE_FOLD512_TARGET static uint32_t hw_raw_fold512(uint32_t crc, const unsigned char *p, size_t len) {
    const __m512i k2048 = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)fold_2048));
    __m512i x0 = _mm512_xor_si512(load512(p), _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)crc)));
    __m512i x1 = load512(p + 64), x2 = load512(p + 128), x3 = load512(p + 192);
    p += 256;
    len -= 256;
    while (len >= 256) {
        x0 = fold_zmm(x0, k2048, load512(p));
        x1 = fold_zmm(x1, k2048, load512(p + 64));
        x2 = fold_zmm(x2, k2048, load512(p + 128));
        x3 = fold_zmm(x3, k2048, load512(p + 192));
        p += 256;
        len -= 256;
    }
    const __m512i k512 = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)fold_512));
    x3 = fold_zmm(fold_zmm(fold_zmm(x0, k512, x1), k512, x2), k512, x3);
    const __m256i k256 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)fold_256));
    __m256i y = _mm256_xor_si256(_mm512_extracti64x4_epi64(x3, 1), fold_lanes(_mm512_castsi512_si256(x3), k256));
    const __m128i k128 = _mm_loadu_si128((const __m128i *)(const void *)fold_128);
    __m128i r = _mm_xor_si128(_mm256_extracti128_si256(y, 1), fold_lane(_mm256_castsi256_si128(y), k128));
    while (len >= 16) {
        r = _mm_xor_si128(fold_lane(r, k128), _mm_loadu_si128((const __m128i *)(const void *)p));
        p += 16;
        len -= 16;
    }
    return one_stream(lane_register(r), p, len);
}

LNOTE_FOLD_TARGET static uint32_t hw_raw_fold_copy(uint32_t crc, unsigned char *d, const unsigned char *p, size_t len);

/// Buffers at least this long are folded where the CPU can (`hw_raw_fold`); shorter ones take
/// the three streams, as fast or faster there.
#    define LNOTE_CRC_FOLD_MIN 256
#  endif

uint32_t lnote_crc32c_hw_extend_streams(uint32_t crc, const void *data, size_t len) {
    if (len == 0 || data == NULL) return crc;
#  if defined(__x86_64__)
    if (lnote_cpu_has_pclmul()) return ~hw_raw_clmul(~crc, (const unsigned char *)data, len);
#  endif
    return ~hw_raw(~crc, (const unsigned char *)data, len);
}

uint32_t lnote_crc32c_hw_extend(uint32_t crc, const void *data, size_t len) {
#  if defined(__x86_64__)
    if (data != NULL && len >= LNOTE_CRC_FOLD_MIN && lnote_cpu_has_vpclmul()) {
        if (lnote_cpu_has_vpclmul512()) return ~hw_raw_fold512(~crc, (const unsigned char *)data, len);
        return ~hw_raw_fold(~crc, (const unsigned char *)data, len);
    }
#  endif
    return lnote_crc32c_hw_extend_streams(crc, data, len);
}

int lnote_crc32c_hw_folds(void) {
#  if defined(__x86_64__)
    return lnote_cpu_has_vpclmul512() ? 512 : lnote_cpu_has_vpclmul() ? 256 : 0;
#  else
    return 0;
#  endif
}

uint32_t lnote_crc32c_hw_fold256(uint32_t crc, void *dst, const void *src, size_t len) {
#  if defined(__x86_64__)
    if (src != NULL && len >= LNOTE_CRC_FOLD_MIN && lnote_cpu_has_vpclmul()) {
        if (dst == NULL) return ~hw_raw_fold(~crc, (const unsigned char *)src, len);
        return ~hw_raw_fold_copy(~crc, (unsigned char *)dst, (const unsigned char *)src, len);
    }
#  endif
    if (dst == NULL) return lnote_crc32c_hw_extend_streams(crc, src, len);
    return lnote_crc32c_hw_copy_extend_tiers(crc, dst, src, len);
}

uint32_t lnote_crc32c_hw_extend_tiers(uint32_t crc, const void *data, size_t len) {
    if (len == 0 || data == NULL) return crc;
    return ~hw_raw(~crc, (const unsigned char *)data, len);
}

static inline void store64(unsigned char *d, uint64_t v) {
    memcpy(d, &v, 8);
}

/// `three_streams` that also copies every byte it reads from `*pp` to `*dp`: each word is
/// loaded once, stored and checksummed.
LNOTE_CRC_TARGET static inline uint32_t three_streams_copy(uint32_t crc, unsigned char **dp, const unsigned char **pp,
                                                           size_t *lenp, size_t stride,
                                                           const lnote_crc_shift_table *shift) {
    unsigned char *d = *dp;
    const unsigned char *p = *pp;
    size_t len = *lenp;
    while (len >= 3 * stride) {
        uint32_t c0 = crc, c1 = 0, c2 = 0;
        const unsigned char *end = p + stride;
        while (p < end) {
            uint64_t v0 = load64(p), v1 = load64(p + stride), v2 = load64(p + 2 * stride);
            store64(d, v0);
            store64(d + stride, v1);
            store64(d + 2 * stride, v2);
#  if defined(__x86_64__)
            c0 = (uint32_t)_mm_crc32_u64(c0, v0);
            c1 = (uint32_t)_mm_crc32_u64(c1, v1);
            c2 = (uint32_t)_mm_crc32_u64(c2, v2);
#  else
            c0 = __crc32cd(c0, v0);
            c1 = __crc32cd(c1, v1);
            c2 = __crc32cd(c2, v2);
#  endif
            p += 8;
            d += 8;
        }
        crc = lnote_crc_shift(shift, lnote_crc_shift(shift, c0) ^ c1) ^ c2;
        p += 2 * stride;
        d += 2 * stride;
        len -= 3 * stride;
    }
    *dp = d;
    *pp = p;
    *lenp = len;
    return crc;
}

#  if defined(__x86_64__)
/// `clmul_block` that also copies every byte it reads from `*pp` to `*dp`.
__attribute__((target("sse4.2,pclmul"))) static inline uint32_t
clmul_block_copy(uint32_t crc, unsigned char **dp, const unsigned char **pp, size_t j, const uint32_t *k) {
    unsigned char *d = *dp;
    const unsigned char *p = *pp;
    const size_t stride = 8 * j;
    uint32_t c0 = crc, c1 = 0, c2 = 0;
    for (const unsigned char *end = p + stride; p < end; p += 8, d += 8) {
        uint64_t v0 = load64(p), v1 = load64(p + stride), v2 = load64(p + 2 * stride);
        store64(d, v0);
        store64(d + stride, v1);
        store64(d + 2 * stride, v2);
        c0 = (uint32_t)_mm_crc32_u64(c0, v0);
        c1 = (uint32_t)_mm_crc32_u64(c1, v1);
        c2 = (uint32_t)_mm_crc32_u64(c2, v2);
    }
    *pp = p + 2 * stride;
    *dp = d + 2 * stride;
    return clmul_shift(clmul_shift(c0, k[j]) ^ c1, k[j]) ^ c2;
}

/// `hw_raw_clmul` that also copies the bytes to `d`: the stretches fitted to the buffer, as
/// `lnote_crc32c_hw_extend` checksums. The fixed tiers (`three_streams_copy`, below) leave up
/// to 191 bytes to one stream a byte at a time past the last word, and join each block through
/// the shift tables: callgrind counted the copy of a 2,000-stroke snapshot's points (about
/// 900 bytes a frame) at about 1,810,000 instructions that way, 1,300,000 this way (the
/// snapshot's whole encoding 3,372,321 -> 2,868,008). Instructions, not time: not timed here.
__attribute__((target("sse4.2,pclmul"))) static uint32_t hw_raw_clmul_copy(uint32_t crc, unsigned char *d,
                                                                           const unsigned char *p, size_t len) {
    if (len >= 48) {
        const uint32_t *k = lnote_crc_clmul_shifts_get();
        while (len >= 3 * 8 * LNOTE_CRC_CLMUL_MAX) {
            crc = clmul_block_copy(crc, &d, &p, LNOTE_CRC_CLMUL_MAX, k);
            len -= 3 * 8 * LNOTE_CRC_CLMUL_MAX;
        }
        if (len >= 48) {
            size_t j = len / 24;
            crc = clmul_block_copy(crc, &d, &p, j, k);
            len -= 24 * j;
        }
    }
    // At most 47 bytes left (or the whole of a shorter buffer): copied, then checksummed
    // where they now lie on one stream.
    memcpy(d, p, len);
    return one_stream(crc, d, len);
}
#  endif

#  if defined(__x86_64__)
/// `hw_raw_fold` that also copies the bytes to `d`.
LNOTE_FOLD_TARGET static uint32_t hw_raw_fold_copy(uint32_t crc, unsigned char *d, const unsigned char *p, size_t len) {
    return fold_run(crc, d, p, len, 1);
}
#  endif

uint32_t lnote_crc32c_hw_copy_extend(uint32_t crc, void *dst, const void *src, size_t len) {
    if (len == 0 || dst == NULL || src == NULL) return crc;
#  if defined(__x86_64__)
    if (len >= LNOTE_CRC_FOLD_MIN && lnote_cpu_has_vpclmul()) {
        if (lnote_cpu_has_vpclmul512()) {
            // Copied, then folded where the bytes now lie (still in the cache): one fold loop
            // of each width in the binary instead of two.
            memcpy(dst, src, len);
            return ~hw_raw_fold512(~crc, (const unsigned char *)dst, len);
        }
        return ~hw_raw_fold_copy(~crc, (unsigned char *)dst, (const unsigned char *)src, len);
    }
    if (lnote_cpu_has_pclmul()) return ~hw_raw_clmul_copy(~crc, (unsigned char *)dst, (const unsigned char *)src, len);
#  endif
    return lnote_crc32c_hw_copy_extend_tiers(crc, dst, src, len);
}

uint32_t lnote_crc32c_hw_copy_extend_tiers(uint32_t crc, void *dst, const void *src, size_t len) {
    if (len == 0 || dst == NULL || src == NULL) return crc;
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *p = (const unsigned char *)src;
    uint32_t c = ~crc;
    if (len >= 3 * LNOTE_CRC_SMALLEST_STRIDE) {
        const lnote_crc_shift_tables *t = lnote_crc_shift_tables_get();
        for (int i = 0; i < LNOTE_CRC_STRIDE_COUNT; i++) {
            c = three_streams_copy(c, &d, &p, &len, lnote_crc_strides[i], &t->stride[i]);
        }
    }
    while (len >= 8) {
        uint64_t v = load64(p);
        store64(d, v);
        c = step64(c, p);
        p += 8;
        d += 8;
        len -= 8;
    }
    while (len > 0) {
        *d++ = *p;
        c = step8(c, *p++);
        len--;
    }
    return ~c;
}

#else

uint32_t lnote_crc32c_hw_extend(uint32_t crc, const void *data, size_t len) {
    (void)data;
    (void)len;
    return crc; // Never called: lnote_crc32c_hw_available() returns 0 on this CPU.
}

uint32_t lnote_crc32c_hw_extend_tiers(uint32_t crc, const void *data, size_t len) {
    (void)data;
    (void)len;
    return crc; // Never called, as above.
}

uint32_t lnote_crc32c_hw_extend_streams(uint32_t crc, const void *data, size_t len) {
    (void)data;
    (void)len;
    return crc; // Never called, as above.
}

int lnote_crc32c_hw_folds(void) {
    return 0;
}

uint32_t lnote_crc32c_hw_fold256(uint32_t crc, void *dst, const void *src, size_t len) {
    (void)dst;
    (void)src;
    (void)len;
    return crc; // Never called, as above.
}

uint32_t lnote_crc32c_hw_copy_extend(uint32_t crc, void *dst, const void *src, size_t len) {
    (void)dst;
    (void)src;
    (void)len;
    return crc; // Never called: lnote_crc32c_hw_available() returns 0 on this CPU.
}

uint32_t lnote_crc32c_hw_copy_extend_tiers(uint32_t crc, void *dst, const void *src, size_t len) {
    (void)dst;
    (void)src;
    (void)len;
    return crc; // Never called, as above.
}

#endif
