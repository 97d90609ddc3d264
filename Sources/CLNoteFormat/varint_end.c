// The load-time structure check of a deferred stroke's points (Spec/format.md E-006), in one
// call (`lnote_varint_end`, varint_end.h): where the stroke's `need` varints end when they are
// plain. Per 64-byte block one continuation mask (four SSE2 `pmovmskb` on x86-64, two AVX2
// `vpmovmskb` where the CPU and OS allow, one multiply per 8-byte word elsewhere) and one
// population count, up to the block holding the last terminator, found there by a select;
// no byte is walked one at a time. The baseline x86-64 target has no `popcnt` or AVX2, so the
// loop is compiled once per instruction set and the CPU is asked once, through CPUID (and
// XGETBV), which one to use; the package needs no unsafeFlags. On arm64
// `__builtin_popcountll` is a native instruction.
#include "lnote_format.h"

#include <string.h>

#if defined(__x86_64__)
#  include <cpuid.h>
#  include <emmintrin.h>
#  include <immintrin.h>
#endif

/// Bit i of the result is set when byte i of the 64 bytes at `p` is >= 0x80; 8-byte words,
/// one multiply each.
static inline __attribute__((always_inline)) uint64_t continuation_mask_words(const uint8_t *p) {
    uint64_t m = 0;
    for (int k = 0; k < 8; k++) {
        uint64_t w;
        memcpy(&w, p + 8 * k, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        // Lane i (bit 8i) times 0x0102040810204080 lands on bit 56 + i alone (no carries).
        uint64_t lanes = (w >> 7) & 0x0101010101010101ULL;
        m |= ((lanes * 0x0102040810204080ULL) >> 56) << (8 * k);
    }
    return m;
}

#if defined(__x86_64__)
/// The same with SSE2 (in the x86-64 baseline): four `pmovmskb`.
static inline __attribute__((always_inline)) uint64_t continuation_mask_sse2(const uint8_t *p) {
    uint64_t a = (uint16_t)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)p));
    uint64_t b = (uint16_t)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16)));
    uint64_t c = (uint16_t)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 32)));
    uint64_t d = (uint16_t)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 48)));
    return a | b << 16 | c << 32 | d << 48;
}
#endif

#if defined(__x86_64__)
/// 1 with `popcnt`, 2 without, 0 not asked yet (a benign race: every thread gets the same).
static int popcnt_choice = 0;

static int popcnt_choose(void) {
    int c = __atomic_load_n(&popcnt_choice, __ATOMIC_RELAXED);
    if (c != 0) return c;
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    c = (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_POPCNT)) ? 1 : 2;
    __atomic_store_n(&popcnt_choice, c, __ATOMIC_RELAXED);
    return c;
}
#endif

#include "varint_end.h"

/// Index of the set bit of rank `r` (0-based) of `t`; requires r < popcount(t). Six halving
/// steps by population count, without branches (a loop over the bits mispredicts its exit
/// once a stroke).
static inline __attribute__((always_inline)) unsigned select_bit(uint64_t t, unsigned r) {
    unsigned k = 0;
    for (unsigned w = 32; w > 0; w >>= 1) {
        unsigned c = (unsigned)__builtin_popcountll(t & ((1ULL << w) - 1));
        unsigned up = (unsigned)(r >= c); // the bit lies in the upper half
        unsigned s = up * w;
        r -= up * c;
        k += s;
        t >>= s;
    }
    return k;
}

/// Bits i..i+3 of `m` set for some i that is a multiple of 4: 4 bytes >= 0x80 in a row.
static inline __attribute__((always_inline)) uint64_t aligned_fours(uint64_t m) {
    uint64_t r = m & (m >> 1);
    return r & (r >> 2) & 0x1111111111111111ULL;
}

/// The loop of `lnote_varint_end`, one function per mask (`MASK(p)`: the continuation bits
/// of the 64 bytes at p): the masks need their own instruction sets, which a function may only
/// inline into another compiled with them.
#define DEFINE_VARINT_END(name, attributes, MASK)                                                                      \
  attributes static size_t name(const uint8_t *p, size_t n, size_t need) {                                             \
    size_t at = 0;                                                                                                     \
    uint64_t fours = 0;                                                                                                \
    for (;;) {                                                                                                         \
      uint64_t m;                                                                                                      \
      size_t valid = 64;                                                                                               \
      if (n - at >= 64) {                                                                                              \
        m = MASK(p + at);                                                                                              \
      } else if (n - at == 0) {                                                                                        \
        return 0;                                                                                                      \
      } else if (n >= 64) {                                                                                            \
        /* The last bytes, as the top bits of the mask of the last 64 bytes (no copy: \
                   a copy's narrow stores then wide loads stall), the bits past them set:     \
                   continuation bytes, never a terminator. */                                \
        valid = n - at;                                                                                                \
        m = MASK(p + n - 64) >> (64 - valid) | ~0ULL << valid;                                                         \
      } else {                                                                                                         \
        /* A buffer shorter than one block, padded the same way. */                                                    \
        uint8_t last[64];                                                                                              \
        valid = n - at;                                                                                                \
        memset(last, 0x80, sizeof last);                                                                               \
        memcpy(last, p + at, valid);                                                                                   \
        m = MASK(last);                                                                                                \
      }                                                                                                                \
      uint64_t t = ~m;                                                                                                 \
      size_t c = (size_t)__builtin_popcountll(t);                                                                      \
      if (c >= need) {                                                                                                 \
        unsigned k = select_bit(t, (unsigned)(need - 1));                                                              \
        uint64_t before = k == 63 ? ~0ULL : ((1ULL << (k + 1)) - 1);                                                   \
        fours |= aligned_fours(m & before);                                                                            \
        return fours != 0 ? 0 : at + k + 1;                                                                            \
      }                                                                                                                \
      fours |= aligned_fours(m);                                                                                       \
      if (valid < 64 || fours != 0) return 0;                                                                          \
      need -= c;                                                                                                       \
      at += 64;                                                                                                        \
    }                                                                                                                  \
  }

DEFINE_VARINT_END(end_words, , continuation_mask_words)

#if defined(__x86_64__)
DEFINE_VARINT_END(end_popcnt, __attribute__((target("popcnt"))), continuation_mask_sse2)
DEFINE_VARINT_END(end_sse2, , continuation_mask_sse2)

/// 32 bytes a `vpmovmskb`: two per block.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint64_t
continuation_mask_avx2(const uint8_t *p) {
    uint64_t a = (uint32_t)_mm256_movemask_epi8(_mm256_loadu_si256((const __m256i *)(const void *)p));
    uint64_t b = (uint32_t)_mm256_movemask_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(p + 32)));
    return a | b << 32;
}

DEFINE_VARINT_END(end_avx2, __attribute__((target("avx2,popcnt"))), continuation_mask_avx2)

/// AVX2 usable: the CPU has it (CPUID leaf 7) and the OS saves the YMM registers (XGETBV).
static int cpu_has_avx2(void) {
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    if (!(ecx & bit_OSXSAVE) || !(ecx & bit_AVX) || !(ecx & bit_POPCNT)) return 0;
    unsigned int lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    if ((lo & 6) != 6) return 0;
    if (__get_cpuid_max(0, NULL) < 7) return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return (ebx & bit_AVX2) != 0;
}

/// 3 with AVX2, else `popcnt_choose()`; 0 not asked yet (a benign race, as above).
static int end_choice = 0;

static int end_choose(void) {
    int c = __atomic_load_n(&end_choice, __ATOMIC_RELAXED);
    if (c != 0) return c;
    c = cpu_has_avx2() ? 3 : popcnt_choose();
    __atomic_store_n(&end_choice, c, __ATOMIC_RELAXED);
    return c;
}
#endif

size_t lnote_varint_end(const uint8_t *p, size_t n, size_t need) {
    if (p == NULL || need == 0) return 0;
#if defined(__x86_64__)
    switch (end_choose()) {
    case 3:
        return end_avx2(p, n, need);
    case 1:
        return end_popcnt(p, n, need);
    default:
        return end_sse2(p, n, need);
    }
#else
    return end_words(p, n, need);
#endif
}

size_t lnote_varint_end_variant(const uint8_t *p, size_t n, size_t need, int variant) {
    if (p == NULL || need == 0) return 0;
#if defined(__x86_64__)
    switch (variant) {
    case 1:
        if (popcnt_choose() == 1) return end_popcnt(p, n, need);
        break;
    case 2:
        return end_sse2(p, n, need);
    case 3:
        if (end_choose() == 3) return end_avx2(p, n, need);
        break;
    default:
        break;
    }
#else
    (void)variant;
#endif
    return end_words(p, n, need);
}
