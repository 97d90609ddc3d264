#ifndef CCRC32C_H
#define CCRC32C_H
#include <stddef.h>
#include <stdint.h>
/// Returns 1 when the CPU has a CRC-32C instruction this target can use.
int lnote_crc32c_hw_available(void);
/// Extends `crc` (a finished CRC-32C value) over `len` bytes using the hardware instruction.
/// Only call when lnote_crc32c_hw_available() returned 1.
uint32_t lnote_crc32c_hw_extend(uint32_t crc, const void *data, size_t len);
#endif
