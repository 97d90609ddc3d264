#ifndef CCRC32C_H
#define CCRC32C_H
#include <stddef.h>
#include <stdint.h>
/// Returns 1 when the CPU has a CRC-32C instruction this target can use.
int lnote_crc32c_hw_available(void);
/// Extends `crc` (a finished CRC-32C value) over `len` bytes using the hardware instruction.
/// Only call when lnote_crc32c_hw_available() returned 1.
uint32_t lnote_crc32c_hw_extend(uint32_t crc, const void *data, size_t len);
/// Counts varint terminators (bytes < 0x80) in whole 64-byte blocks at `p` (Spec/format.md
/// E-006): consumes blocks while a whole block remains of the `n` bytes and more than 64
/// terminators are still needed of `need`, so the `need`-th terminator always lies beyond
/// the bytes consumed. Returns the bytes consumed (a multiple of 64), stores the
/// terminators among them in `*terminators`, and sets `*long_run` to 1 when those bytes hold
/// a run of 10 or more bytes >= 0x80 (else 0). Reads only `p[0 ..< returned]`.
size_t lnote_varint_skim(const uint8_t *p, size_t n, size_t need, size_t *terminators, int *long_run);
/// The same with the portable variant (8-byte words, a multiply each; what arm64 runs), so
/// tests on x86-64 check it too. A test hook.
size_t lnote_varint_skim_portable(const uint8_t *p, size_t n, size_t need, size_t *terminators, int *long_run);
#endif
