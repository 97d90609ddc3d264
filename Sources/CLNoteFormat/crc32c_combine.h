// Joining CRC-32C streams: `shift` advances a raw CRC register over a fixed number of zero
// bytes with four table lookups, so three independently computed stretches can be joined
// (crc32c_hw.c). Private to the CLNoteFormat target.
#ifndef LNOTE_CRC32C_COMBINE_H
#define LNOTE_CRC32C_COMBINE_H
#include <stddef.h>
#include <stdint.h>

/// Bytes per stream in the block sizes the hardware path uses, largest first (multiples
/// of 8). Smaller tiers keep the tail of a few-KB frame off the slow single stream.
#define LNOTE_CRC_STRIDE_COUNT 4
static const size_t lnote_crc_strides[LNOTE_CRC_STRIDE_COUNT] = {4096, 256, 128, 64};
#define LNOTE_CRC_SMALLEST_STRIDE 64

/// Four 256-entry tables: entry [j][b] is the register `b << 8j` advanced over the stride.
typedef struct {
    uint32_t t[4][256];
} lnote_crc_shift_table;

typedef struct {
    lnote_crc_shift_table stride[LNOTE_CRC_STRIDE_COUNT];
} lnote_crc_shift_tables;

/// The tables, built once on first use (thread-safe, about 50 microseconds; 16 KiB).
const lnote_crc_shift_tables *lnote_crc_shift_tables_get(void);

/// Blocks of `hw_raw_clmul` (crc32c_hw.c, x86-64 with PCLMULQDQ) have streams of 8 * j bytes,
/// 1 <= j <= LNOTE_CRC_CLMUL_MAX.
#define LNOTE_CRC_CLMUL_MAX 512

/// Entry j (1 ... LNOTE_CRC_CLMUL_MAX) is x^(64 j - 33) mod the polynomial, reflected: a
/// register carry-less multiplied by it and reduced by one `crc32` of the product is the
/// register advanced over 8 j zero bytes. Built once on first use (thread-safe, 2 KiB).
const uint32_t *lnote_crc_clmul_shifts_get(void);

/// The raw register `crc` advanced over the table's stride of zero bytes.
static inline uint32_t lnote_crc_shift(const lnote_crc_shift_table *s, uint32_t crc) {
    return s->t[0][crc & 0xFF] ^ s->t[1][(crc >> 8) & 0xFF] ^ s->t[2][(crc >> 16) & 0xFF] ^ s->t[3][crc >> 24];
}
#endif
