/* cli_common.c — data directories, signals, shared option parsers and the registries' lists for
 * --help, shared by the subcommands. */
#include "cli/cli.h"

#include <errno.h>
#include <libgen.h>
#include <stdbool.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/metrics.h"
#include "device/numa.h"
#include "device/purge.h"
#include "engine/engine.h"
#include "io/workload.h"
#include "lib/spawn.h"
#include "lib/util.h"
#include "profile/profile.h"
#include "pts/pts_def.h"
#include "judge/gate.h"
#include "read/measure.h"
#include "sim/sim_preset.h"

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

void cli_install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;   /* a second ^C kills the usual way */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    spawn_watch_stop(&stop_flag);   /* children started SPAWN_STOPPABLE (fio) stop with us */
}

volatile sig_atomic_t *cli_stop_flag(void) { return &stop_flag; }

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Where `sub` may be, in order, existing or not: $PTSBENCH_DATADIR/sub; the install prefix,
 * found from the binary (BIN/../share/ptsbench/sub: `make install PREFIX=/x` after a plain
 * `make` moves the binary, so the compiled-in prefix alone would miss it), then the compiled-in
 * one; the source tree next to the binary (build/../sub); ./sub. Returns how many (at most
 * CLI_DATA_CANDIDATES). */
#define CLI_DATA_CANDIDATES 5
static unsigned data_candidates(const char *sub, char (*cand)[PATH_MAX])
{
    unsigned n = 0;
    const char *env = getenv("PTSBENCH_DATADIR");
    if (env && *env)
        snprintf(cand[n++], PATH_MAX, "%s/%s", env, sub);
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    char bindir[PATH_MAX] = "";
    if (len > 0) {
        exe[len] = '\0';
        snprintf(bindir, sizeof(bindir), "%s", dirname(exe));
        snprintf(cand[n++], PATH_MAX, "%s/../share/ptsbench/%s", bindir, sub);
    }
    snprintf(cand[n++], PATH_MAX, "%s/%s", PTSBENCH_DATADIR, sub);
    if (bindir[0])
        snprintf(cand[n++], PATH_MAX, "%s/../%s", bindir, sub);
    snprintf(cand[n++], PATH_MAX, "%s", sub);
    return n;
}

/* One list per sub-directory name ("pts", "profiles"), kept for the process: a caller may hold
 * the lists of several at once. */
const char *const *cli_data_dirs(const char *sub)
{
    /* one slot per data directory ever asked for (profiles, profiles/devices,
     * profiles/devices/calibration, pts, specs, traces): a caller keeps the list it got while
     * it asks for another, so a slot is never reused for a different directory */
    static struct {
        char sub[32];
        char store[CLI_DATA_CANDIDATES][PATH_MAX];
        const char *list[CLI_DATA_CANDIDATES + 1];
    } cache[12];
    const unsigned nslots = sizeof(cache) / sizeof(cache[0]);
    unsigned slot = 0;
    while (slot < nslots - 1 && cache[slot].sub[0] && strcmp(cache[slot].sub, sub) != 0)
        slot++;
    snprintf(cache[slot].sub, sizeof(cache[slot].sub), "%s", sub);
    char (*store)[PATH_MAX] = cache[slot].store;
    const char **list = cache[slot].list;

    char cand[CLI_DATA_CANDIDATES][PATH_MAX];
    const unsigned nc = data_candidates(sub, cand);
    /* the existing ones, each directory once (PTSBENCH_DATADIR = the source tree, or the
     * binary in PREFIX/bin) */
    char real[CLI_DATA_CANDIDATES][PATH_MAX];
    unsigned m = 0;
    for (unsigned i = 0; i < nc; i++) {
        if (!realpath(cand[i], real[m]) || !is_dir(real[m]))
            continue;
        bool dup = false;
        for (unsigned j = 0; j < m && !dup; j++)
            dup = !strcmp(real[m], real[j]);
        if (dup)
            continue;
        /* relative candidates stay as given (./profiles), others by their real path */
        snprintf(store[m], PATH_MAX, "%s", cand[i][0] == '/' ? real[m] : cand[i]);
        list[m] = store[m];
        m++;
    }
    list[m] = NULL;
    return list;
}

void cli_data_searched(const char *sub, char *buf, size_t len)
{
    char cand[CLI_DATA_CANDIDATES][PATH_MAX];
    const unsigned nc = data_candidates(sub, cand);
    size_t pos = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < nc && pos < len; i++) {
        char real[PATH_MAX];
        const char *shown = realpath(cand[i], real) ? real : cand[i];
        int w = snprintf(buf + pos, len - pos, "%s%s", i ? ", " : "", shown);
        if (w < 0)
            break;
        pos += (size_t)w;
    }
}

/* --spec: an existing file, else NAME or NAME.ini in the specs data directories. */
int cli_find_spec(const char *spec, char *out, size_t len, char *err, size_t errlen)
{
    struct stat st;
    if (stat(spec, &st) == 0 && S_ISREG(st.st_mode)) {
        str_copy(out, len, spec);
        return 0;
    }
    const char *const *dirs = cli_data_dirs("specs");
    if (!strchr(spec, '/')) {
        for (const char *const *d = dirs; *d; d++) {
            snprintf(out, len, "%s/%s", *d, spec);
            if (stat(out, &st) == 0 && S_ISREG(st.st_mode))
                return 0;
            snprintf(out, len, "%s/%s.ini", *d, spec);
            if (stat(out, &st) == 0 && S_ISREG(st.st_mode))
                return 0;
        }
    }
    if (!dirs[0])
        return errf(err, errlen, "no such file (and no specs directory to look in)");
    return errf(err, errlen, "no such file, nor %s.ini in %s", spec, dirs[0]);
}

/* HOST[:PORT] or [ADDR]:PORT without the port: what fio names a host's logs by. */
static void remote_address(const char *r, char *buf, size_t len)
{
    const char *end = r[0] == '[' ? strchr(r, ']') : strrchr(r, ':');
    if (r[0] == '[' && end)
        end++;
    snprintf(buf, len, "%.*s", end ? (int)(end - r) : (int)strlen(r), r);
}

static int add_remote(const char *host, const char **list, unsigned *n, unsigned max, char *err,
                      size_t errlen)
{
    if (!*host || strchr(host, ' ') || strchr(host, ','))
        return errf(err, errlen, "bad host '%s' (want HOST or HOST:PORT)", host);
    const char *colon = strrchr(host, ':');
    if (colon && host[0] != '[') {
        char *end;
        long port = strtol(colon + 1, &end, 10);
        if (colon == host || *end || port < 1 || port > 65535)
            return errf(err, errlen, "bad host '%s' (want HOST or HOST:PORT, port 1..65535)", host);
    }
    if (*n >= max)
        return errf(err, errlen, "at most %u remote hosts", max);
    /* fio (client.c fio_client_handle_iolog) writes each server's logs as NAME.HOSTNAME, the
     * port left out, and appends: two servers at one address would write one log */
    char addr[300], other[300];
    remote_address(host, addr, sizeof(addr));
    for (unsigned i = 0; i < *n; i++) {
        remote_address(list[i], other, sizeof(other));
        if (strcmp(addr, other) == 0)
            return errf(err, errlen, "%s is already a host (%s); fio names each host's logs "
                        "by its address without the port, so each server needs an address of "
                        "its own", addr, list[i]);
    }
    list[(*n)++] = xstrdup(host);
    return 0;
}

int cli_add_remotes(const char *value, const char **list, unsigned *n, unsigned max, char *err,
                    size_t errlen)
{
    if (value[0] != '@')
        return add_remote(value, list, n, max, err, errlen);
    FILE *f = fopen(value + 1, "r");
    if (!f)
        return errf(err, errlen, "cannot read host file %s: %s", value + 1, strerror(errno));
    char line[512];
    int ret = 0;
    unsigned before = *n;
    while (ret == 0 && fgets(line, sizeof(line), f)) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *h = str_trim(line);
        if (*h)
            ret = add_remote(h, list, n, max, err, errlen);
    }
    fclose(f);
    if (ret == 0 && *n == before)
        return errf(err, errlen, "host file %s lists no host", value + 1);
    return ret;
}

void cli_free_remotes(const char **list, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        free((void *)list[i]);
}

int cli_parse_tolerance(const char *value, void *target, char *err, size_t errlen)
{
    return gate_parse_tolerance(value, target, err, errlen);
}

int cli_parse_metric_list(const char *value, void *target, char *err, size_t errlen)
{
    struct cli_metric_list *m = target;
    m->n = gate_parse_metrics(value, m->v, err, errlen);
    return m->n < 0 ? -1 : 0;
}

int cli_parse_precondition_fast(const char *value, void *target, char *err, size_t errlen)
{
    const struct cli_precondition *pc = target;
    *pc->fast = !strncmp(value, "fast", 4) && (!value[4] || value[4] == ':');
    *pc->fast_rho = 0;
    if (!*pc->fast) {
        if (wl_precondition_parse(value, pc->mode) != 0)
            return errf(err, errlen, "want none, wipc, steady or fast[:RHO]");
        return 0;
    }
    if (value[4] == ':') {
        char *end = NULL;
        *pc->fast_rho = strtod(value + 5, &end);
        if (end == value + 5 || *end || !(*pc->fast_rho > 0 && *pc->fast_rho <= 4))
            return errf(err, errlen, "fast:RHO: want a spare factor in (0, 4], e.g. fast:0.28");
    }
    *pc->mode = WL_PRECOND_STEADY;
    return 0;
}

int cli_parse_op(const char *value, void *target, char *err, size_t errlen)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(value, &end);
    const bool pct = end != value && *end == '%' && !end[1];
    if (end == value || (*end && !pct) || errno || !isfinite(v))
        return errf(err, errlen, "want a percentage (28%%) or a spare factor (0.28)");
    if (pct)
        v /= 100;
    if (!(v > 0 && v <= 4))
        return errf(err, errlen, "want a spare factor in (0, 4] (a percentage in (0%%, 400%%])");
    *(double *)target = v;
    return 0;
}

int cli_parse_purge(const char *value, void *target, char *err, size_t errlen)
{
    if (purge_method_parse(value, target) != 0)
        return errf(err, errlen, "want auto, secure-erase, format, sanitize, discard or none");
    return 0;
}

int cli_parse_numa(const char *value, void *target, char *err, size_t errlen)
{
    return numa_parse_mode(value, target, err, errlen);
}

int cli_parse_cpus(const char *value, void *target, char *err, size_t errlen)
{
    return numa_parse_cpus(value, target, err, errlen);
}

/* Append name to the comma-separated list in buf (truncated, never overrun). */
static void list_add(char *buf, size_t len, const char *name)
{
    size_t k = strlen(buf);
    snprintf(buf + k, len - k, "%s%s", k ? ", " : "", name);
}

void cli_registry_list(enum cli_registry which, char *buf, size_t len)
{
    buf[0] = '\0';
    switch (which) {
    case CLI_ENGINES:
        for (const struct engine_ops *const *e = engine_list(); *e; e++)
            list_add(buf, len, (*e)->name);
        break;
    case CLI_PTS_TESTS:   /* already "a, b, c" */
        pts_def_list(cli_data_dirs("pts"), buf, len);
        break;
    case CLI_SIM_PRESETS:
        sim_preset_names_join(cli_data_dirs("profiles/devices"), buf, len);
        break;
    case CLI_PROFILES: {
        static char names[128][64];
        unsigned n = profile_list(cli_data_dirs("profiles"), names, 128);
        for (unsigned i = 0; i < n; i++)
            list_add(buf, len, names[i]);
        break;
    }
    case CLI_METRICS:
        for (size_t i = 0; metrics_tracking_names[i]; i++)
            list_add(buf, len, metrics_tracking_names[i]);
        break;
    case CLI_MEAS_METRICS:
        for (int m = 0; m < MEAS_N; m++)
            list_add(buf, len, meas_metric_name((enum meas_metric)m));
        break;
    }
    if (!buf[0])
        snprintf(buf, len, "(none found)");
}

void cli_print_registry(FILE *f, const char *title, enum cli_registry which, unsigned indent,
                        const char *tail)
{
    char list[4096];
    cli_registry_list(which, list, sizeof(list));
    if (tail && *tail) {
        size_t k = strlen(list);
        snprintf(list + k, sizeof(list) - k, " %s", tail);
    }
    unsigned col = (unsigned)fprintf(f, "%s", title);
    for (char *save = NULL, *w = strtok_r(list, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        const unsigned wl = (unsigned)strlen(w);
        if (col + 1 + wl > 92) {
            fprintf(f, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > 0) {
            fputc(' ', f);
            col++;
        }
        col += (unsigned)fprintf(f, "%s", w);
    }
    fputc('\n', f);
}
