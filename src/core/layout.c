/* layout.c — writing a file target's never-written runs before a workload reads it (layout.h). */
#include "core/layout.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/pattern.h"
#include "lib/json_path.h"
#include "lib/units.h"
#include "lib/util.h"

/* One run, in chunks. 0, 1 stopped, -1 with err. */
static int write_run(int fd, const struct content_run *r, unsigned char *buf,
                     struct pattern *pat, bool progress, uint64_t t0, uint64_t *last_print,
                     const struct layout_result *out_so_far, uint64_t *written,
                     volatile sig_atomic_t *stop, char *err, size_t errlen)
{
    uint64_t off = r->start, end = r->start + r->len;
    while (off < end) {
        if (stop && *stop)
            return 1;
        size_t n = end - off < LAYOUT_CHUNK ? (size_t)(end - off) : LAYOUT_CHUNK;
        pattern_fill(pat, buf, n);
        ssize_t w = pwrite(fd, buf, n, (off_t)off);
        if (w < 0)
            return errf(err, errlen, "layout: write of %zu bytes at offset %llu failed: %s", n,
                        (unsigned long long)off, strerror(errno));
        if ((size_t)w != n)
            return errf(err, errlen, "layout: short write at offset %llu: %zd of %zu bytes",
                        (unsigned long long)off, w, n);
        off += n;
        *written += n;
        uint64_t now = now_mono_ns();
        if (progress && now - *last_print >= 1000000000ull) {
            char a[32], b[32];
            units_format_size(*written, a, sizeof(a));
            units_format_size(out_so_far->unwritten_before, b, sizeof(b));
            printf("\r  layout %s of %s, %.0f MB/s   ", a, b,
                   (double)*written / 1e6 / ((double)(now - t0) / 1e9));
            fflush(stdout);
            *last_print = now;
        }
    }
    return 0;
}

int layout_file(int fd, const struct content_map *map, unsigned compress_pct, uint64_t seed,
                uint32_t align, bool progress, volatile sig_atomic_t *stop,
                struct layout_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    out->range_bytes = map->len;
    out->unwritten_before = out->unwritten_after = map->unwritten_bytes;
    out->method = map->method;
    if (!map->n_runs)
        return 0;
    void *buf = NULL;
    if (posix_memalign(&buf, align < 4096 ? 4096 : align, LAYOUT_CHUNK) != 0)
        return errf(err, errlen, "layout: out of memory");
    struct pattern pat;
    pattern_init(&pat, compress_pct, seed ^ 0x4c41594f5554ull);   /* "LAYOUT" */
    uint64_t t0 = now_mono_ns(), last = t0;
    int ret = 0;
    for (size_t i = 0; i < map->n_runs && ret == 0; i++)
        ret = write_run(fd, &map->runs[i], buf, &pat, progress, t0, &last, out, &out->bytes,
                        stop, err, errlen);
    free(buf);
    out->ran = out->bytes > 0;
    if (ret == 0 && fdatasync(fd) != 0)
        ret = errf(err, errlen, "layout: fdatasync: %s", strerror(errno));
    out->seconds = (double)(now_mono_ns() - t0) / 1e9;
    if (progress && out->bytes)
        printf("\r\033[K");
    if (ret != 0)
        return ret;
    struct content_map after;
    char perr[256];
    if (content_probe_file(fd, map->start, map->len, &after, perr, sizeof(perr)) != 0)
        return errf(err, errlen, "layout: probing the file again: %s", perr);
    out->unwritten_after = after.unwritten_bytes;
    content_map_free(&after);
    if (out->unwritten_after)
        return errf(err, errlen, "layout: %llu bytes of the active range are still never "
                    "written after writing them", (unsigned long long)out->unwritten_after);
    return 0;
}

struct json_object *layout_json(const struct layout_result *r)
{
    struct json_object *o = json_object_new_object();
    jw_add(o, "ran", json_object_new_boolean(r->ran));
    jw_add(o, "bytes", jw_int((long long)r->bytes));
    jw_add(o, "seconds", jw_num(r->seconds));
    jw_add(o, "mb_s", r->seconds > 0 ? jw_num((double)r->bytes / 1e6 / r->seconds) : NULL);
    jw_add(o, "range_bytes", jw_int((long long)r->range_bytes));
    jw_add(o, "unwritten_before_bytes", jw_int((long long)r->unwritten_before));
    jw_add(o, "unwritten_after_bytes", jw_int((long long)r->unwritten_after));
    jw_add(o, "method", jw_str(r->method));
    return o;
}
