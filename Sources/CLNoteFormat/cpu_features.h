// Run-time CPU feature checks shared by the vector loops and the CRC of CLNoteFormat (x86-64 only). Private to
// the CLNoteFormat target.
#ifndef LNOTE_CPU_FEATURES_H
#define LNOTE_CPU_FEATURES_H

#if defined(__x86_64__)
/// 1 when the CPU has SSE4.1 and SSSE3 (the point decoder's and encoder's faster builds),
/// else 0. CPUID is asked once; later calls read the cached answer.
int lnote_cpu_has_sse41_ssse3(void);
/// 1 when AVX2 is usable (the CPU has it and the OS saves the YMM registers): the point
/// decoder's widest build. Asked once, as above.
int lnote_cpu_has_avx2(void);
/// 1 when AVX2 and AVX-512 F, VL, BW and VBMI are usable (the CPU has them and the OS saves the
/// YMM, opmask and ZMM registers): the point decoder's AVX-512 block. Asked once, as above.
int lnote_cpu_has_avx512vbmi(void);
/// 1 when, beyond that, the CPU has AVX-512 VBMI2 and BMI2 (the point encoder's byte compress
/// and `pdep`). Asked once, as above.
int lnote_cpu_has_avx512vbmi2_bmi2(void);
/// 1 when the CPU has PCLMULQDQ (CPUID leaf 1, ECX bit 1): the CRC's joins of its three
/// streams. Asked once, as above.
int lnote_cpu_has_pclmul(void);
/// 1 when AVX2, SSE4.2, PCLMULQDQ and VPCLMULQDQ are usable: the CRC's folding of long
/// buffers, two 128-bit carry-less products a YMM instruction. Asked once, as above.
int lnote_cpu_has_vpclmul(void);
/// 1 when, beyond that, AVX-512 F and VL are usable (the OS saves the opmask and ZMM
/// registers): the CRC's folding on ZMM registers, four products an instruction. Asked once.
int lnote_cpu_has_vpclmul512(void);
#endif

#endif
