/* fio_json.c — read fio's JSON output (see fio_json.h).
 *
 * Finding the object.  fio prints text around its JSON: warnings on stdout (issues #731,
 * #1685, #2048), the "normal" report when several output formats are asked for, and an empty
 * line before the object in client mode.  The object starts with a '{' at the beginning of a
 * line (fio indents everything nested), so every such '{' is a candidate: json_tokener parses
 * from it and json_tokener_get_parse_end() says where the object ends.  The first candidate
 * that parses into an object with "jobs" or "client_stats" wins; everything before and after
 * it is kept, byte for byte, in out->log.  When no candidate works the message of the first
 * failure is returned (bad or truncated JSON, where it stopped); with no candidate at all the
 * message names the first byte that is not white space and quotes its line.
 *
 * Local runs: the entries of "jobs" are read, and those of one jobname added together into
 * out->jobs[k] (a job's numjobs clones without group_reporting; with it, and one job per
 * reporting group as fio_job.c writes several, each job has one entry, taken as it is);
 * out->total is the first job's.
 * Client/server with several jobs (jobnames): per job, each host's entries added together into
 * its hosts, and the job's total the sum over its hosts (fio's "All clients" aggregate is
 * ignored then: it is printed for one job group).
 * Client/server (fio --client, fio 3.33 checked): there is no "jobs" array; "client_stats"
 * holds one entry per host and job group, each with the same fields as a jobs[] entry plus
 * "hostname" and "port" (no "elapsed"), and, only when there are two or more clients, one more
 * entry whose "jobname" is "All clients": the aggregate (its hostname/port are those of one of
 * the clients, so it is recognised by the jobname).  The aggregate has latency min/max/mean/N
 * but neither percentiles nor json+ bins.  Here:
 *   - out->hosts: the first entry of every host (hostname and port); host is the hostname, or
 *     "hostname,port" (fio's --client syntax) when the port is not fio's default 8765;
 *   - out->total: the "All clients" entry; when fio gave none (one client, or fio issue #1881)
 *     a single host is copied, several are summed (I/Os, bytes, IOPS, bandwidth; longest
 *     runtime; latency min/max, N-weighted mean);
 *   - bins: when the aggregate has no bins but every host has, the aggregate gets the hosts'
 *     bins added together (fio's bins have the same values on every host), provided their
 *     counts add up to the aggregate's N.  Percentiles of the aggregate stay NAN: fio does not
 *     report them and they cannot be combined from the hosts' percentiles (the bins can: see
 *     fio_lat_to_hist);
 *   - "disk_util": one entry per host and device, each with that host's "hostname" and "port"
 *     (fio 3.33, checked in tests/fixtures/fio/clientserver.json): the host's first entry is
 *     its hosts[].disk (the device as the host's kernel names it).
 *
 * Latency: "lat_ns" (total, submit to completion), "clat_ns" only when "lat_ns" is absent.
 * Percentile keys are fio's "%f" strings ("99.900000"); they are matched numerically.
 * Absent fields read as 0 ("elapsed" in client mode), absent percentiles as NAN. */
#include "engine/fio_json.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "engine/engine.h"
#include "lib/util.h"

/* The FIO_NPCT percentiles fio reports (fio_job.c's percentile_list). */
static const double fio_pct_want[FIO_NPCT] = {50.0, 90.0, 99.0, 99.9, 99.99, 99.999,
                                               99.9999};

#define FIO_DEFAULT_PORT 8765

static void set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    for (char *c = err; *c; c++)   /* one line: fio's text may hold control characters */
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
}

/* ---- numbers ---------------------------------------------------------------------------- */

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!o || !json_object_is_type(o, json_type_object))
        return NULL;
    if (!json_object_object_get_ex(o, key, &v))
        return NULL;
    return v;
}

static bool is_number(json_object *v)
{
    return v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double));
}

static double get_double(json_object *o, const char *key, double dflt)
{
    json_object *v = get(o, key);
    return is_number(v) ? json_object_get_double(v) : dflt;
}

static uint64_t num_u64(json_object *v)
{
    if (json_object_is_type(v, json_type_double)) {
        double d = json_object_get_double(v);
        return d > 0 ? (uint64_t)llround(d) : 0;
    }
    return json_object_get_uint64(v);   /* 0 for negative values */
}

static uint64_t get_u64(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return is_number(v) ? num_u64(v) : 0;
}

static void get_str(json_object *o, const char *key, char *buf, size_t len)
{
    json_object *v = get(o, key);
    const char *s = v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
    snprintf(buf, len, "%s", s);
}

/* ---- one entry ------------------------------------------------------------------------- */

static int cmp_bin(const void *a, const void *b)
{
    uint64_t x = ((const struct fio_bin *)a)->ns, y = ((const struct fio_bin *)b)->ns;
    return (x > y) - (x < y);
}

/* Sort by ns and add up the counts of equal values (in place). */
static size_t bins_normalise(struct fio_bin *b, size_t n)
{
    if (n == 0)
        return 0;
    qsort(b, n, sizeof(*b), cmp_bin);
    size_t k = 0;
    for (size_t i = 1; i < n; i++) {
        if (b[i].ns == b[k].ns)
            b[k].count += b[i].count;
        else
            b[++k] = b[i];
    }
    return k + 1;
}

static void read_bins(json_object *bins, struct fio_lat *l)
{
    if (!bins || !json_object_is_type(bins, json_type_object))
        return;
    size_t cap = (size_t)json_object_object_length(bins);
    if (cap == 0)
        return;
    struct fio_bin *b = calloc(cap, sizeof(*b));
    if (!b)
        return;
    size_t n = 0;
    json_object_object_foreach(bins, key, val) {
        char *end;
        unsigned long long ns = strtoull(key, &end, 10);
        if (end == key || *end != '\0' || !is_number(val))
            continue;
        uint64_t count = num_u64(val);
        if (count == 0 || n == cap)
            continue;
        b[n].ns = ns;
        b[n].count = count;
        n++;
    }
    n = bins_normalise(b, n);
    if (n == 0) {
        free(b);
        return;
    }
    l->bins = b;
    l->n_bins = n;
}

static void read_percentiles(json_object *pct, struct fio_lat *l)
{
    if (!pct || !json_object_is_type(pct, json_type_object))
        return;
    json_object_object_foreach(pct, key, val) {
        char *end;
        double p = strtod(key, &end);
        if (end == key || !is_number(val))
            continue;
        for (int i = 0; i < FIO_NPCT; i++)
            if (fabs(p - fio_pct_want[i]) < 1e-6)
                l->pct_ns[i] = json_object_get_double(val);
    }
}

static void read_lat(json_object *d, struct fio_lat *l)
{
    for (int i = 0; i < FIO_NPCT; i++)
        l->pct_ns[i] = NAN;
    json_object *lat = get(d, "lat_ns");
    if (!lat)
        lat = get(d, "clat_ns");
    if (!lat)
        return;
    l->n = get_u64(lat, "N");
    l->min_ns = get_double(lat, "min", 0.0);
    l->max_ns = get_double(lat, "max", 0.0);
    l->mean_ns = get_double(lat, "mean", 0.0);
    read_percentiles(get(lat, "percentile"), l);
    read_bins(get(lat, "bins"), l);
}

static void read_dir(json_object *d, struct fio_dir *out)
{
    out->ios = get_u64(d, "total_ios");
    out->bytes = get_u64(d, "io_bytes");
    out->runtime_ms = get_double(d, "runtime", 0.0);
    out->iops = get_double(d, "iops", 0.0);
    out->bw_bytes = get_double(d, "bw_bytes", 0.0);
    read_lat(d, &out->lat);
}

static void read_stats(json_object *job, struct fio_stats *st)
{
    get_str(job, "jobname", st->jobname, sizeof(st->jobname));
    json_object *e = get(job, "error");
    st->error = is_number(e) ? (int)json_object_get_int64(e) : 0;
    st->elapsed_s = get_double(job, "elapsed", 0.0);
    read_dir(get(job, "read"), &st->dir[0]);
    read_dir(get(job, "write"), &st->dir[1]);
    read_dir(get(job, "trim"), &st->dir[2]);
}

static void stats_free(struct fio_stats *st)
{
    for (int d = 0; d < FIO_NDIR; d++) {
        free(st->dir[d].lat.bins);
        st->dir[d].lat.bins = NULL;
        st->dir[d].lat.n_bins = 0;
    }
}

/* Deep copy (bins); false when out of memory. */
static bool stats_copy(struct fio_stats *dst, const struct fio_stats *src)
{
    *dst = *src;
    for (int d = 0; d < FIO_NDIR; d++) {
        struct fio_lat *l = &dst->dir[d].lat;
        if (!l->n_bins)
            continue;
        l->bins = malloc(l->n_bins * sizeof(*l->bins));
        if (!l->bins) {
            l->n_bins = 0;
            stats_free(dst);
            return false;
        }
        memcpy(l->bins, src->dir[d].lat.bins, l->n_bins * sizeof(*l->bins));
    }
    return true;
}

/* ---- client/server ---------------------------------------------------------------------- */

/* A host's name as ptsbench records it: fio's "hostname", then ",port" for a port that is not
 * fio's default (host holds the hostname; the port is appended). */
static void host_name_port(char *host, size_t len, int port)
{
    if (port && port != FIO_DEFAULT_PORT) {
        size_t l = strnlen(host, len);
        snprintf(host + l, len - l, ",%d", port);
    }
}

/* Client/server: each "disk_util" entry carries the hostname and port of the server whose
 * kernel counted it (fio client.c: the server sends its disk_util with its stats); it is
 * given to that host's figures in every job (the first entry of a host: fio reports one per
 * device the job touched, the job's own device first). */
static void host_disks(json_object *du, struct fio_output *out)
{
    size_t n = json_object_array_length(du);
    for (size_t i = 0; i < n; i++) {
        json_object *d = json_object_array_get_idx(du, i);
        char host[256];
        if (!d || !json_object_is_type(d, json_type_object))
            continue;
        get_str(d, "hostname", host, sizeof(host));
        if (!host[0])   /* a local run's entry */
            continue;
        host_name_port(host, sizeof(host), (int)get_u64(d, "port"));
        struct fio_disk disk = {.present = true};
        get_str(d, "name", disk.name, sizeof(disk.name));
        double u = get_double(d, "util", NAN);
        disk.util_pct = u >= 0 && u <= 100 ? u : NAN;
        disk.read_ios = get_u64(d, "read_ios");
        disk.write_ios = get_u64(d, "write_ios");
        for (unsigned k = 0; k < out->n_hosts; k++)
            if (!out->hosts[k].disk.present && !strcmp(out->hosts[k].host, host))
                out->hosts[k].disk = disk;
        for (unsigned j = 0; j < out->n_jobs; j++)
            for (unsigned k = 0; k < out->jobs[j].n_hosts; k++) {
                struct fio_stats *h = &out->jobs[j].hosts[k];
                if (!h->disk.present && !strcmp(h->host, host))
                    h->disk = disk;
            }
    }
}

/* The hosts' bins of direction d added together into agg (when every host with I/Os has bins
 * and their counts add up to agg's N). */
static void merge_host_bins(const struct fio_stats *hosts, unsigned n_hosts, int d,
                            struct fio_lat *agg)
{
    if (agg->n_bins)
        return;
    size_t n = 0;
    uint64_t total = 0;
    for (unsigned i = 0; i < n_hosts; i++) {
        const struct fio_lat *l = &hosts[i].dir[d].lat;
        if (l->n && !l->n_bins)
            return;
        n += l->n_bins;
        for (size_t k = 0; k < l->n_bins; k++)
            total += l->bins[k].count;
    }
    if (n == 0 || total != agg->n)
        return;
    struct fio_bin *b = malloc(n * sizeof(*b));
    if (!b)
        return;
    size_t k = 0;
    for (unsigned i = 0; i < n_hosts; i++) {
        const struct fio_lat *l = &hosts[i].dir[d].lat;
        memcpy(b + k, l->bins, l->n_bins * sizeof(*b));
        k += l->n_bins;
    }
    agg->bins = b;
    agg->n_bins = bins_normalise(b, n);
}

/* The aggregate fio did not print: sums over the hosts (percentiles NAN, bins merged later). */
static void sum_hosts(const struct fio_stats *hosts, unsigned n_hosts, struct fio_stats *agg)
{
    memset(agg, 0, sizeof(*agg));
    snprintf(agg->jobname, sizeof(agg->jobname), "%s", hosts[0].jobname);
    for (int d = 0; d < FIO_NDIR; d++)
        for (int i = 0; i < FIO_NPCT; i++)
            agg->dir[d].lat.pct_ns[i] = NAN;
    for (unsigned i = 0; i < n_hosts; i++) {
        const struct fio_stats *h = &hosts[i];
        if (!agg->error)
            agg->error = h->error;
        agg->elapsed_s = fmax(agg->elapsed_s, h->elapsed_s);
        for (int d = 0; d < FIO_NDIR; d++) {
            const struct fio_dir *s = &h->dir[d];
            struct fio_dir *a = &agg->dir[d];
            a->ios += s->ios;
            a->bytes += s->bytes;
            a->runtime_ms = fmax(a->runtime_ms, s->runtime_ms);
            a->iops += s->iops;
            a->bw_bytes += s->bw_bytes;
            if (!s->lat.n)
                continue;
            if (!a->lat.n || s->lat.min_ns < a->lat.min_ns)
                a->lat.min_ns = s->lat.min_ns;
            if (!a->lat.n || s->lat.max_ns > a->lat.max_ns)
                a->lat.max_ns = s->lat.max_ns;
            double n = (double)a->lat.n + (double)s->lat.n;
            a->lat.mean_ns = (a->lat.mean_ns * (double)a->lat.n
                              + s->lat.mean_ns * (double)s->lat.n) / n;
            a->lat.n += s->lat.n;
        }
    }
}

static int read_clients(json_object *cs, struct fio_output *out, const char *ver, char *err,
                        size_t errlen)
{
    size_t n = json_object_array_length(cs);
    out->hosts = calloc(n, sizeof(*out->hosts));
    int *ports = calloc(n, sizeof(*ports));
    if (!out->hosts || !ports) {
        free(ports);
        set_err(err, errlen, "%s JSON: out of memory", ver);
        return -1;
    }
    bool have_all = false;
    for (size_t i = 0; i < n; i++) {
        json_object *c = json_object_array_get_idx(cs, i);
        if (!c || !json_object_is_type(c, json_type_object))
            continue;
        char jobname[sizeof(out->total.jobname)];
        get_str(c, "jobname", jobname, sizeof(jobname));
        if (strcmp(jobname, "All clients") == 0) {
            if (!have_all) {
                read_stats(c, &out->total);
                have_all = true;
            }
            continue;
        }
        char hostname[sizeof(out->total.host)];
        get_str(c, "hostname", hostname, sizeof(hostname));
        int port = (int)get_u64(c, "port");
        bool seen = false;
        for (unsigned k = 0; k < out->n_hosts && !seen; k++)
            seen = ports[k] == port && strcmp(out->hosts[k].host, hostname) == 0;
        if (seen)              /* a later job group of the same host */
            continue;
        struct fio_stats *h = &out->hosts[out->n_hosts];
        read_stats(c, h);
        snprintf(h->host, sizeof(h->host), "%s", hostname);
        ports[out->n_hosts++] = port;
    }
    for (unsigned k = 0; k < out->n_hosts; k++)
        host_name_port(out->hosts[k].host, sizeof(out->hosts[k].host), ports[k]);
    free(ports);
    if (out->n_hosts == 0 && !have_all) {
        set_err(err, errlen, "%s JSON: \"client_stats\" has no job entries", ver);
        return -1;
    }
    if (!have_all) {
        if (out->n_hosts == 1) {
            if (!stats_copy(&out->total, &out->hosts[0])) {
                set_err(err, errlen, "%s JSON: out of memory", ver);
                return -1;
            }
        } else {
            sum_hosts(out->hosts, out->n_hosts, &out->total);
        }
    }
    out->total.host[0] = '\0';
    for (int d = 0; d < FIO_NDIR; d++)
        merge_host_bins(out->hosts, out->n_hosts, d, &out->total.dir[d].lat);
    return 0;
}

/* ---- jobs ---------------------------------------------------------------------------- */

/* n entries of one job (its clones, or its entries on one host) as one into agg: a copy of the
 * only one, else their sum (sum_hosts) with their bins merged. false when out of memory. */
static bool stats_sum(const struct fio_stats *e, unsigned n, struct fio_stats *agg)
{
    if (n == 1)
        return stats_copy(agg, e);
    sum_hosts(e, n, agg);
    for (int d = 0; d < FIO_NDIR; d++)
        merge_host_bins(e, n, d, &agg->dir[d].lat);
    return true;
}

static void job_free(struct fio_job_figures *j)
{
    stats_free(&j->total);
    for (unsigned i = 0; i < j->n_hosts; i++)
        stats_free(&j->hosts[i]);
    free(j->hosts);
    memset(j, 0, sizeof(*j));
}

/* Is e[i]'s jobname one of e[0 .. i-1]'s? */
static bool name_seen(const struct fio_stats *e, unsigned i)
{
    for (unsigned k = 0; k < i; k++)
        if (strcmp(e[k].jobname, e[i].jobname) == 0)
            return true;
    return false;
}

/* The first job's figures as out->total and out->hosts. */
static bool first_job_as_total(struct fio_output *out)
{
    const struct fio_job_figures *j = &out->jobs[0];
    if (!stats_copy(&out->total, &j->total))
        return false;
    if (!j->n_hosts)
        return true;
    out->hosts = calloc(j->n_hosts, sizeof(*out->hosts));
    if (!out->hosts)
        return false;
    for (; out->n_hosts < j->n_hosts; out->n_hosts++)
        if (!stats_copy(&out->hosts[out->n_hosts], &j->hosts[out->n_hosts]))
            return false;
    return true;
}

/* One job: out->total and out->hosts (read_clients) are jobs[0] too. */
static bool total_as_first_job(struct fio_output *out)
{
    out->jobs = calloc(1, sizeof(*out->jobs));
    if (!out->jobs)
        return false;
    out->n_jobs = 1;
    struct fio_job_figures *j = &out->jobs[0];
    if (!stats_copy(&j->total, &out->total))
        return false;
    if (!out->n_hosts)
        return true;
    j->hosts = calloc(out->n_hosts, sizeof(*j->hosts));
    if (!j->hosts)
        return false;
    for (; j->n_hosts < out->n_hosts; j->n_hosts++)
        if (!stats_copy(&j->hosts[j->n_hosts], &out->hosts[j->n_hosts]))
            return false;
    return true;
}

/* Each jobname's entries among e[0 .. n-1] added together into out->jobs (local runs). */
static bool sum_jobs(const struct fio_stats *e, unsigned n, struct fio_output *out)
{
    struct fio_stats *pick = calloc(n ? n : 1, sizeof(*pick));
    out->jobs = calloc(n ? n : 1, sizeof(*out->jobs));
    bool ok = pick && out->jobs;
    for (unsigned i = 0; ok && i < n; i++) {
        if (name_seen(e, i))
            continue;
        unsigned c = 0;
        for (unsigned k = i; k < n; k++)
            if (strcmp(e[k].jobname, e[i].jobname) == 0)
                pick[c++] = e[k];
        ok = stats_sum(pick, c, &out->jobs[out->n_jobs++].total);
    }
    free(pick);
    return ok;
}

static int read_jobs(json_object *jobs, struct fio_output *out, const char *ver, char *err,
                     size_t errlen)
{
    json_object *j0 = json_object_array_get_idx(jobs, 0);
    if (!j0 || !json_object_is_type(j0, json_type_object)) {
        set_err(err, errlen, "%s JSON: jobs[0] is not an object", ver);
        return -1;
    }
    size_t n = json_object_array_length(jobs);
    struct fio_stats *all = calloc(n, sizeof(*all));
    unsigned m = 0;
    for (size_t i = 0; all && i < n; i++) {
        json_object *j = json_object_array_get_idx(jobs, i);
        if (j && json_object_is_type(j, json_type_object))
            read_stats(j, &all[m++]);
    }
    bool ok = all && sum_jobs(all, m, out) && first_job_as_total(out);
    for (unsigned i = 0; i < m; i++)
        stats_free(&all[i]);
    free(all);
    if (!ok) {
        set_err(err, errlen, "%s JSON: out of memory", ver);
        return -1;
    }
    return 0;
}

/* One job of several on fio's clients: each host's entries of it added together, in order of
 * the hosts' first entry, and the job's total the sum over its hosts. e[i].host is
 * "hostname" and port[i] its port. */
static bool client_job(const struct fio_stats *e, const int *port, unsigned n, unsigned first,
                       struct fio_job_figures *job)
{
    struct fio_stats *pick = calloc(n, sizeof(*pick));
    job->hosts = calloc(n, sizeof(*job->hosts));
    bool ok = pick && job->hosts;
    for (unsigned i = first; ok && i < n; i++) {
        if (strcmp(e[i].jobname, e[first].jobname) != 0)
            continue;
        bool seen = false;   /* an earlier entry of this job on the same host */
        for (unsigned k = first; k < i && !seen; k++)
            seen = strcmp(e[k].jobname, e[i].jobname) == 0 && port[k] == port[i] &&
                   strcmp(e[k].host, e[i].host) == 0;
        if (seen)
            continue;
        unsigned c = 0;
        for (unsigned k = i; k < n; k++)
            if (strcmp(e[k].jobname, e[i].jobname) == 0 && port[k] == port[i] &&
                strcmp(e[k].host, e[i].host) == 0)
                pick[c++] = e[k];
        struct fio_stats *h = &job->hosts[job->n_hosts++];
        ok = stats_sum(pick, c, h);
        snprintf(h->host, sizeof(h->host), "%s", e[i].host);
        host_name_port(h->host, sizeof(h->host), port[i]);
    }
    free(pick);
    if (ok && job->n_hosts) {
        ok = stats_sum(job->hosts, job->n_hosts, &job->total);
        job->total.host[0] = '\0';
    }
    return ok;
}

/* Client/server: fio's entries read (All clients left out); one jobname: read_clients as
 * ever, its figures the one job's; several: client_job for each. */
static int read_client_jobs(json_object *cs, struct fio_output *out, const char *ver,
                            char *err, size_t errlen)
{
    size_t n = json_object_array_length(cs);
    struct fio_stats *e = calloc(n, sizeof(*e));
    int *port = calloc(n, sizeof(*port));
    unsigned m = 0, names = 0;
    for (size_t i = 0; e && port && i < n; i++) {
        json_object *c = json_object_array_get_idx(cs, i);
        char jobname[sizeof(e->jobname)];
        get_str(c, "jobname", jobname, sizeof(jobname));
        if (!c || !json_object_is_type(c, json_type_object) || !strcmp(jobname, "All clients"))
            continue;
        read_stats(c, &e[m]);
        get_str(c, "hostname", e[m].host, sizeof(e[m].host));
        port[m] = (int)get_u64(c, "port");
        names += !name_seen(e, m);
        m++;
    }
    bool ok = e && port;
    int rc = 0;
    if (ok && names <= 1) {
        rc = read_clients(cs, out, ver, err, errlen);
        ok = rc != 0 || total_as_first_job(out);
    } else if (ok) {
        out->jobs = calloc(names, sizeof(*out->jobs));
        ok = out->jobs != NULL;
        for (unsigned i = 0; ok && i < m; i++)
            if (!name_seen(e, i))
                ok = client_job(e, port, m, i, &out->jobs[out->n_jobs++]);
        ok = ok && first_job_as_total(out);
    }
    for (unsigned i = 0; e && i < m; i++)
        stats_free(&e[i]);
    free(e);
    free(port);
    if (!ok) {
        set_err(err, errlen, "%s JSON: out of memory", ver);
        return -1;
    }
    return rc;
}

/* ---- finding the object ----------------------------------------------------------------- */

/* A byte for a message: 'f', '\n', '\x00'. */
static void byte_desc(unsigned char c, char *buf, size_t len)
{
    if (c == '\n')
        snprintf(buf, len, "'\\n'");
    else if (c == '\r')
        snprintf(buf, len, "'\\r'");
    else if (c == '\t')
        snprintf(buf, len, "'\\t'");
    else if (c == '\'' || c == '\\')
        snprintf(buf, len, "'\\%c'", c);
    else if (isprint(c))
        snprintf(buf, len, "'%c'", c);
    else
        snprintf(buf, len, "'\\x%02x'", c);
}

/* The line holding text[off] from off on (at most 80 bytes, non-printables as '?'). */
static void line_from(const char *text, size_t len, size_t off, char *buf, size_t blen)
{
    size_t k = 0;
    for (size_t i = off; i < len && text[i] != '\n' && text[i] != '\r' && k + 4 < blen; i++) {
        if (k == 80) {
            memcpy(buf + k, "...", 3);
            k += 3;
            break;
        }
        unsigned char c = (unsigned char)text[i];
        buf[k++] = isprint(c) ? (char)c : '?';
    }
    buf[k] = '\0';
}

static unsigned line_of(const char *text, size_t off)
{
    unsigned line = 1;
    for (size_t i = 0; i < off; i++)
        line += text[i] == '\n';
    return line;
}

/* Parse the object starting at text[start]. Returns it (and its end offset), or NULL with
 * the reason in err. */
static json_object *parse_at(const char *text, size_t len, size_t start, size_t *end,
                             const char *ver, char *err, size_t errlen)
{
    json_tokener *tok = json_tokener_new();
    if (!tok) {
        set_err(err, errlen, "%s JSON: out of memory", ver);
        return NULL;
    }
    size_t n = len - start;
    if (n > (size_t)INT32_MAX)
        n = (size_t)INT32_MAX;
    json_object *o = json_tokener_parse_ex(tok, text + start, (int)n);
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    size_t stop = start + json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (o && json_object_is_type(o, json_type_object)) {
        /* json-c also eats the white space after the object: give it back to the log */
        while (stop > start && text[stop - 1] != '}' && isspace((unsigned char)text[stop - 1]))
            stop--;
        *end = stop;
        return o;
    }
    json_object_put(o);
    unsigned sline = line_of(text, start);
    if (jerr == json_tokener_continue || (o == NULL && stop >= len)) {
        /* the text ended inside the object */
        size_t tail = stop > start + 24 ? stop - 24 : start;
        char last[40];
        line_from(text, stop, tail, last, sizeof(last));
        set_err(err, errlen,
                "%s printed truncated JSON: the object at offset %zu (line %u) is unfinished "
                "where the output ends, at offset %zu (line %u), after \"%s\"",
                ver, start, sline, stop, line_of(text, stop), last);
    } else {
        char c[8] = "";
        if (stop < len)
            byte_desc((unsigned char)text[stop], c, sizeof(c));
        set_err(err, errlen,
                "%s printed bad JSON: %s at offset %zu (line %u, byte %s) in the object at "
                "offset %zu (line %u)",
                ver, jerr != json_tokener_success ? json_tokener_error_desc(jerr)
                                                  : "not an object",
                stop, line_of(text, stop), c[0] ? c : "end", start, sline);
    }
    return NULL;
}

/* ---- sanity --------------------------------------------------------------------------------- */

/* fio's figures of one round, believable or not. A job that did no I/O, I/Os in no time, fewer
 * bytes than I/Os, an I/O rate no device reaches or a latency outside [0, FIO_MAX_LAT_NS] is not
 * a measurement (an overflowed counter, a job killed before it started, a truncated or edited
 * file): the round is refused rather than recorded as IOPS 0 or 1.8e19. A job that reports an
 * error is left to the caller, which names fio's errno. */
#define FIO_MAX_IOPS 1e10            /* a hundred times the fastest devices */
#define FIO_MAX_LAT_NS 1e15          /* 11.6 days */

static bool lat_ok(double v) { return isfinite(v) && v >= 0 && v <= FIO_MAX_LAT_NS; }

static int check_stats(const struct fio_stats *st, const char *ver, char *err, size_t errlen)
{
    static const char *const names[FIO_NDIR] = {"read", "write", "trim"};
    if (st->error)
        return 0;
    if (st->dir[0].ios == 0 && st->dir[1].ios == 0 && st->dir[2].ios == 0) {
        set_err(err, errlen, "%s JSON: job '%s' did no I/O (read and write total_ios 0): not a "
                "complete round", ver, st->jobname);
        return -1;
    }
    for (int d = 0; d < FIO_NDIR; d++) {
        const struct fio_dir *x = &st->dir[d];
        if (!x->ios)
            continue;
        unsigned long long ios = (unsigned long long)x->ios;
        if (!isfinite(x->runtime_ms) || x->runtime_ms <= 0) {
            set_err(err, errlen, "%s JSON: %s: %llu I/Os in a runtime of %g ms: not a "
                    "measurement", ver, names[d], ios, x->runtime_ms);
            return -1;
        }
        if (x->bytes < x->ios) {
            set_err(err, errlen, "%s JSON: %s: %llu I/Os but %llu bytes (less than a byte an "
                    "I/O): not a believable count", ver, names[d], ios,
                    (unsigned long long)x->bytes);
            return -1;
        }
        double iops = (double)x->ios / (x->runtime_ms / 1000.0);
        if (iops > FIO_MAX_IOPS) {
            set_err(err, errlen, "%s JSON: %s: %llu I/Os in %g ms is %.3g IOPS, more than %.0e: "
                    "not a believable count", ver, names[d], ios, x->runtime_ms, iops,
                    FIO_MAX_IOPS);
            return -1;
        }
        if (!lat_ok(x->lat.min_ns) || !lat_ok(x->lat.mean_ns) || !lat_ok(x->lat.max_ns)) {
            set_err(err, errlen, "%s JSON: %s: latency min %g, mean %g, max %g ns: outside 0 to "
                    "%.0e ns", ver, names[d], x->lat.min_ns, x->lat.mean_ns, x->lat.max_ns,
                    FIO_MAX_LAT_NS);
            return -1;
        }
    }
    return 0;
}

/* ---- the API ---------------------------------------------------------------------------- */

static int fill(json_object *root, struct fio_output *out, const char *ver, char *err,
                size_t errlen)
{
    get_str(root, "fio version", out->version, sizeof(out->version));
    if (!out->version[0])
        snprintf(out->version, sizeof(out->version), "%s", ver);
    out->disk_util_pct = NAN;
    json_object *du = get(root, "disk_util");
    if (du && json_object_is_type(du, json_type_array) && json_object_array_length(du) > 0) {
        double u = get_double(json_object_array_get_idx(du, 0), "util", NAN);
        if (u >= 0 && u <= 100)
            out->disk_util_pct = u;
    }
    json_object *cs = get(root, "client_stats");
    json_object *jobs = get(root, "jobs");
    int rc;
    if (cs && json_object_is_type(cs, json_type_array) && json_object_array_length(cs) > 0) {
        rc = read_client_jobs(cs, out, ver, err, errlen);
    } else if (!jobs || !json_object_is_type(jobs, json_type_array) ||
               json_object_array_length(jobs) == 0) {
        set_err(err, errlen, "%s JSON has no jobs (no \"jobs\" or \"client_stats\" entries)",
                ver);
        return -1;
    } else {
        rc = read_jobs(jobs, out, ver, err, errlen);
    }
    if (rc != 0)
        return -1;
    if (du && json_object_is_type(du, json_type_array))
        host_disks(du, out);
    if (check_stats(&out->total, ver, err, errlen) != 0)
        return -1;
    for (unsigned k = 1; k < out->n_jobs; k++)
        if (check_stats(&out->jobs[k].total, ver, err, errlen) != 0)
            return -1;
    return 0;
}

int fio_output_parse(const char *text, size_t len, const char *fio_version,
                     struct fio_output *out, char *err, size_t errlen)
{
    const char *ver = fio_version && fio_version[0] ? fio_version : "fio";
    memset(out, 0, sizeof(*out));
    if (!text)
        len = 0;

    char first_err[512] = "";
    for (size_t p = 0; p < len; p++) {
        if (text[p] != '{' || (p > 0 && text[p - 1] != '\n'))
            continue;
        size_t end = 0;
        char e[512];
        json_object *root = parse_at(text, len, p, &end, ver, e, sizeof(e));
        if (root) {
            int rc = fill(root, out, ver, e, sizeof(e));
            json_object_put(root);
            if (rc == 0) {
                size_t nlog = p + (len - end);
                out->log = malloc(nlog + 1);
                if (!out->log) {
                    fio_output_free(out);
                    set_err(err, errlen, "%s JSON: out of memory", ver);
                    return -1;
                }
                memcpy(out->log, text, p);
                memcpy(out->log + p, text + end, len - end);
                out->log[nlog] = '\0';
                return 0;
            }
            fio_output_free(out);
        }
        if (!first_err[0])
            snprintf(first_err, sizeof(first_err), "%s", e);
    }
    if (first_err[0]) {
        set_err(err, errlen, "%s", first_err);
        return -1;
    }

    size_t i = 0;
    while (i < len && isspace((unsigned char)text[i]))
        i++;
    if (i == len) {
        set_err(err, errlen, "%s printed no JSON: the output is %s", ver,
                len ? "only white space" : "empty");
        return -1;
    }
    char c[8], line[96];
    byte_desc((unsigned char)text[i], c, sizeof(c));
    line_from(text, len, i, line, sizeof(line));
    set_err(err, errlen, "%s printed no JSON: first bad byte at offset %zu: %s (line %u: \"%s\")",
            ver, i, c, line_of(text, i), line);
    return -1;
}

void fio_output_free(struct fio_output *o)
{
    if (!o)
        return;
    stats_free(&o->total);
    for (unsigned i = 0; i < o->n_hosts; i++)
        stats_free(&o->hosts[i]);
    free(o->hosts);
    for (unsigned k = 0; k < o->n_jobs; k++)
        job_free(&o->jobs[k]);
    free(o->jobs);
    free(o->log);
    memset(o, 0, sizeof(*o));
}

const struct fio_job_figures *fio_output_job(const struct fio_output *o, const char *jobname)
{
    for (unsigned k = 0; o && jobname && k < o->n_jobs; k++)
        if (strcmp(o->jobs[k].total.jobname, jobname) == 0)
            return &o->jobs[k];
    return NULL;
}

/* ---- histogram -------------------------------------------------------------------------- */

/* The bins go into h as count samples at fio's bucket value each.  That value lies in the
 * same ptsbench bucket as every sample fio put in that bin (fio's bins and ours have the same
 * bounds: exact below 128 ns, then 64 per power of two), so the buckets are fio's.  fio's exact
 * figures then replace the bin-derived ones where the histogram stays consistent:
 *   - min: fio's min when it falls in the bucket of the lowest bin (else the lowest bin value);
 *   - max: fio's max when it falls in the bucket of the highest bin (else the highest bin);
 *   - sum: llround(mean * N) when the bins hold exactly N samples and min <= mean <= max (the
 *     histogram's mean is then fio's), else the sum of the bin values.
 * The result is merged into h's existing content (count, sum added; min, max widened). */
bool fio_lat_to_hist(const struct fio_lat *l, struct hist *h)
{
    if (!l || !l->bins || l->n_bins == 0)
        return false;
    /* one bin = count samples at ns: bucket by hist_index, no loop over the samples */
    uint64_t count = 0, sum = 0, lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < l->n_bins; i++) {
        const struct fio_bin *b = &l->bins[i];
        if (b->count == 0)
            continue;
        h->buckets[hist_index(b->ns)] += b->count;
        count += b->count;
        sum += b->ns * b->count;
        if (b->ns < lo)
            lo = b->ns;
        if (b->ns > hi)
            hi = b->ns;
    }
    if (count == 0)
        return false;
    uint64_t min = lo, max = hi;
    if (l->min_ns >= 0 && l->min_ns <= l->max_ns) {
        uint64_t fmin = (uint64_t)llround(l->min_ns), fmax_ = (uint64_t)llround(l->max_ns);
        if (hist_index(fmin) == hist_index(lo))
            min = fmin;
        if (hist_index(fmax_) == hist_index(hi))
            max = fmax_;
    }
    if (l->n == count && l->mean_ns >= (double)min && l->mean_ns <= (double)max)
        sum = (uint64_t)llround(l->mean_ns * (double)l->n);

    /* merge: the buckets are in already */
    h->count += count;
    h->sum += sum;
    if (min < h->min)
        h->min = min;
    if (max > h->max)
        h->max = max;
    return true;
}

/* ---- into ptsbench's figures ------------------------------------------------------------- */

void fio_dir_hist(const struct fio_dir *d, struct hist *h)
{
    if (fio_lat_to_hist(&d->lat, h))
        return;
    /* plain JSON (no bins): one value per I/O at the mean keeps count and mean exact */
    uint64_t v = (uint64_t)llround(d->lat.mean_ns);
    h->buckets[hist_index(v)] += d->ios;
    h->count += d->ios;
    h->sum += v * d->ios;
    if ((uint64_t)d->lat.min_ns < h->min)
        h->min = (uint64_t)d->lat.min_ns;
    if ((uint64_t)d->lat.max_ns > h->max)
        h->max = (uint64_t)d->lat.max_ns;
}

void fio_host_figures(const struct fio_stats *h, struct host_figures *hf)
{
    memset(hf, 0, sizeof(*hf));
    snprintf(hf->host, sizeof(hf->host), "%s", h->host);
    for (int d = 0; d < IO_NDIR; d++) {
        const struct fio_dir *x = &h->dir[d];
        hf->ios[d] = x->ios;
        hf->bytes[d] = x->bytes;
        hf->iops[d] = x->iops;
        hf->lat_mean_us[d] = x->ios ? x->lat.mean_ns / 1000.0 : NAN;
        if (x->ios) {   /* the host's own histogram, from its bins as the round's */
            hf->lat[d] = xcalloc(1, sizeof(*hf->lat[d]));
            hist_init(hf->lat[d]);
            fio_dir_hist(x, hf->lat[d]);
        }
    }
    hf->runtime_s = fmax(fmax(h->dir[0].runtime_ms, h->dir[1].runtime_ms), h->dir[2].runtime_ms)
                    / 1000.0;
    if (h->disk.present) {
        hf->disk = (struct host_disk){.present = true, .util_pct = h->disk.util_pct,
                                      .read_ios = h->disk.read_ios,
                                      .write_ios = h->disk.write_ios};
        snprintf(hf->disk.name, sizeof(hf->disk.name), "%s", h->disk.name);
    }
}
