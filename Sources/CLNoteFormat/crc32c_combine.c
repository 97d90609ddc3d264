// Builds the shift tables of crc32c_combine.h.
//
// In the reflected representation bit 31 is the coefficient of x^0 and bit 0 that of x^31.
// Advancing a raw register over one zero bit multiplies it by x modulo the Castagnoli
// polynomial: `r = (r & 1) ? (r >> 1) ^ 0x82F63B78 : r >> 1`. Advancing over n zero bytes
// is multiplication by x^(8n), a linear map, so it is fixed by the images of the 32 single
// bits, and a table per byte of the register combines them.
#include "crc32c_combine.h"

#include <pthread.h>

#define LNOTE_CRC_POLY 0x82F63B78u

static inline uint32_t times_x(uint32_t r) {
    return (r & 1) ? (r >> 1) ^ LNOTE_CRC_POLY : r >> 1;
}

static void build(lnote_crc_shift_table *s, size_t stride) {
    // image[k]: the register with only bit k set, advanced over `stride` zero bytes.
    // Bit 31 is x^0, whose image is x^(8 stride); bit k is x^(31-k), whose image is
    // (31-k) further multiplications by x.
    uint32_t image[32];
    uint32_t v = 0x80000000u;
    for (size_t i = 0; i < 8 * stride; i++) v = times_x(v);
    for (int k = 31; k >= 0; k--) {
        image[k] = v;
        v = times_x(v);
    }
    for (int j = 0; j < 4; j++) {
        for (uint32_t b = 0; b < 256; b++) {
            uint32_t out = 0;
            for (int i = 0; i < 8; i++) {
                if (b & (1u << i)) out ^= image[8 * j + i];
            }
            s->t[j][b] = out;
        }
    }
}

static lnote_crc_shift_tables tables;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_all(void) {
    for (int i = 0; i < LNOTE_CRC_STRIDE_COUNT; i++) build(&tables.stride[i], lnote_crc_strides[i]);
}

const lnote_crc_shift_tables *lnote_crc_shift_tables_get(void) {
    pthread_once(&tables_once, build_all);
    return &tables;
}

static uint32_t clmul_shifts[LNOTE_CRC_CLMUL_MAX + 1];
static pthread_once_t clmul_once = PTHREAD_ONCE_INIT;

static void build_clmul(void) {
    // x^0 is bit 31; x^(64 j - 33) for j = 1, 2, ... is x^31, then 64 more factors of x each.
    uint32_t v = 0x80000000u;
    for (int i = 0; i < 64 - 33; i++) v = times_x(v);
    for (int j = 1; j <= LNOTE_CRC_CLMUL_MAX; j++) {
        clmul_shifts[j] = v;
        for (int i = 0; i < 64; i++) v = times_x(v);
    }
}

const uint32_t *lnote_crc_clmul_shifts_get(void) {
    pthread_once(&clmul_once, build_clmul);
    return clmul_shifts;
}
