#ifndef LNOTE_SHA256_H
#define LNOTE_SHA256_H
#include <stddef.h>
#include <stdint.h>
/// SHA-256 (FIPS 180-4) fed in pieces, for the content ids of assets (Spec/format.md D-043):
/// init, update with the bytes in order (any split), final. The state is a plain struct the
/// caller owns; nothing is allocated.
typedef struct {
    uint32_t state[8];
    uint64_t length; // bytes hashed so far
    uint8_t block[64];
    uint32_t used; // bytes of `block` filled
} lnote_sha256;

void lnote_sha256_init(lnote_sha256 *h);
void lnote_sha256_update(lnote_sha256 *h, const void *bytes, size_t count);
/// Writes the 32-byte digest to `digest`; `h` must be initialised again before reuse.
void lnote_sha256_final(lnote_sha256 *h, uint8_t digest[32]);
#endif
