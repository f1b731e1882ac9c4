/* fio_job.c — see fio_job.h.
 *
 * Mapping notes (fio 3.33 man page and io_u.c):
 *  - Random/sequential mix: fio's percentage_random only acts on random jobs (get_next_block
 *    calls should_do_random() only when td_random()), so ptsbench's percentage_random 1..99
 *    becomes rw=rand* plus percentage_random=N; 0 is plain read/write/rw, 100 plain rand*.
 *  - Split regions: offset_increment adds offset_increment * subjob number (0, 1, ...) to
 *    offset, and size is per job, so offset=start, size=slice, offset_increment=slice gives
 *    each of numjobs jobs its own slice, as iogen.c does.
 *  - io_size and size are per job ("for each thread of this job").
 *  - Random map: fio's default random map visits every block once per pass and is reset when
 *    the region has been covered (ptsbench's random_map=always); norandommap draws freely.
 *    ptsbench uses a map only for one block size without zones (iogen.c), so mixed sizes and
 *    zones get norandommap=1 as well.
 *  - Alignment: without a map ptsbench aligns each size to its natural alignment; fio aligns
 *    random offsets to one blockalign (default: the smallest block size), so a mix gets the
 *    alignment most of its I/Os use.
 *  - Values: fio cuts a value at ';' or '#', strips surrounding blanks, substitutes "${VAR}"
 *    and '$' keywords, and splits filename at ':' (escaped as "\:"). */
#include "engine/fio_job.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "engine/engine.h"
#include "io/iogen.h"
#include "lib/rng.h"
#include "lib/util.h"

#define FIO_MAX_INT64 UINT64_C(0x7fffffffffffffff)   /* fio parses numbers with strtoll */

struct job_out {
    char *buf;
    size_t len;
    size_t used;     /* bytes wanted so far (may exceed len) */
};

static void jo_put(struct job_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void jo_put(struct job_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->used < o->len ? o->len - o->used : 0;
    int n = vsnprintf(room ? o->buf + o->used : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->used += (size_t)n;
}

/* Free text for a comment line: control characters become '?'. */
static void jo_put_comment_text(struct job_out *o, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p < 0x20 || *p == 0x7f ? '?' : *p;
        jo_put(o, "%c", c);
    }
}

/* A text value fio must read back unchanged. */
static int check_text(const char *what, const char *v, bool is_name, char *err, size_t errlen)
{
    if (!v || !*v)
        return errf(err, errlen, "fio job: no %s given", what);
    size_t n = strlen(v);
    if (v[0] == ' ' || v[0] == '\t' || v[n - 1] == ' ' || v[n - 1] == '\t')
        return errf(err, errlen, "fio job: %s '%s' starts or ends with a blank, which fio "
                                 "strips", what, v);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        if (c < 0x20 || c == 0x7f)
            return errf(err, errlen, "fio job: %s has a control character at byte %zu, which "
                                     "a job file cannot hold", what, i);
        if (c == ';' || c == '#')
            return errf(err, errlen, "fio job: %s '%s' contains '%c', where fio would cut the "
                                     "value (comment character)", what, v, c);
        if (c == '$')
            return errf(err, errlen, "fio job: %s '%s' contains '$', which fio substitutes "
                                     "(${VAR} and $keywords)", what, v);
        if (is_name && (c == '[' || c == ']'))
            return errf(err, errlen, "fio job: %s '%s' contains '%c', which cannot appear in "
                                     "a section name", what, v, c);
    }
    if (is_name && strcasecmp(v, "global") == 0)
        return errf(err, errlen, "fio job: the job cannot be named '%s' (fio's [global] "
                                 "section)", v);
    return 0;
}

static uint64_t round_up(uint64_t v, uint64_t unit)
{
    return (v + unit - 1) / unit * unit;
}

/* Does ptsbench draw random offsets through a random map (iogen.c)? */
static bool uses_map(const struct workload *wl)
{
    return wl->random_map != WL_RANDOM_MAP_OFF && wl->n_bs == 1 && wl->random_pct > 0 &&
           wl->n_zones == 0 && !wl_sizes_by_dir(wl) &&
           (!wl->blockalign || wl->blockalign == wl->bs[0].size);
}

/* Without a map ptsbench aligns each size to its natural alignment; fio has one blockalign.
 * The alignment used by the largest share of I/Os (ties: the smaller alignment). */
static uint32_t common_align(const struct workload *wl)
{
    uint32_t best = 0;
    unsigned best_share = 0;
    for (unsigned i = 0; i < wl->n_bs; i++) {
        uint32_t a = iogen_natural_align(wl->bs[i].size);
        unsigned share = 0;
        for (unsigned k = 0; k < wl->n_bs; k++)
            if (iogen_natural_align(wl->bs[k].size) == a)
                share += wl->bs[k].weight;
        if (share > best_share || (share == best_share && a < best)) {
            best = a;
            best_share = share;
        }
    }
    return best;
}

static int check_workload(const struct workload *wl, const struct wl_range *range, char *err,
                          size_t errlen)
{
    if (wl->n_bs == 0 || wl->n_bs > WL_MAX_BS)
        return errf(err, errlen, "fio job: %u block sizes, want 1..%d", wl->n_bs, WL_MAX_BS);
    unsigned sum = 0;
    for (unsigned i = 0; i < wl->n_bs; i++) {
        if (wl->bs[i].size == 0)
            return errf(err, errlen, "fio job: block size 0");
        if (wl->n_bs > 1 && wl->bs[i].weight == 0)
            return errf(err, errlen, "fio job: bssplit entry %u/0: fio reads a weight of 0 as "
                                     "'the remainder'", wl->bs[i].size);
        sum += wl->bs[i].weight;
    }
    if (wl->n_bs > 1 && sum != 100)
        return errf(err, errlen, "fio job: bssplit weights sum to %u, fio wants 100", sum);
    if (wl->qd == 0 || wl->workers == 0)
        return errf(err, errlen, "fio job: iodepth=%u numjobs=%u, want both >= 1", wl->qd,
                    wl->workers);
    if (wl->read_pct > 100 || wl->random_pct > 100 || wl->compress_pct > 100)
        return errf(err, errlen, "fio job: a percentage above 100 (rwmixread=%u "
                                 "percentage_random=%u buffer_compress_percentage=%u)",
                    wl->read_pct, wl->random_pct, wl->compress_pct);
    if (wl->n_zones > WL_MAX_ZONES)
        return errf(err, errlen, "fio job: %u zones, want at most %d", wl->n_zones,
                    WL_MAX_ZONES);
    unsigned acc = 0, rng = 0;
    for (unsigned z = 0; z < wl->n_zones; z++) {
        acc += wl->zones[z].access_pct;
        rng += wl->zones[z].range_pct;
    }
    if (wl->n_zones && (acc != 100 || rng != 100))
        return errf(err, errlen, "fio job: zones sum to %u%% of accesses and %u%% of the range, "
                                 "fio wants 100 and 100", acc, rng);
    if (range->len == 0)
        return errf(err, errlen, "fio job: empty active range");
    if (range->start > FIO_MAX_INT64 || range->len > FIO_MAX_INT64 - range->start)
        return errf(err, errlen, "fio job: active range %" PRIu64 "+%" PRIu64 " is beyond "
                                 "fio's 63-bit offsets", range->start, range->len);
    return 0;
}

/* rw, rwmixread, percentage_random: from the shares, not the rw text. */
static void put_direction(struct job_out *o, const struct workload *wl)
{
    bool mixed = wl->read_pct > 0 && wl->read_pct < 100;
    bool random = wl->random_pct > 0;
    const char *rw = mixed ? (random ? "randrw" : "rw")
                           : wl->read_pct == 100 ? (random ? "randread" : "read")
                                                 : (random ? "randwrite" : "write");
    if (wl->trim)   /* fio's trims: its figures' "trim" (engine/fio.c) */
        rw = wl->trimwrite ? (random ? "randtrimwrite" : "trimwrite")
                           : (random ? "randtrim" : "trim");
    mixed = mixed && !wl->trim;
    jo_put(o, "rw=%s", rw);
    if (wl->seq_add)   /* fio's offset modifier, in bytes (negative: backwards) */
        jo_put(o, ":%" PRId64, wl->seq_add);
    else if (wl->seq_nr > 1 && random)   /* a sequential rw's ':N' would be bytes */
        jo_put(o, ":%u", wl->seq_nr);
    jo_put(o, "\n");
    if (wl->seq_nr > 1 && random && wl->seq_identical)
        jo_put(o, "rw_sequencer=identical\n");
    if (wl->zone_size)
        jo_put(o, "; strided zones wrap to the job's offset past its range's end (ptsbench) or "
                  "past the device's end (fio)\nzonemode=strided\nzonesize=%" PRIu64
                  "\nzonerange=%" PRIu64 "\nzoneskip=%" PRIu64 "\n", wl->zone_size,
               wl->zone_range, wl->zone_skip);
    if (mixed)
        jo_put(o, "rwmixread=%u\n", wl->read_pct);
    if (random && wl->random_pct < 100) {
        jo_put(o, "; percentage_random acts only on random jobs in fio: rw=%s issues %u%% of "
                  "I/Os at random offsets, the rest continue sequentially\n", rw,
               wl->random_pct);
        jo_put(o, "percentage_random=%u\n", wl->random_pct);
    }
}

/* One direction's sizes as a bssplit ("4096/100" for one size) or a bsrange ("4096-4096"). */
static void put_dir(struct job_out *o, const struct wl_bs *bs, unsigned n, uint32_t hi,
                    bool range)
{
    if (range) {
        jo_put(o, "%" PRIu32 "-%" PRIu32, bs[0].size, hi ? hi : bs[0].size);
        return;
    }
    for (unsigned i = 0; i < n; i++)
        jo_put(o, "%s%" PRIu32 "/%u", i ? ":" : "", bs[i].size, bs[i].weight);
}

/* Sizes per direction (bs=R,W, bssplit=R,W, bsrange): fio's READ,WRITE forms; fio's default
 * blockalign, each direction's smallest size, is iogen's with sizes per direction. */
static void put_blocks_by_dir(struct job_out *o, const struct workload *wl)
{
    const bool w = wl->n_bs_write > 0;
    const struct wl_bs *bs[2] = {wl->bs, w ? wl->bs_write : wl->bs};
    const unsigned n[2] = {wl->n_bs, w ? wl->n_bs_write : wl->n_bs};
    const uint32_t hi[2] = {wl->bsrange_hi[0], w ? wl->bsrange_hi[1] : wl->bsrange_hi[0]};
    const bool split = n[0] > 1 || n[1] > 1, range = hi[0] || hi[1];
    if (!split && !range) {
        jo_put(o, "bs=%" PRIu32 ",%" PRIu32 "\n", bs[0][0].size, bs[1][0].size);
        return;
    }
    if (split) {   /* a direction with a range gets it from bsrange below */
        jo_put(o, "bssplit=");
        for (unsigned d = 0; d < 2; d++) {
            if (d)
                jo_put(o, ",");
            if (!hi[d] || !range)
                put_dir(o, bs[d], n[d], 0, false);
        }
        jo_put(o, "\n");
    }
    if (range) {
        jo_put(o, "bsrange=");
        for (unsigned d = 0; d < (w ? 2u : 1u); d++) {
            if (d)
                jo_put(o, ",");
            if (hi[d] || !split)
                put_dir(o, bs[d], n[d], hi[d], true);
        }
        jo_put(o, "\n");
    }
}

static void put_blocks(struct job_out *o, const struct workload *wl)
{
    if (wl_sizes_by_dir(wl)) {
        put_blocks_by_dir(o, wl);
        if (wl->blockalign)
            jo_put(o, "blockalign=%" PRIu32 "\n", wl->blockalign);
        return;
    }
    if (wl->n_bs == 1) {
        jo_put(o, "bs=%" PRIu32 "\n", wl->bs[0].size);
    } else {
        jo_put(o, "bssplit=");
        for (unsigned i = 0; i < wl->n_bs; i++)
            jo_put(o, "%s%" PRIu32 "/%u", i ? ":" : "", wl->bs[i].size, wl->bs[i].weight);
        jo_put(o, "\n");
    }
    if (wl->blockalign) {
        jo_put(o, "blockalign=%" PRIu32 "\n", wl->blockalign);
    } else if (wl->random_pct > 0 && !uses_map(wl)) {
        uint32_t ba = common_align(wl);
        if (ba != wl_min_bs(wl)) {
            jo_put(o, "; ptsbench aligns each random I/O to its size's natural alignment; fio "
                      "has one blockalign: the one most I/Os use\n");
            jo_put(o, "blockalign=%" PRIu32 "\n", ba);
        }
    }
}

/* offset/size, and offset_increment for split regions. */
static int put_region(struct job_out *o, const struct workload *wl, const struct wl_range *range,
                      char *err, size_t errlen)
{
    bool split = wl->region == WL_REGION_SPLIT ||
                 (wl->region == WL_REGION_DEFAULT && wl->random_pct == 0);
    jo_put(o, "offset=%" PRIu64 "\n", range->start);
    if (!split || wl->workers < 2) {
        jo_put(o, "size=%" PRIu64 "\n", range->len);
        return 0;
    }
    uint64_t align = iogen_natural_align(wl_max_bs(wl));
    uint64_t slice = range->len / wl->workers / align * align;
    if (slice == 0)
        return errf(err, errlen, "fio job: the %" PRIu64 "-byte range split among %u jobs "
                                 "leaves no whole %" PRIu64 "-byte aligned slice", range->len,
                    wl->workers, align);
    jo_put(o, "; split region: job k (0..%u) covers offset + k * offset_increment, size bytes\n",
           wl->workers - 1);
    jo_put(o, "size=%" PRIu64 "\n", slice);
    jo_put(o, "offset_increment=%" PRIu64 "\n", slice);
    return 0;
}

static const char *const dist_names[] = {
    [WL_DIST_UNIFORM] = "random", [WL_DIST_ZIPF] = "zipf", [WL_DIST_PARETO] = "pareto",
    [WL_DIST_NORMAL] = "normal",
};

static void put_distribution(struct job_out *o, const struct workload *wl)
{
    if (wl->n_zones) {
        jo_put(o, "random_distribution=zoned");
        for (unsigned z = 0; z < wl->n_zones; z++)
            jo_put(o, ":%u/%u", wl->zones[z].access_pct, wl->zones[z].range_pct);
        jo_put(o, "\n");
    } else if (wl->dist != WL_DIST_UNIFORM) {
        /* fio's syntax and meaning: theta, power, deviation in percent; the centre 0..1 */
        jo_put(o, "random_distribution=%s:%.17g", dist_names[wl->dist], wl->dist_param);
        if (wl->dist_center >= 0)
            jo_put(o, ":%.17g", wl->dist_center);
        jo_put(o, "\n");
    }
}

static void put_random(struct job_out *o, const struct workload *wl)
{
    put_distribution(o, wl);
    if (wl->random_pct == 0)
        return;
    if (uses_map(wl)) {
        if (wl->random_map == WL_RANDOM_MAP_ONCE)
            jo_put(o, "; random_map=once: ptsbench visits every block once, in random order, in "
                      "the first pass only, then draws offsets independently; fio's random map "
                      "(used here) starts a new pass over all blocks every time the region is "
                      "covered, as ptsbench's random_map=always\n");
        return;
    }
    if (wl->random_map == WL_RANDOM_MAP_OFF && wl->dist == WL_DIST_UNIFORM && !wl->n_zones &&
        wl->n_bs == 1)
        jo_put(o, "; random_map=off: independent uniform offsets\n");
    else
        jo_put(o, "; ptsbench draws offsets independently for %s (no random map)\n",
               wl->dist != WL_DIST_UNIFORM ? "a skewed distribution"
               : wl->n_zones               ? "a zoned distribution"
                                           : "mixed block sizes");
    jo_put(o, "norandommap=1\n");
}

/* fio's pacing and flow keys as ptsbench's loop runs them (per job = per worker; fio reads a
 * per-direction "R,W" as ptsbench does): true when any paces the issues. */
static bool put_flow(struct job_out *o, const struct workload *wl)
{
    const bool bps = wl->rate_bps[0] || wl->rate_bps[1] || wl->rate_bps[2];
    const bool iops = !wl->rate_iops &&
                      (wl->rate_iops_dir[0] || wl->rate_iops_dir[1] || wl->rate_iops_dir[2]);
    const bool rated = bps || iops;
    if (bps) {   /* the trims' value only where it is not the writes' (fio: R,W gives trims W) */
        jo_put(o, "rate=%" PRIu64 ",%" PRIu64, wl->rate_bps[0], wl->rate_bps[1]);
        if (wl->rate_bps[2] != wl->rate_bps[1])
            jo_put(o, ",%" PRIu64, wl->rate_bps[2]);
        jo_put(o, "\n");
    }
    if (iops) {
        jo_put(o, "rate_iops=%u,%u", wl->rate_iops_dir[0], wl->rate_iops_dir[1]);
        if (wl->rate_iops_dir[2] != wl->rate_iops_dir[1])
            jo_put(o, ",%u", wl->rate_iops_dir[2]);
        jo_put(o, "\n");
    }
    if (wl->rate_poisson)
        jo_put(o, "rate_process=poisson\n");
    if (wl->rate_offload)
        jo_put(o, "io_submit_mode=offload\n");
    if (wl->thinktime_ns) {
        jo_put(o, "thinktime=%" PRIu64 "us\n", wl->thinktime_ns / 1000u);
        jo_put(o, "thinktime_blocks=%u\n", wl->thinktime_blocks > 1 ? wl->thinktime_blocks : 1);
        if (wl->thinktime_spin_ns)
            jo_put(o, "thinktime_spin=%" PRIu64 "us\n", wl->thinktime_spin_ns / 1000u);
        if (wl->thinktime_iotime_ns)
            jo_put(o, "thinktime_iotime=%" PRIu64 "us\n", wl->thinktime_iotime_ns / 1000u);
    }
    if (wl->startdelay_ns) {
        jo_put(o, "; each round is a fio run of its own: the delay is every round's\n");
        jo_put(o, "startdelay=%" PRIu64 "us\n", wl->startdelay_ns / 1000u);
    }
    if (wl->flow) {   /* fio's flow control between the jobs of the file (core/flow.h) */
        jo_put(o, "flow_id=%u\nflow=%u\n", wl->flow_id, wl->flow);
        if (wl->flow_sleep_ns)
            jo_put(o, "flow_sleep=%" PRIu64 "\n", (wl->flow_sleep_ns + 999u) / 1000u);
    }
    if (wl->number_ios)
        jo_put(o, "number_ios=%" PRIu64 "\n", wl->number_ios);
    return rated || wl->thinktime_ns || wl->startdelay_ns;
}

/* rate_iops, thinktime, the submission and completion batches (per job, as ptsbench's are per
 * worker); what fio_job_check refuses is never reached here. */
static void put_pacing(struct job_out *o, const struct workload *wl,
                       const struct fio_job_opts *opts)
{
    if (wl->rate_iops)
        jo_put(o, "rate_iops=%u\n", wl->rate_iops);
    const bool flow = put_flow(o, wl);
    if (wl->lat.target_ns) {   /* fio's own depth search, per round (core/lat_target.h) */
        jo_put(o, "; fio searches the depth itself each round%s\n",
               wl->lat.run ? "" : "; it ends the round once the depth settles (latency_run=0)");
        jo_put(o, "latency_target=%" PRIu64 "us\n", (wl->lat.target_ns + 999u) / 1000u);
        if (wl->lat.window_ns)
            jo_put(o, "latency_window=%" PRIu64 "us\n", (wl->lat.window_ns + 999u) / 1000u);
        if (wl->lat.percentile > 0)
            jo_put(o, "latency_percentile=%g\n", wl->lat.percentile);
        jo_put(o, "latency_run=%d\n", wl->lat.run ? 1 : 0);
    }
    if (wl->batch_submit) {
        jo_put(o, "iodepth_batch_submit=%u\n", wl->batch_submit);
    } else if (opts->submit_all && !wl->rate_iops && !flow && wl->qd > 1) {
        jo_put(o, "; as ptsbench's loop: the I/Os refilled in a turn submitted in one call\n");
        jo_put(o, "iodepth_batch_submit=%u\n", wl->qd);
    }
    if (wl->batch_complete_min)
        jo_put(o, "iodepth_batch_complete_min=%u\n", wl->batch_complete_min);
    if (wl->batch_complete_max || opts->reap_all) {
        if (opts->reap_all)
            jo_put(o, "; as ptsbench's loop: every completion there taken in one call\n");
        jo_put(o, "iodepth_batch_complete_max=%u\n",
               wl->batch_complete_max > wl->qd ? wl->batch_complete_max : wl->qd);
    }
    if (opts->force_async) {
        jo_put(o, "; ptsbench's io_uring engine marks %s I/O async (IOSQE_ASYNC) on this "
                  "target\n", opts->force_async == 1 ? "every" : "a share of the");
        jo_put(o, "force_async=%u\n", opts->force_async);
    }
}

unsigned fio_job_force_async(const struct workload *wl, bool refuses_nowait, unsigned cpus,
                             unsigned *marked_pct)
{
    unsigned pct = 0;
    for (unsigned i = 0; refuses_nowait && i < wl->n_bs; i++)
        if (engine_mark_wanted(wl->bs[i].size, wl->qd * wl->workers, cpus ? cpus : 1))
            pct += wl->bs[i].weight;
    if (marked_pct)
        *marked_pct = pct;
    if (pct == 0)
        return 0;
    return (100u + pct / 2) / pct;   /* every Nth: the nearest to the marked share */
}

int fio_job_check(const struct workload *wl, char *err, size_t errlen)
{
    if ((wl->thinktime_spin_ns | wl->thinktime_iotime_ns | wl->startdelay_ns) % 1000u)
        return errf(err, errlen, "fio job: thinktime_spin, thinktime_iotime and startdelay are "
                                 "written in whole microseconds");
    if (wl->thinktime_ns % 1000u)
        return errf(err, errlen, "fio job: thinktime %" PRIu64 " ns: fio's thinktime is in whole "
                                 "microseconds", wl->thinktime_ns);
    if (wl->dist >= sizeof dist_names / sizeof dist_names[0])
        return errf(err, errlen, "fio job: random distribution %d has no fio name (internal)",
                    (int)wl->dist);
    return 0;
}

static void put_data(struct job_out *o, const struct workload *wl)
{
    if (wl_writes(wl))
        jo_put(o, "refill_buffers=1\n");
    if (wl->compress_pct > 0) {
        jo_put(o, "buffer_compress_percentage=%u\n", wl->compress_pct);
        jo_put(o, "; fio's default chunk of 512 B makes large blocks compress unrealistically\n");
        jo_put(o, "buffer_compress_chunk=4k\n");
    }
    if (wl_writes(wl) && wl->dedupe_pct) {   /* io/pattern.h: per 4 KiB, fio per buffer */
        jo_put(o, "dedupe_percentage=%u\n", wl->dedupe_pct);
        jo_put(o, "dedupe_mode=%s\n", wl->dedupe_working_set ? "working_set" : "repeat");
        if (wl->dedupe_working_set)
            jo_put(o, "dedupe_working_set_percentage=%u\ndedupe_global=%d\n",
                   wl->dedupe_ws_pct ? wl->dedupe_ws_pct : 5u, wl->dedupe_global);
    }
}

/* A timed round that number_ios or fill_device may end first: fio's time_based would run
 * past both (fio 3.33 backend.c do_io), so the runtime caps a job that stops at number_ios or
 * after io_size bytes (fill_device: each job its share of the range, once). */
static int put_length_cut(struct job_out *o, const struct workload *wl,
                          const struct wl_range *range, const struct fio_job_opts *opts,
                          char *err, size_t errlen)
{
    const uint64_t ms = opts->runtime_ns / 1000000u + (opts->runtime_ns % 1000000u != 0);
    jo_put(o, "; the round's time caps it; number_ios or fill_device may end it first\n");
    jo_put(o, "runtime=%" PRIu64 "ms\n", ms);
    const uint64_t unit = wl_max_bs(wl);
    uint64_t per = FIO_MAX_INT64 / 2;
    if (wl->fill_device)
        per = round_up(range->len / wl->workers, unit);
    else if (wl->number_ios && wl->number_ios < per / unit)
        per = wl->number_ios * unit;
    if (!per)
        return errf(err, errlen, "fio job: fill_device over an empty range");
    jo_put(o, "io_size=%" PRIu64 "\n", per);
    return 0;
}

static int put_length(struct job_out *o, const struct workload *wl,
                      const struct fio_job_opts *opts, char *err, size_t errlen)
{
    if (opts->runtime_ns > 0) {
        uint64_t ms = opts->runtime_ns / 1000000u + (opts->runtime_ns % 1000000u != 0);
        jo_put(o, "time_based=1\n");
        jo_put(o, "runtime=%" PRIu64 "ms\n", ms);
        return 0;
    }
    if (opts->bytes == 0)
        return errf(err, errlen, "fio job: neither a runtime nor a byte count to stop at");
    uint64_t unit = wl_max_bs(wl);
    uint64_t per = opts->bytes / wl->workers + (opts->bytes % wl->workers != 0);
    if (per > FIO_MAX_INT64 - unit)
        return errf(err, errlen, "fio job: %" PRIu64 " bytes per job is beyond fio's 63-bit "
                                 "sizes", per);
    per = round_up(per, unit);
    jo_put(o, "; io_size is per job: %" PRIu64 " bytes in total over %u jobs, rounded up to "
              "whole %" PRIu64 "-byte blocks\n", opts->bytes, wl->workers, unit);
    jo_put(o, "io_size=%" PRIu64 "\n", per);
    return 0;
}

uint64_t fio_job_round_seed(uint64_t seed, unsigned round_index)
{
    if (round_index) {   /* the round_index-th splitmix64 output from the seed */
        uint64_t x = seed + 0x9e3779b97f4a7c15ull * (round_index - 1);
        seed = rng_splitmix64(&x);
    }
    return seed & FIO_MAX_INT64;
}

/* randseed: the workload's for the first round, one of its own for each later round. */
static void put_seed(struct job_out *o, const struct workload *wl,
                     const struct fio_job_opts *opts)
{
    if (opts->round_index)
        jo_put(o, "; round %u of this run: a seed of its own, derived from %" PRIu64
                  " (a repeated seed would write the same blocks every round)\n",
               opts->round_index + 1, wl->seed);
    else if (wl->seed > FIO_MAX_INT64)
        jo_put(o, "; seed 0x%" PRIx64 " is above fio's 2^63-1: its low 63 bits\n", wl->seed);
    jo_put(o, "randseed=%" PRIu64 "\n", fio_job_round_seed(wl->seed, opts->round_index));
}

/* The comment that opens the file: the workload (one job) or every job (several). */
static void put_head(struct job_out *o, const struct fio_job_section *jobs, unsigned n,
                     const struct fio_job_opts *opts)
{
    const struct workload *wl = jobs[0].wl;
    char spec[1024];
    if (n > 1) {
        jo_put(o, "; ptsbench: %u jobs of \"", n);
        jo_put_comment_text(o, wl->source[0] ? wl->source : "inline");
        jo_put(o, "\" run at once — rerun with: fio <this file> --output-format=json+\n");
        for (unsigned k = 0; k < n; k++) {
            wl_format(jobs[k].wl, spec, sizeof spec);
            jo_put(o, "; [%s]: ", jobs[k].name);
            jo_put_comment_text(o, spec);
            jo_put(o, "\n");
        }
        return;
    }
    wl_format(wl, spec, sizeof spec);
    jo_put(o, "; ptsbench workload \"");
    jo_put_comment_text(o, wl->name[0] ? wl->name : opts->name);
    jo_put(o, "\" (");
    jo_put_comment_text(o, wl->source[0] ? wl->source : "inline");
    jo_put(o, ") — rerun with: fio <this file> --output-format=json+\n; workload: ");
    jo_put_comment_text(o, spec);
    jo_put(o, "\n");
}

/* [global]: what every job shares (one job: its seed and IOPS log too). */
static void put_global(struct job_out *o, const struct fio_job_section *jobs, unsigned n,
                       const struct fio_job_opts *opts)
{
    jo_put(o, "[global]\n");
    jo_put(o, "ioengine=%s\n", opts->ioengine);
    if (!strcmp(opts->ioengine, "io_uring")) {
        /* as ptsbench's own io_uring engine: registered buffers and file; fio allocates no
         * buffers for a job of trims only, and registering none fails (EFAULT) */
        bool buffers = false;
        for (unsigned j = 0; j < n; j++)
            buffers |= !jobs[j].wl->trim || jobs[j].wl->trimwrite;
        if (buffers)
            jo_put(o, "fixedbufs=1\n");
        else
            jo_put(o, "; no fixedbufs: fio has no buffers to register for trims only\n");
        jo_put(o, "registerfiles=1\n");
    }
    if (jobs[0].wl->buffered)
        jo_put(o, "; buffered, as the workload says: the page cache's figures, not the "
                  "device's\n");
    jo_put(o, "direct=%d\n", jobs[0].wl->buffered ? 0 : 1);
    jo_put(o, "filename=");
    for (const char *p = opts->filename; *p; p++)
        jo_put(o, "%s%c", *p == ':' ? "\\" : "", *p);   /* fio splits filenames at ':' */
    jo_put(o, "\n");
    jo_put(o, "group_reporting=1\n");
    if (opts->threads) {
        jo_put(o, "; jobs as threads of one fio process: they end when it ends\n");
        jo_put(o, "thread=1\n");
    }
    jo_put(o, "random_generator=tausworthe64\n");
    if (n == 1)
        put_seed(o, jobs[0].wl, opts);
    jo_put(o, "; total latency (submit to completion) as ptsbench measures it\n");
    jo_put(o, "lat_percentiles=1\n");
    jo_put(o, "percentile_list=50:90:99:99.9:99.99:99.999:99.9999\n");
    if (opts->iops_log) {
        if (n == 1) {
            jo_put(o, "; one IOPS and one latency log for the group: %s_iops.log, _lat.log\n",
                   opts->iops_log);
            jo_put(o, "write_iops_log=%s\n", opts->iops_log);
            jo_put(o, "write_lat_log=%s\n", opts->iops_log);
        } else {
            jo_put(o, "; one IOPS and one latency log per job: %s.K_iops.log, _lat.log, K its "
                   "place in this file from 1\n", opts->iops_log);
        }
        jo_put(o, "log_avg_msec=%u\n", opts->log_msec ? opts->log_msec : 1000);
        jo_put(o, "per_job_logs=0\n");
    }
}

/* Whether the group's first job is buffered (put_global writes its direct=): s is job k of
 * the group's array. */
static bool jobs0_buffered(const struct fio_job_section *s, unsigned k)
{
    return (s - k)->wl->buffered;
}

/* fio's I/O priorities as the workload took them (io/workload.h struct wl_prio): classes and
 * levels resolved, so fio's defaults cannot differ; a direction without entries an entry of
 * 0 %, which fio drops. */
static void put_prio(struct job_out *o, const struct workload *wl)
{
    const struct wl_prio *p = &wl->prio;
    if (p->cls >= 0)
        jo_put(o, "prioclass=%d\n", p->cls);
    if (p->level >= 0)
        jo_put(o, "prio=%d\n", p->level);
    if (!wl_prio_raises(wl))
        return;
    jo_put(o, "cmdprio_class=%u,%u\n", p->cmd_cls[0], p->cmd_cls[1]);
    jo_put(o, "cmdprio=%u,%u\n", p->cmd_level[0], p->cmd_level[1]);
    if (p->pct[0] || p->pct[1]) {
        jo_put(o, "cmdprio_percentage=%u,%u\n", p->pct[0], p->pct[1]);
        return;
    }
    jo_put(o, "cmdprio_bssplit=");
    for (unsigned d = 0; d < 2; d++) {
        if (!p->n_split[d])
            jo_put(o, "%s%" PRIu32 "/0", d ? "," : "", wl->bs[0].size);
        for (unsigned i = 0; i < p->n_split[d]; i++) {
            const struct wl_prio_split *e = &p->split[d][i];
            jo_put(o, "%s%" PRIu32 "/%u/%d/%d", i ? ":" : d ? "," : "", e->bs, e->pct,
                   e->cls < 0 ? (int)p->cmd_cls[d] : e->cls,
                   e->cls < 0 ? (int)p->cmd_level[d] : e->level);
        }
    }
    jo_put(o, "\n");
}

/* One job's section: its name, then every key of its workload (a key of the workload model
 * is written by one of the put_* functions called here, in this order). Job k of n; opts
 * carries the section's name, bytes and force_async. */
static int put_section(struct job_out *o, const struct fio_job_section *s, unsigned k,
                       unsigned n, const struct fio_job_opts *opts, char *err, size_t errlen)
{
    const struct workload *wl = s->wl;
    jo_put(o, "\n[%s]\n", opts->name);
    if (k > 0) {
        jo_put(o, "; reported on its own (a reporting group of its own); no stonewall: it runs "
                  "at the same time as the jobs above\n");
        jo_put(o, "new_group=1\n");
    }
    if (wl->buffered != jobs0_buffered(s, k))
        jo_put(o, "direct=%d\n", wl->buffered ? 0 : 1);
    if (n > 1)
        put_seed(o, wl, opts);
    put_direction(o, wl);
    put_blocks(o, wl);
    jo_put(o, "iodepth=%u\n", wl->qd);
    jo_put(o, "numjobs=%u\n", wl->workers);
    if (put_region(o, wl, s->range, err, errlen) < 0)
        return -1;
    put_random(o, wl);
    put_pacing(o, wl, opts);
    put_data(o, wl);
    put_prio(o, wl);
    if (n > 1 && opts->iops_log) {
        jo_put(o, "write_iops_log=%s.%u\n", opts->iops_log, k + 1);
        jo_put(o, "write_lat_log=%s.%u\n", opts->iops_log, k + 1);
    }
    const bool cut = opts->runtime_ns > 0 && (wl->number_ios || wl->fill_device);
    return cut ? put_length_cut(o, wl, s->range, opts, err, errlen)
               : put_length(o, wl, opts, err, errlen);
}

void fio_job_iops_log(const char *prefix, unsigned n, unsigned k, char *buf, size_t len)
{
    if (n <= 1)
        snprintf(buf, len, "%s_iops.log", prefix);
    else
        snprintf(buf, len, "%s.%u_iops.log", prefix, k + 1);
}

void fio_job_lat_log(const char *prefix, unsigned n, unsigned k, char *buf, size_t len)
{
    if (n <= 1)
        snprintf(buf, len, "%s_lat.log", prefix);
    else
        snprintf(buf, len, "%s.%u_lat.log", prefix, k + 1);
}

static bool name_taken(char (*names)[FIO_JOB_NAME_MAX], unsigned k)
{
    for (unsigned i = 0; i < k; i++)
        if (!strcmp(names[i], names[k]))
            return true;
    return false;
}

void fio_job_section_names(const char *const *labels, unsigned n,
                           char (*names)[FIO_JOB_NAME_MAX])
{
    for (unsigned k = 0; k < n; k++) {
        char base[FIO_JOB_NAME_MAX - 12];
        const char *l = labels[k] ? labels[k] : "";
        while (*l == ' ' || *l == '\t')
            l++;
        size_t m = 0;
        for (; *l && m + 1 < sizeof base; l++) {
            unsigned char c = (unsigned char)*l;
            bool cut = c < 0x20 || c == 0x7f || c == ';' || c == '#' || c == '$' || c == '[' ||
                       c == ']';
            base[m++] = cut ? '_' : (char)c;
        }
        while (m && (base[m - 1] == ' ' || base[m - 1] == '\t'))
            m--;
        base[m] = '\0';
        snprintf(names[k], FIO_JOB_NAME_MAX, "%s%s", m ? base : "job",
                 strcasecmp(base, "global") == 0 ? "_" : "");
        str_copy(base, sizeof base, names[k]);
        for (unsigned i = 2; name_taken(names, k); i++)
            snprintf(names[k], FIO_JOB_NAME_MAX, "%s_%u", base, i);
    }
}

/* Job k's name: fio-safe and not an earlier job's. */
static int check_name(const struct fio_job_section *jobs, unsigned k, char *err, size_t errlen)
{
    if (check_text("job name", jobs[k].name, true, err, errlen) < 0)
        return -1;
    for (unsigned i = 0; i < k; i++)
        if (!strcmp(jobs[i].name, jobs[k].name))
            return errf(err, errlen, "fio job: jobs %u and %u are both named '%s': fio would "
                                     "report them under one name", i + 1, k + 1, jobs[k].name);
    return 0;
}

/* What fio_job_write has always checked, in its order: names, target, engine, log, workloads. */
static int check_group(const struct fio_job_section *jobs, unsigned n,
                       const struct fio_job_opts *opts, char *err, size_t errlen)
{
    for (unsigned k = 0; k < n; k++)
        if (check_name(jobs, k, err, errlen) < 0)
            return -1;
    if (check_text("filename", opts->filename, false, err, errlen) < 0 ||
        check_text("ioengine", opts->ioengine, false, err, errlen) < 0 ||
        (opts->iops_log && check_text("IOPS log prefix", opts->iops_log, false, err,
                                      errlen) < 0))
        return -1;
    for (unsigned k = 0; k < n; k++) {
        const struct fio_job_section *s = &jobs[k];
        if (!s->wl || !s->range)
            return errf(err, errlen, "fio job: missing workload, range, options or buffer");
        if (check_workload(s->wl, s->range, err, errlen) < 0 ||
            fio_job_check(s->wl, err, errlen) < 0)
            return -1;
    }
    return 0;
}

int fio_job_write_group(const struct fio_job_section *jobs, unsigned n,
                        const struct fio_job_opts *opts, char *buf, size_t len, char *err,
                        size_t errlen)
{
    if (!jobs || n == 0 || !opts || !buf || len == 0)
        return errf(err, errlen, "fio job: missing jobs, options or buffer");
    buf[0] = '\0';
    if (check_group(jobs, n, opts, err, errlen) < 0)
        return -1;

    struct job_out o = {buf, len, 0};
    put_head(&o, jobs, n, opts);
    put_global(&o, jobs, n, opts);
    for (unsigned k = 0; k < n; k++) {
        struct fio_job_opts so = *opts;
        so.name = jobs[k].name;
        so.bytes = jobs[k].bytes;
        so.force_async = jobs[k].force_async;
        if (put_section(&o, &jobs[k], k, n, &so, err, errlen) < 0) {
            buf[0] = '\0';
            return -1;
        }
    }
    if (o.used >= len) {
        buf[0] = '\0';
        return errf(err, errlen, "fio job: the job file needs %zu bytes, the buffer holds %zu",
                    o.used + 1, len);
    }
    return 0;
}

int fio_job_write(const struct workload *wl, const struct wl_range *range,
                  const struct fio_job_opts *opts, char *buf, size_t len, char *err,
                  size_t errlen)
{
    if (!wl || !range || !opts || !buf || len == 0)
        return errf(err, errlen, "fio job: missing workload, range, options or buffer");
    const struct fio_job_section one = {.wl = wl, .range = range, .name = opts->name,
                                        .bytes = opts->bytes,
                                        .force_async = opts->force_async};
    return fio_job_write_group(&one, 1, opts, buf, len, err, errlen);
}

int fio_version_parse(const char *text, unsigned *major, unsigned *minor, char *err,
                      size_t errlen)
{
    const char *p = text ? text : "";
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    unsigned v[2] = {0, 0};
    bool ok = strncmp(p, "fio-", 4) == 0;
    const char *q = p + 4;
    for (int k = 0; ok && k < 2; k++) {
        if (k == 1 && *q++ != '.')
            ok = false;
        if (ok && (*q < '0' || *q > '9'))
            ok = false;
        unsigned digits = 0;
        while (ok && *q >= '0' && *q <= '9') {
            v[k] = v[k] * 10 + (unsigned)(*q++ - '0');
            if (++digits > 6)
                ok = false;
        }
    }
    if (ok && *q >= '0' && *q <= '9')
        ok = false;
    if (!ok) {
        size_t n = strcspn(p, "\r\n");
        return errf(err, errlen, "'%.*s' is not a fio version (want fio-MAJOR.MINOR, e.g. "
                                 "fio-3.33)", (int)(n > 80 ? 80 : n), p);
    }
    if (major)
        *major = v[0];
    if (minor)
        *minor = v[1];
    return 0;
}
