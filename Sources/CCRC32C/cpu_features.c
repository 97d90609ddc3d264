// Run-time CPU feature checks shared by the vector loops (cpu_features.h).
#include "cpu_features.h"

#if defined(__x86_64__)
#include <cpuid.h>

/// 1 with SSE4.1 and SSSE3, 2 without, 0 not asked yet (a benign race: every thread gets the same).
static int sse41_ssse3 = 0;

int lnote_cpu_has_sse41_ssse3(void) {
    int c = __atomic_load_n(&sse41_ssse3, __ATOMIC_RELAXED);
    if (c == 0) {
        unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
        c = (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_SSE4_1) && (ecx & bit_SSSE3)) ? 1 : 2;
        __atomic_store_n(&sse41_ssse3, c, __ATOMIC_RELAXED);
    }
    return c == 1;
}

/// 1 with AVX2 usable (the CPU has it, CPUID leaf 7, and the OS saves the YMM registers,
/// XGETBV), 2 without, 0 not asked yet (the same benign race).
static int avx2 = 0;

int lnote_cpu_has_avx2(void) {
    int c = __atomic_load_n(&avx2, __ATOMIC_RELAXED);
    if (c == 0) {
        unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
        c = 2;
        if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_OSXSAVE) && (ecx & bit_AVX)
            && __get_cpuid_max(0, 0) >= 7) {
            unsigned int lo = 0, hi = 0;
            __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            (void)hi;
            __cpuid_count(7, 0, eax, ebx, ecx, edx);
            if ((lo & 6) == 6 && (ebx & bit_AVX2)) c = 1;
        }
        __atomic_store_n(&avx2, c, __ATOMIC_RELAXED);
    }
    return c == 1;
}

/// 1 with AVX-512 F, VL, BW and VBMI usable, 2 without, 0 not asked yet (the same benign race).
static int avx512vbmi = 0;

int lnote_cpu_has_avx512vbmi(void) {
    int c = __atomic_load_n(&avx512vbmi, __ATOMIC_RELAXED);
    if (c == 0) {
        c = 2;
        if (lnote_cpu_has_avx2()) {
            unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0, lo = 0, hi = 0;
            __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            (void)hi;
            __cpuid_count(7, 0, eax, ebx, ecx, edx);
            // XCR0 bits 1, 2 (SSE, YMM) and 5-7 (opmask, ZMM 0-15 high halves, ZMM 16-31).
            int os = (lo & 0xE6) == 0xE6;
            int cpu = (ebx & bit_AVX512F) && (ebx & bit_AVX512VL) && (ebx & bit_AVX512BW) && (ecx & bit_AVX512VBMI);
            if (os && cpu) c = 1;
        }
        __atomic_store_n(&avx512vbmi, c, __ATOMIC_RELAXED);
    }
    return c == 1;
}
/// 1 with AVX-512 VBMI2 and BMI2 as well, 2 without, 0 not asked yet (the same benign race).
static int avx512vbmi2 = 0;

int lnote_cpu_has_avx512vbmi2_bmi2(void) {
    int c = __atomic_load_n(&avx512vbmi2, __ATOMIC_RELAXED);
    if (c == 0) {
        c = 2;
        if (lnote_cpu_has_avx512vbmi()) {
            unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
            __cpuid_count(7, 0, eax, ebx, ecx, edx);
            if ((ecx & bit_AVX512VBMI2) && (ebx & bit_BMI2)) c = 1;
        }
        __atomic_store_n(&avx512vbmi2, c, __ATOMIC_RELAXED);
    }
    return c == 1;
}
#endif
