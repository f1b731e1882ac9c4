/* live.c — the live line on a terminal (live.h). */
#include "core/live.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/units.h"
#include "lib/util.h"

#define LIVE_MIN_GAP_NS 200000000ull   /* a line at most every 0.2 s of wall-clock time */

void live_clear(void)
{
    fputs("\r\033[K", stdout);
    fflush(stdout);
}

void live_format_eta(double sec, char *buf, size_t len)
{
    if (!isfinite(sec) || sec < 0)
        snprintf(buf, len, "unknown");
    else if (sec < 60)
        snprintf(buf, len, "%.0f s", sec);
    else if (sec < 3600)
        snprintf(buf, len, "%.0f min", ceil(sec / 60));
    else
        snprintf(buf, len, "%.0f h %02.0f min", floor(sec / 3600), fmod(ceil(sec / 60), 60));
}

/* "412.0 GB", "1.60 TB": decimal, as drives are sold. */
static void fmt_bytes(double b, char *buf, size_t len)
{
    if (b >= 1e12)
        snprintf(buf, len, "%.2f TB", b / 1e12);
    else if (b >= 1e9)
        snprintf(buf, len, "%.1f GB", b / 1e9);
    else
        snprintf(buf, len, "%.1f MB", b / 1e6);
}

void live_meter_hook(void *arg, const struct pool_progress *p)
{
    struct live_meter *m = arg;
    uint64_t now = now_mono_ns();
    if (m->printed && now - m->last_print_ns < LIVE_MIN_GAP_NS)
        return;
    m->printed = true;
    m->last_print_ns = now;
    const double secs = (double)p->elapsed_ns / 1e9;
    uint64_t all_bytes = 0, all_ios = 0;
    for (int d = 0; d < IO_NDIR; d++) {
        all_bytes += p->bytes[d];
        all_ios += p->ios[d];
    }
    const double bytes = (double)all_bytes * m->weight;
    const double ios = (double)all_ios * m->weight;
    const double mb_s = secs > 0 ? bytes / secs / 1e6 : 0;
    const char *sim = m->sim ? " (simulated, virtual time)" : "";
    char done[32], eta[32];
    if (m->target_bytes > 0) {
        char target[32];
        fmt_bytes(bytes, done, sizeof(done));
        fmt_bytes(m->target_bytes, target, sizeof(target));
        double left = mb_s > 0 ? (m->target_bytes - bytes) / (mb_s * 1e6) : NAN;
        live_format_eta(left, eta, sizeof(eta));
        printf("\r\033[K%s: %s / %s written (%.0f%%), %.0f MB/s, ETA %s%s", m->prefix, done,
               target, 100.0 * bytes / m->target_bytes, mb_s, eta, sim);
    } else {
        char rate[32];
        if (m->mb_s)
            snprintf(rate, sizeof(rate), "%.1f MB/s", mb_s);
        else {
            units_format_count(secs > 0 ? ios / secs : 0, rate, sizeof(rate));
            snprintf(rate + strlen(rate), sizeof(rate) - strlen(rate), " IOPS");
        }
        if (m->length_s > 0)
            printf("\r\033[K%s  [%.0f%% of %.0f s: %s]%s", m->prefix,
                   fmin(100.0, 100.0 * secs / m->length_s), m->length_s, rate, sim);
        else
            printf("\r\033[K%s  [%.0f s: %s]%s", m->prefix, secs, rate, sim);
    }
    fflush(stdout);
}
