// Run-time CPU feature checks shared by the vector loops and the CRC (cpu_features.h).
#include "cpu_features.h"

#if defined(__x86_64__)
#  include <cpuid.h>
#  if defined(__APPLE__)
#    include <sys/sysctl.h>
#  endif

/// Whether the OS saves the AVX-512 registers (opmask, ZMM), from XCR0 as `xgetbv` read it.
/// macOS turns that state on at a thread's first AVX-512 instruction, so XCR0 says no until
/// then; its kernel says whether it will (`hw.optional.avx512f`, Apple's documented probe).
static int zmm_state_saved(unsigned int xcr0) {
#  if defined(__APPLE__)
    int enabled = 0;
    size_t size = sizeof enabled;
    return (xcr0 & 6) == 6 && sysctlbyname("hw.optional.avx512f", &enabled, &size, NULL, 0) == 0 && enabled != 0;
#  else
    // XCR0 bits 1, 2 (SSE, YMM) and 5-7 (opmask, ZMM 0-15 high halves, ZMM 16-31).
    return (xcr0 & 0xE6) == 0xE6;
#  endif
}

/// `probe()`'s answer, asked once: `*state` is 1 for yes, 2 for no, 0 not asked yet (a benign
/// race: every thread that asks gets the same answer).
static inline int asked_once(int *state, int (*probe)(void)) {
    int c = __atomic_load_n(state, __ATOMIC_RELAXED);
    if (c == 0) {
        c = probe() ? 1 : 2;
        __atomic_store_n(state, c, __ATOMIC_RELAXED);
    }
    return c == 1;
}

/// SSE4.1 and SSSE3.
static int probe_sse41_ssse3(void) {
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_SSE4_1) && (ecx & bit_SSSE3);
}

/// AVX2 usable: the CPU has it (CPUID leaf 7) and the OS saves the YMM registers (XGETBV).
static int probe_avx2(void) {
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!(__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_OSXSAVE) && (ecx & bit_AVX) &&
          __get_cpuid_max(0, 0) >= 7))
        return 0;
    unsigned int lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return (lo & 6) == 6 && (ebx & bit_AVX2);
}

/// AVX2, and AVX-512 F, VL, BW and VBMI usable.
static int probe_avx512vbmi(void) {
    if (!lnote_cpu_has_avx2()) return 0;
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0, lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    int os = zmm_state_saved(lo);
    int cpu = (ebx & bit_AVX512F) && (ebx & bit_AVX512VL) && (ebx & bit_AVX512BW) && (ecx & bit_AVX512VBMI);
    return os && cpu;
}

/// The above, and AVX-512 VBMI2 and BMI2.
static int probe_avx512vbmi2_bmi2(void) {
    if (!lnote_cpu_has_avx512vbmi()) return 0;
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return (ecx & bit_AVX512VBMI2) && (ebx & bit_BMI2);
}

/// PCLMULQDQ.
static int probe_pclmul(void) {
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_PCLMUL);
}

/// AVX2 usable (YMM state saved), SSE4.2, PCLMULQDQ and VPCLMULQDQ (CPUID leaf 7, ECX bit 10).
static int probe_vpclmul(void) {
    if (!lnote_cpu_has_avx2() || !lnote_cpu_has_pclmul()) return 0;
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!(__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_SSE4_2))) return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return (ecx & bit_VPCLMULQDQ) != 0;
}

/// The above, and AVX-512 F and VL usable (the OS saves the opmask and ZMM registers).
static int probe_vpclmul512(void) {
    if (!lnote_cpu_has_vpclmul()) return 0;
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0, lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return zmm_state_saved(lo) && (ebx & bit_AVX512F) && (ebx & bit_AVX512VL);
}

static int sse41_ssse3 = 0, avx2 = 0, avx512vbmi = 0, avx512vbmi2 = 0, pclmul = 0, vpclmul = 0, vpclmul512 = 0;

int lnote_cpu_has_sse41_ssse3(void) {
    return asked_once(&sse41_ssse3, probe_sse41_ssse3);
}
int lnote_cpu_has_avx2(void) {
    return asked_once(&avx2, probe_avx2);
}
int lnote_cpu_has_avx512vbmi(void) {
    return asked_once(&avx512vbmi, probe_avx512vbmi);
}
int lnote_cpu_has_avx512vbmi2_bmi2(void) {
    return asked_once(&avx512vbmi2, probe_avx512vbmi2_bmi2);
}
int lnote_cpu_has_pclmul(void) {
    return asked_once(&pclmul, probe_pclmul);
}
int lnote_cpu_has_vpclmul(void) {
    return asked_once(&vpclmul, probe_vpclmul);
}
int lnote_cpu_has_vpclmul512(void) {
    return asked_once(&vpclmul512, probe_vpclmul512);
}
#endif
