/* data_measure.c — measured compressibility of write data, per 4 KiB chunk (see data_measure.h). */
#include "lib/json_path.h"
#include "stats/data_measure.h"

#include <json-c/json.h>
#include <lz4.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Room for any chunk's compressed form (zlib's compressBound(4096) is 4110, lz4's 4128). */
#define OUT_CAP (DATA_MEASURE_CHUNK + 512u)

_Static_assert(LZ4_COMPRESSBOUND(DATA_MEASURE_CHUNK) <= (int)OUT_CAP, "lz4 bound");

/* The chunks of one call equal to an earlier one: FNV-1a of each chunk (a collision would
 * need two different chunks of one sample to hash alike), sorted, equal neighbours counted.
 * At most DUP_MAX chunks a call are looked at (a worker's sample is at most 64). */
#define DUP_MAX 1024u

static uint64_t chunk_hash(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h ^ n;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static unsigned count_dups(const unsigned char *p, size_t len)
{
    uint64_t h[DUP_MAX];
    unsigned n = 0, dups = 0;
    for (; len && n < DUP_MAX; n++) {
        size_t c = len < DATA_MEASURE_CHUNK ? len : DATA_MEASURE_CHUNK;
        h[n] = chunk_hash(p, c);
        p += c;
        len -= c;
    }
    qsort(h, n, sizeof(h[0]), cmp_u64);
    for (unsigned i = 1; i < n; i++)
        dups += h[i] == h[i - 1];
    return dups;
}

/* zlib: one deflate stream for the whole call, reset per chunk.  deflateInit + deflate(Z_FINISH)
 * on a reset stream produces the same bytes as compress2(Z_DEFAULT_COMPRESSION) on the chunk;
 * reusing the stream only saves compress2's per-call allocation and table clearing (about
 * half the time on 4 KiB chunks). */
void data_measure_add(struct data_measure *m, const void *buf, size_t len)
{
    const unsigned char *p = buf;
    unsigned char out[OUT_CAP];
    z_stream zs;
    memset(&zs, 0, sizeof(zs));
    bool z_ok = deflateInit(&zs, Z_DEFAULT_COMPRESSION) == Z_OK;
    m->dup_chunks += count_dups(p, len);

    while (len) {
        size_t n = len < DATA_MEASURE_CHUNK ? len : DATA_MEASURE_CHUNK;

        size_t zc = n;   /* a failure counts as stored raw */
        if (z_ok && deflateReset(&zs) == Z_OK) {
            zs.next_in = (unsigned char *)p;   /* zlib's API is not const */
            zs.avail_in = (uInt)n;
            zs.next_out = out;
            zs.avail_out = (uInt)sizeof(out);
            if (deflate(&zs, Z_FINISH) == Z_STREAM_END)
                zc = zs.total_out;
        }
        if (zc > n)
            zc = n;

        int lc = LZ4_compress_default((const char *)p, (char *)out, (int)n, (int)sizeof(out));
        size_t l4 = lc > 0 && (size_t)lc < n ? (size_t)lc : n;

        m->sample_bytes += n;
        m->zlib_bytes += zc;
        m->lz4_bytes += l4;
        m->chunks++;
        p += n;
        len -= n;
    }
    if (z_ok)
        deflateEnd(&zs);
}

void data_measure_merge(struct data_measure *a, const struct data_measure *b)
{
    if (!a->present)
        a->declared_pct = b->declared_pct;
    a->present = a->present || b->present;
    a->generated = a->generated || b->generated;
    a->sample_bytes += b->sample_bytes;
    a->zlib_bytes += b->zlib_bytes;
    a->lz4_bytes += b->lz4_bytes;
    a->chunks += b->chunks;
    a->dup_chunks += b->dup_chunks;
    if (!a->declared_dedupe_pct)
        a->declared_dedupe_pct = b->declared_dedupe_pct;
}

static double ratio(uint64_t part, uint64_t whole)
{
    return whole ? (double)part / (double)whole : NAN;
}

double data_measure_zlib_ratio(const struct data_measure *m)
{
    return ratio(m->zlib_bytes, m->sample_bytes);
}

double data_measure_lz4_ratio(const struct data_measure *m)
{
    return ratio(m->lz4_bytes, m->sample_bytes);
}

double data_measure_zlib_pct(const struct data_measure *m)
{
    return 100.0 * (1.0 - data_measure_zlib_ratio(m));
}

double data_measure_lz4_pct(const struct data_measure *m)
{
    return 100.0 * (1.0 - data_measure_lz4_ratio(m));
}

struct json_object *data_measure_json(const struct data_measure *m)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "declared_compress_pct", json_object_new_int((int)m->declared_pct));
    json_object_object_add(o, "sample_bytes", json_object_new_int64((int64_t)m->sample_bytes));
    json_object_object_add(o, "zlib_ratio", jw_num(data_measure_zlib_ratio(m)));
    json_object_object_add(o, "lz4_ratio", jw_num(data_measure_lz4_ratio(m)));
    json_object_object_add(o, "zlib_compress_pct", jw_num(data_measure_zlib_pct(m)));
    json_object_object_add(o, "lz4_compress_pct", jw_num(data_measure_lz4_pct(m)));
    json_object_object_add(o, "source", json_object_new_string(m->generated ? "generated" : "written"));
    if (m->declared_dedupe_pct) {
        json_object_object_add(o, "declared_dedupe_pct",
                               json_object_new_int((int)m->declared_dedupe_pct));
        json_object_object_add(o, "sample_duplicate_pct",
                               jw_num(m->chunks ? 100.0 * m->dup_chunks / m->chunks : NAN));
    }
    return o;
}
