#ifndef LNOTE_FORMAT_H
#define LNOTE_FORMAT_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
/// Returns 1 when the CPU has a CRC-32C instruction this target can use.
int lnote_crc32c_hw_available(void);
/// Extends `crc` (a finished CRC-32C value) over `len` bytes using the hardware instruction.
/// Only call when lnote_crc32c_hw_available() returned 1.
uint32_t lnote_crc32c_hw_extend(uint32_t crc, const void *data, size_t len);
/// `lnote_crc32c_hw_extend` with the streams of fixed sizes only, also where the CPU has
/// PCLMULQDQ (a test hook: both must agree). Only call when lnote_crc32c_hw_available() returned 1.
uint32_t lnote_crc32c_hw_extend_tiers(uint32_t crc, const void *data, size_t len);
/// `lnote_crc32c_hw_extend` on the streams of `crc32` only, also where the CPU can fold with
/// VPCLMULQDQ (a test hook: both must agree). Only call when lnote_crc32c_hw_available() returned 1.
uint32_t lnote_crc32c_hw_extend_streams(uint32_t crc, const void *data, size_t len);
/// The width in bits of the registers `lnote_crc32c_hw_extend` folds buffers of 256 bytes or
/// more in with VPCLMULQDQ on x86-64: 512 (with AVX-512 F and VL), 256 (with AVX2), else 0.
int lnote_crc32c_hw_folds(void);
/// The 256-bit fold (a test hook, also where the CPU folds 512 bits; the streams of `crc32`
/// where it folds neither): `lnote_crc32c_hw_copy_extend` when `dst` is not NULL, else
/// `lnote_crc32c_hw_extend` of `src`. Only call when lnote_crc32c_hw_available() returned 1.
uint32_t lnote_crc32c_hw_fold256(uint32_t crc, void *dst, const void *src, size_t len);
/// Copies `len` bytes from `src` to `dst` (not overlapping) and returns
/// lnote_crc32c_hw_extend(crc, src, len): one pass that loads each word once. Only call when
/// lnote_crc32c_hw_available() returned 1.
uint32_t lnote_crc32c_hw_copy_extend(uint32_t crc, void *dst, const void *src, size_t len);
/// `lnote_crc32c_hw_copy_extend` with the streams of fixed sizes only, also where the CPU has
/// PCLMULQDQ (a test hook: both must agree). Only call when lnote_crc32c_hw_available() returned 1.
uint32_t lnote_crc32c_hw_copy_extend_tiers(uint32_t crc, void *dst, const void *src, size_t len);
/// The running values of a stroke's point decode (Spec/format.md E-001): the last point's
/// fields and the x, y and time velocities, each in its range of section 6.1.
typedef struct lnote_point_acc {
    int64_t x, y, vx, vy, radius, pressure, time, vt, azimuth, altitude;
} lnote_point_acc;
/// Decodes up to `count` points from `base[*pos ..< end]` into `out` (20-byte points: x i32,
/// y i32, radius u16, pressure u16, time u32, azimuth u16, altitude u16) while each point is
/// plain: every field a minimal varint of at most 3 bytes, every value in range, time not
/// decreasing, all its bytes before `end`. Stops before the first other point; returns the
/// points written, advances `*pos` past them and updates `*acc`. Reads only
/// `base[*pos ..< end]`; writes only `out[0 ..< count]`. Never fails: what it leaves, the
/// caller decodes. On x86-64 it runs an AVX2 build when CPUID reports AVX2 (and the OS saves
/// its registers), else an SSE4.1 build when CPUID reports SSE4.1 and SSSE3; the AVX2 build
/// takes strokes without angles in an AVX-512 block where CPUID reports AVX-512 F, VL, BW and
/// VBMI (and the OS saves their registers).
size_t lnote_points_decode_plain(const uint8_t *base, size_t end, size_t *pos, void *out, size_t count, int has_angles,
                                 lnote_point_acc *acc);
/// A whole stroke's `count` points (Spec/format.md E-001 ... E-003) from the `len` codec bytes
/// at `p` into `out` (room for `count` points) when every point is plain: point 0's fields
/// minimal varints of at most 5 bytes in range with time 0, the others as
/// `lnote_points_decode_plain` takes them, and the last ending exactly at `len`. Returns 1
/// then, the points being those the reference decoder gives; 0 for any other bytes, with
/// `out` holding an unspecified prefix (the caller decodes them on the exact path, which finds
/// the error). Reads only `p[0 ..< len]`.
int lnote_points_decode_stroke(const uint8_t *p, size_t len, size_t count, int has_angles, void *out);
/// The same loop without the AVX-512 block (the AVX2 build's own block where the CPU has
/// AVX2), so tests on an AVX-512 CPU check that block too. A test hook.
size_t lnote_points_decode_plain_avx2(const uint8_t *base, size_t end, size_t *pos, void *out, size_t count,
                                      int has_angles, lnote_point_acc *acc);
/// The same loop without the AVX2 build (SSE4.1 where the CPU has it; on x86-64 without
/// SSE4.1 and SSSE3 it decodes nothing and returns 0, leaving every point to the caller's own
/// loop), so tests on an AVX2 CPU check the 128-bit build too. A test hook.
size_t lnote_points_decode_plain_narrow(const uint8_t *base, size_t end, size_t *pos, void *out, size_t count,
                                        int has_angles, lnote_point_acc *acc);
/// The same loop compiled for the target's baseline only (NEON on arm64; on x86-64, which has
/// no baseline build, the same as `lnote_points_decode_plain_narrow`). A test hook.
size_t lnote_points_decode_plain_baseline(const uint8_t *base, size_t end, size_t *pos, void *out, size_t count,
                                          int has_angles, lnote_point_acc *acc);
/// Encodes points `from ..< to` (`from` >= 2) of the 20-byte points at `points` (the layout
/// above) in the encoding of E-001, byte for byte as the reference encoder: "plain" points
/// (every field a one-byte varint, the values of the point and the two before it in the range
/// where 32-bit lanes are exact: x, y in [-2^29, 2^29), time below 2^30, radius, pressure and
/// angles below 2^15) in vector lanes, any other with 64-bit scalar arithmetic. Writes at most
/// `room` bytes at `out` and stops before a point that might not fit (it needs 35 bytes of
/// room); returns the points written and sets `*written` to their bytes. Reads only points
/// `from - 2 ..< to`. Returns 0 (and `*written` 0) for arguments out of this contract and on a
/// big-endian target. On x86-64 it runs four points a step where CPUID reports AVX-512 F, VL,
/// BW and VBMI (and the OS saves their registers), taking points of two-byte fields in the
/// step too where it also reports VBMI2 and BMI2, else an SSE4.1 build when it reports SSE4.1
/// and SSSE3, else (no x86-64 CPU made since about 2013) it writes nothing and returns 0.
size_t lnote_points_encode(const void *points, size_t from, size_t to, int has_angles, uint8_t *out, size_t room,
                           size_t *written);
/// The same without the AVX-512 build (SSE4.1 where the CPU has it; on x86-64 without SSE4.1
/// and SSSE3 it writes nothing and returns 0), so tests on an AVX-512 CPU check the 128-bit
/// build too. A test hook.
size_t lnote_points_encode_narrow(const void *points, size_t from, size_t to, int has_angles, uint8_t *out, size_t room,
                                  size_t *written);
/// The same compiled for the target's baseline only (a test hook, as for the decoder: on
/// x86-64 the same as `lnote_points_encode_narrow`).
size_t lnote_points_encode_baseline(const void *points, size_t from, size_t to, int has_angles, uint8_t *out,
                                    size_t room, size_t *written);
/// 1 when the `count` bytes at `a` and `b` are equal (memcmp), else 0. Inline, so the Swift
/// that calls it (BytesEqual.swift) compares with the C library's memcmp without naming the
/// platform's C module itself.
static inline int lnote_bytes_equal(const void *a, const void *b, size_t count) {
    return count == 0 || memcmp(a, b, count) == 0;
}
#endif
