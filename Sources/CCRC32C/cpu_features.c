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
#endif
