/* sha256.c — SHA-256 of a buffer as hex (sha256.h), by GNU Nettle (Debian's nettle-dev): a
 * well-kept implementation rather than one of our own. */
#include "lib/sha256.h"

#include <nettle/sha2.h>
#include <stdio.h>

void sha256_hex(const void *data, size_t len, char out[SHA256_HEX_LEN])
{
    struct sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, data);
    sha256_digest(&ctx, sizeof(digest), digest);
    for (size_t i = 0; i < sizeof(digest); i++)
        snprintf(out + 2 * i, 3, "%02x", digest[i]);
}
