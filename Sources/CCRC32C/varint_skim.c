// Bulk varint terminator count for the deferred-points structure check (Spec/format.md
// E-006): counts bytes < 0x80 in whole 64-byte blocks and notes any run of 10 or more
// bytes >= 0x80 (a varint longer than G-003 allows), so Swift only walks the last bytes
// one by one.
//
// Speed: per 64-byte block one continuation mask (four SSE2 `pmovmskb` on x86-64, one
// multiply per 8-byte word elsewhere), one population count and four instructions that
// note a varint of 5 or more bytes (only then are runs of 10 checked exactly, in a second
// pass); no branch in the loop depends on the data. The baseline x86-64 target has no
// `popcnt`, so the block loop is compiled twice (with `target("popcnt")` and without) and
// the CPU is asked once, through CPUID, which one to use; the package needs no unsafeFlags. On arm64
// `__builtin_popcountll` is a native instruction.
//
// `lnote_varint_end` (varint_end.h, what the engine calls: issue 16) runs the same block loop to
// the block holding the last terminator and finds it there by a select, so no byte is walked one
// at a time; on x86-64 with AVX2 (asked once, through CPUID and XGETBV) two `vpmovmskb` a block.
#include "ccrc32c.h"

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

/// Nonzero when `x` has 10 consecutive set bits (bit i ... i + 9 for some i).
static inline __attribute__((always_inline)) uint64_t run_of_ten(uint64_t x) {
    uint64_t r = x & (x >> 1);  // bits i, i+1
    r &= r >> 2;                // i ... i+3
    r &= r >> 4;                // i ... i+7
    r &= r >> 2;                // i ... i+9
    return r;
}

/// The block loop; compiled into each variant below with that variant's instructions.
#if defined(__x86_64__)
#  define CONTINUATION_MASK(p, sse2) ((sse2) ? continuation_mask_sse2(p) : continuation_mask_words(p))
#else
#  define CONTINUATION_MASK(p, sse2) continuation_mask_words(p)
#endif

/// The block loop; `sse2` is a constant in every caller (the function is always inlined).
///
/// A run of 10 covers some aligned group of 4 bytes (groups tile the stream, blocks included,
/// and 10 >= 2 * 4 - 1), so the loop only notes groups of 4 bytes >= 0x80, a varint of 5 or
/// more bytes (never in real strokes: it holds a value >= 2^28), in 4 instructions a block.
/// When it saw one, a second pass over the same blocks looks for runs of 10 exactly.
static inline __attribute__((always_inline)) size_t skim_blocks(const uint8_t *p, size_t n, size_t need,
                                                                size_t *terminators, int *long_run, int sse2) {
    size_t done = 0, terms = 0;
    uint64_t fours = 0;
    while (n - done >= 64 && terms + 64 < need) {
        uint64_t m = CONTINUATION_MASK(p + done, sse2);
        terms += 64 - (size_t)__builtin_popcountll(m);
        uint64_t r = m & (m >> 1);
        fours |= r & (r >> 2);  // bit i: bytes i ... i+3 are >= 0x80
        done += 64;
    }
    uint64_t runs = 0;
    if ((fours & 0x1111111111111111ULL) != 0) {
        uint64_t prev = 0;
        for (size_t at = 0; at < done; at += 64) {
            uint64_t m = CONTINUATION_MASK(p + at, sse2);
            // Runs inside the block, and runs ending in its first 9 bytes that started in the
            // previous block (its top 9 bits prepended); longer runs have 10 bits inside.
            runs |= run_of_ten(m) | run_of_ten(m << 9 | prev >> 55);
            prev = m;
        }
    }
    *terminators = terms;
    *long_run = runs != 0;
    return done;
}

/// 8-byte words and the compiler's population count (a native instruction on arm64).
static size_t skim_words(const uint8_t *p, size_t n, size_t need, size_t *terminators, int *long_run) {
    return skim_blocks(p, n, need, terminators, long_run, 0);
}

#if defined(__x86_64__)
__attribute__((target("popcnt")))
static size_t skim_popcnt(const uint8_t *p, size_t n, size_t need, size_t *terminators, int *long_run) {
    return skim_blocks(p, n, need, terminators, long_run, 1);
}

/// SSE2 masks, population count without `popcnt` (CPUs older than 2008).
static size_t skim_sse2(const uint8_t *p, size_t n, size_t need, size_t *terminators, int *long_run) {
    return skim_blocks(p, n, need, terminators, long_run, 1);
}

/// 1 with `popcnt`, 2 without, 0 not asked yet (a benign race: every thread gets the same).
static int skim_choice = 0;

static int skim_choose(void) {
    int c = __atomic_load_n(&skim_choice, __ATOMIC_RELAXED);
    if (c != 0) return c;
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    c = (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_POPCNT)) ? 1 : 2;
    __atomic_store_n(&skim_choice, c, __ATOMIC_RELAXED);
    return c;
}
#endif

size_t lnote_varint_skim(const uint8_t *p, size_t n, size_t need, size_t *terminators, int *long_run) {
    *terminators = 0;
    *long_run = 0;
    if (p == NULL) return 0;
#if defined(__x86_64__)
    return skim_choose() == 1 ? skim_popcnt(p, n, need, terminators, long_run)
                              : skim_sse2(p, n, need, terminators, long_run);
#else
    return skim_words(p, n, need, terminators, long_run);
#endif
}

size_t lnote_varint_skim_portable(const uint8_t *p, size_t n, size_t need, size_t *terminators, int *long_run) {
    *terminators = 0;
    *long_run = 0;
    if (p == NULL) return 0;
    return skim_words(p, n, need, terminators, long_run);
}

// ---------------------------------------------------------------------------------------
// The whole structure check of a plain stroke in one call (varint_end.h): the block loop of
// the skim up to the block holding the `need`-th terminator, found there by a select of the
// terminator mask, so no byte is walked one at a time.

#include "varint_end.h"

/// Index of the set bit of rank `r` (0-based) of `t`; requires r < popcount(t). Six halving
/// steps by population count, without branches (a loop over the bits mispredicts its exit
/// once a stroke).
static inline __attribute__((always_inline)) unsigned select_bit(uint64_t t, unsigned r) {
    unsigned k = 0;
    for (unsigned w = 32; w > 0; w >>= 1) {
        unsigned c = (unsigned)__builtin_popcountll(t & ((1ULL << w) - 1));
        unsigned up = (unsigned)(r >= c);  // the bit lies in the upper half
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
#define DEFINE_VARINT_END(name, attributes, MASK)                                              \
    attributes static size_t name(const uint8_t *p, size_t n, size_t need) {                   \
        size_t at = 0;                                                                        \
        uint64_t fours = 0;                                                                   \
        for (;;) {                                                                            \
            uint64_t m;                                                                       \
            size_t valid = 64;                                                                \
            if (n - at >= 64) {                                                               \
                m = MASK(p + at);                                                             \
            } else if (n - at == 0) {                                                         \
                return 0;                                                                     \
            } else if (n >= 64) {                                                             \
                /* The last bytes, as the top bits of the mask of the last 64 bytes (no copy: \
                   a copy's narrow stores then wide loads stall), the bits past them set:     \
                   continuation bytes, never a terminator. */                                 \
                valid = n - at;                                                               \
                m = MASK(p + n - 64) >> (64 - valid) | ~0ULL << valid;                        \
            } else {                                                                          \
                /* A buffer shorter than one block, padded the same way. */                   \
                uint8_t last[64];                                                             \
                valid = n - at;                                                               \
                memset(last, 0x80, sizeof last);                                              \
                memcpy(last, p + at, valid);                                                  \
                m = MASK(last);                                                               \
            }                                                                                 \
            uint64_t t = ~m;                                                                  \
            size_t c = (size_t)__builtin_popcountll(t);                                       \
            if (c >= need) {                                                                  \
                unsigned k = select_bit(t, (unsigned)(need - 1));                             \
                uint64_t before = k == 63 ? ~0ULL : ((1ULL << (k + 1)) - 1);                  \
                fours |= aligned_fours(m & before);                                           \
                return fours != 0 ? 0 : at + k + 1;                                           \
            }                                                                                 \
            fours |= aligned_fours(m);                                                        \
            if (valid < 64 || fours != 0) return 0;                                           \
            need -= c;                                                                        \
            at += 64;                                                                         \
        }                                                                                     \
    }

DEFINE_VARINT_END(end_words, , continuation_mask_words)

#if defined(__x86_64__)
DEFINE_VARINT_END(end_popcnt, __attribute__((target("popcnt"))), continuation_mask_sse2)
DEFINE_VARINT_END(end_sse2, , continuation_mask_sse2)

/// 32 bytes a `vpmovmskb`: two per block.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint64_t continuation_mask_avx2(const uint8_t *p) {
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

/// 3 with AVX2, else `skim_choose()`; 0 not asked yet (a benign race, as for the skim).
static int end_choice = 0;

static int end_choose(void) {
    int c = __atomic_load_n(&end_choice, __ATOMIC_RELAXED);
    if (c != 0) return c;
    c = cpu_has_avx2() ? 3 : skim_choose();
    __atomic_store_n(&end_choice, c, __ATOMIC_RELAXED);
    return c;
}
#endif

size_t lnote_varint_end(const uint8_t *p, size_t n, size_t need) {
    if (p == NULL || need == 0) return 0;
#if defined(__x86_64__)
    switch (end_choose()) {
    case 3: return end_avx2(p, n, need);
    case 1: return end_popcnt(p, n, need);
    default: return end_sse2(p, n, need);
    }
#else
    return end_words(p, n, need);
#endif
}

size_t lnote_varint_end_variant(const uint8_t *p, size_t n, size_t need, int variant) {
    if (p == NULL || need == 0) return 0;
#if defined(__x86_64__)
    switch (variant) {
    case 1: if (skim_choose() == 1) return end_popcnt(p, n, need); break;
    case 2: return end_sse2(p, n, need);
    case 3: if (end_choose() == 3) return end_avx2(p, n, need); break;
    default: break;
    }
#else
    (void)variant;
#endif
    return end_words(p, n, need);
}
