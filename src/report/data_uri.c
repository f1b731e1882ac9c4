/* data_uri.c — files as data: URIs (see data_uri.h). */
#include "report/data_uri.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

size_t data_uri_base64(const unsigned char *in, size_t len, char *out)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t n = 0;
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)in[i] << 16;
        if (i + 1 < len)
            v |= (unsigned)in[i + 1] << 8;
        if (i + 2 < len)
            v |= in[i + 2];
        out[n++] = tab[(v >> 18) & 63];
        out[n++] = tab[(v >> 12) & 63];
        out[n++] = i + 1 < len ? tab[(v >> 6) & 63] : '=';
        out[n++] = i + 2 < len ? tab[v & 63] : '=';
    }
    out[n] = 0;
    return n;
}

int data_uri_write(FILE *out, const char *path, const char *mime, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return errf(err, errlen, "%s: %s", path, strerror(errno));
    unsigned char buf[3 * 4096];
    char enc[4 * 4096 + 1];
    fprintf(out, "data:%s;base64,", mime);
    size_t got;
    /* whole groups of 3 bytes per block, so that padding appears only at the very end */
    while ((got = fread(buf, 1, sizeof(buf), f)) > 0) {
        size_t n = data_uri_base64(buf, got, enc);
        fwrite(enc, 1, n, out);
        if (got < sizeof(buf))
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return errf(err, errlen, "%s: read failed", path);
    return 0;
}
