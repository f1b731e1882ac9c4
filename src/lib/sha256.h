/* sha256.h — SHA-256 (FIPS 180-4, computed by Nettle) of a buffer, as 64 lowercase hex digits. For identities of
 * files (the results history's import key: docs/history.md), not for security. Pure. */
#ifndef PTSBENCH_SHA256_H
#define PTSBENCH_SHA256_H

#include <stddef.h>

#define SHA256_HEX_LEN 65   /* 64 digits and the NUL */

void sha256_hex(const void *data, size_t len, char out[SHA256_HEX_LEN]);

#endif
