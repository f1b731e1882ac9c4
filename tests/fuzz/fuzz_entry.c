/* fuzz_entry.c — the parsers' fuzzing entry functions (see fuzz_entry.h). */
#include "fuzz_entry.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/fio_json.h"
#include "judge/gate.h"
#include "stats/hist.h"
#include "lib/ini.h"
#include "judge/junit.h"
#include "read/measure.h"
#include "plot/plot.h"
#include "profile/profile.h"
#include "pts/pts_def.h"
#include "report/report.h"
#include "show/show.h"
#include "sim/sim_preset.h"
#include "lib/util.h"
#include "judge/verify.h"
#include "io/workload.h"
#include "device/capture.h"
#include "io/trace.h"
#include "io/tracegen.h"

#define FUZZ_MAX_TEXT (1u << 20)   /* inputs past 1 MiB are cut (libFuzzer's are far smaller) */

/* ---- scratch files -------------------------------------------------------------------------- */

static char scratch[256];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void scratch_remove(void)
{
    if (scratch[0])
        nftw(scratch, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The scratch directories of harnesses that died (a crash skips atexit): ptsbench-fuzz-PID-*
 * of a process that is gone. */
static void scratch_reap(const char *base)
{
    DIR *d = opendir(base);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        int pid;
        if (sscanf(e->d_name, "ptsbench-fuzz-%d-", &pid) != 1 || pid <= 0 ||
            kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        char path[512];
        snprintf(path, sizeof(path), "%s/%s", base, e->d_name);
        nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    }
    closedir(d);
}

const char *fuzz_scratch(void)
{
    if (scratch[0])
        return scratch;
    const char *tmp = getenv("TMPDIR");
    const char *base = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : tmp && *tmp ? tmp : "/tmp";
    scratch_reap(base);
    snprintf(scratch, sizeof(scratch), "%s/ptsbench-fuzz-%d-XXXXXX", base, (int)getpid());
    if (!mkdtemp(scratch)) {
        fprintf(stderr, "fuzz: cannot create %s: %s\n", scratch, strerror(errno));
        abort();
    }
    atexit(scratch_remove);
    return scratch;
}

/* scratch/rel, its directories created. */
static const char *scratch_path(const char *rel, char *buf, size_t len)
{
    size_t base = strlen(fuzz_scratch());
    snprintf(buf, len, "%s/%s", fuzz_scratch(), rel);
    for (char *slash = strchr(buf + base + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST) {
            fprintf(stderr, "fuzz: cannot create %s: %s\n", buf, strerror(errno));
            abort();
        }
        *slash = '/';
    }
    return buf;
}

/* The input as the file scratch/rel. */
static const char *put_file(const char *rel, const uint8_t *data, size_t size, char *buf,
                            size_t len)
{
    scratch_path(rel, buf, len);
    int fd = open(buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        fprintf(stderr, "fuzz: cannot write %s: %s\n", buf, strerror(errno));
        abort();
    }
    for (size_t off = 0; off < size;) {
        ssize_t w = write(fd, data + off, size - off);
        if (w <= 0) {
            fprintf(stderr, "fuzz: cannot write %s: %s\n", buf, strerror(errno));
            abort();
        }
        off += (size_t)w;
    }
    close(fd);
    return buf;
}

/* The input as a C string (cut at the first NUL, as every caller of a text parser sees it). */
static char *text_of(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_TEXT)
        size = FUZZ_MAX_TEXT;
    char *s = xcalloc(1, size + 1);
    memcpy(s, data, size);
    return s;
}

static FILE *devnull(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    if (!f)
        abort();
    return f;
}

/* The error contract: a refused input comes with one line that says something. */
static int verdict(const char *what, int rc, const char *err)
{
    if (rc == 0)
        return 0;
    if (!err[0] || strchr(err, '\n') || strchr(err, '\r')) {
        fprintf(stderr, "fuzz: %s refused the input with a bad message: \"%s\"\n", what, err);
        abort();
    }
    return 1;
}

static const char *data_dir(void)
{
    const char *d = getenv("PTSBENCH_DATADIR");
    return d && *d ? d : ".";
}

/* ---- fixtures, loaded once -------------------------------------------------------------------- */

/* The points of a suite results file (the fixture cut down to a few rows: gate's and verify's
 * output over every point of the full fixture would cost a tenth of a second an input): what
 * spec sheets are judged against, and a baseline. */
static const struct meas_set *fixture_points(void)
{
    static struct meas_set set;
    static bool loaded;
    if (!loaded) {
        char path[4096], err[ERR_LEN];
        snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/results/suite-6300.json",
                 data_dir());
        if (meas_load(path, &set, err, sizeof(err)) != 0) {
            fprintf(stderr, "fuzz: %s (set PTSBENCH_DATADIR to the source tree)\n", err);
            abort();
        }
        loaded = true;
    }
    return &set;
}

/* A spec sheet that results are judged against. */
static const struct verify_sheet *fixture_sheet(void)
{
    static struct verify_sheet sheet;
    static bool loaded;
    if (!loaded) {
        char path[4096], err[ERR_LEN];
        snprintf(path, sizeof(path), "%s/specs/zdrive-6300-1.6t.ini", data_dir());
        if (verify_sheet_load(path, &sheet, err, sizeof(err)) != 0) {
            fprintf(stderr, "fuzz: %s (set PTSBENCH_DATADIR to the source tree)\n", err);
            abort();
        }
        loaded = true;
    }
    return &sheet;
}

/* ---- workload strings ----------------------------------------------------------------------- */

/* A workload that parsed: its canonical form must read back to the same workload, and the
 * target checks and sector fitting must cope with it. */
static void workload_use(struct workload *wl, const uint8_t *data, size_t size)
{
    char canon[2048], again[2048], err[ERR_LEN];
    wl_format(wl, canon, sizeof(canon));
    struct workload back;
    if (wl_parse_inline(canon, &back, err, sizeof(err)) != 0) {
        fprintf(stderr, "fuzz: the canonical form '%s' does not read back: %s\n", canon, err);
        abort();
    }
    wl_format(&back, again, sizeof(again));
    if (strcmp(canon, again)) {
        fprintf(stderr, "fuzz: canonical form '%s' reads back as '%s'\n", canon, again);
        abort();
    }
    uint64_t cap = 1ull << 30;
    if (size >= 8)
        memcpy(&cap, data + size - 8, 8);
    static const uint32_t sectors[] = {512, 4096, 520};
    for (size_t i = 0; i < sizeof(sectors) / sizeof(sectors[0]); i++) {
        struct wl_range r;
        verdict("wl_check_target", wl_check_target(wl, cap, sectors[i], "fuzz", &r, err,
                                                   sizeof(err)), err);
        struct workload fit = *wl;
        char what[256];
        wl_fit_sector(&fit, sectors[i], what, sizeof(what));
    }
}

static int fuzz_workload(const uint8_t *data, size_t size)
{
    char *s = text_of(data, size);
    char err[ERR_LEN];
    struct workload wl;
    int rc = verdict("wl_parse_inline", wl_parse_inline(s, &wl, err, sizeof(err)), err);
    if (rc == 0)
        workload_use(&wl, data, size);

    /* one key=value through wl_set (a value may hold commas here), then validated */
    char *eq = strchr(s, '=');
    struct workload one;
    wl_init(&one);
    if (eq) {
        *eq = '\0';
        if (verdict("wl_set", wl_set(&one, s, eq + 1, "fuzz", err, sizeof(err)), err) == 0 &&
            verdict("wl_validate", wl_validate(&one, err, sizeof(err)), err) == 0)
            workload_use(&one, data, size);
        *eq = '=';
    }
    struct wl_sweep sw;
    wl_sweep_parse(s, 0, 65536, &sw, err, sizeof(err));
    enum wl_precondition pre;
    wl_precondition_parse(s, &pre);
    free(s);
    return rc;
}

/* ---- INI files: profiles, PTS definitions, presets, spec sheets ------------------------------ */

static int fuzz_profile(const uint8_t *data, size_t size)
{
    char path[4096], err[ERR_LEN];
    put_file("profile/fuzz.ini", data, size, path, sizeof(path));
    struct profile p;
    int rc = verdict("profile_load", profile_load(path, NULL, &p, err, sizeof(err)), err);
    for (unsigned i = 0; rc == 0 && i < p.n; i++)
        workload_use(&p.wls[i], data, size);
    if (rc == 0)
        profile_free(&p);

    /* the same text from memory, every section on its own (NAME:SECTION) */
    char *s = text_of(data, size);
    struct ini_file f;
    if (verdict("ini_parse_string", ini_parse_string(s, "fuzz.ini", &f, err, sizeof(err)),
                err) == 0) {
        for (size_t i = 0; i < f.n_sections && i < 8; i++) {
            struct workload wl;
            if (verdict("wl_load_ini", wl_load_ini(&f, f.sections[i].name, &wl, err,
                                                   sizeof(err)), err) == 0)
                workload_use(&wl, data, size);
        }
        ini_free(&f);
    }
    free(s);
    return rc;
}

static int fuzz_pts(const uint8_t *data, size_t size)
{
    char path[4096], err[ERR_LEN];
    put_file("pts/fuzz.ini", data, size, path, sizeof(path));
    put_file("pts/specs.ini", data, size, path, sizeof(path));
    *strrchr(path, '/') = '\0';
    const char *dirs[] = {path, NULL};
    static const char *const specs[] = {"pts-2.0-e", NULL};
    int rc = 1;
    for (size_t i = 0; i < 2; i++) {
        struct pts_def d;
        if (verdict("pts_def_load", pts_def_load("fuzz", specs[i], dirs, &d, err, sizeof(err)),
                    err) == 0) {
            rc = 0;
            for (unsigned k = 0; k < d.n_track; k++) {
                char t[128];
                pts_track_format(&d.track[k], t, sizeof(t));
            }
        }
    }
    /* the same file as specs.ini: its first section as the spec version */
    char *s = text_of(data, size);
    struct ini_file f;
    if (ini_parse_string(s, "specs.ini", &f, err, sizeof(err)) == 0) {
        const char *name = f.n_sections ? f.sections[0].name : "pts-2.0-e";
        struct pts_spec sp;
        verdict("pts_spec_load", pts_spec_load(name, dirs, &sp, err, sizeof(err)), err);
        ini_free(&f);
    }
    free(s);
    char list[512];
    pts_def_list(dirs, list, sizeof(list));
    return rc;
}

static int fuzz_preset(const uint8_t *data, size_t size)
{
    char path[4096], err[ERR_LEN], devices[4096];
    put_file("devices/fuzz.ini", data, size, path, sizeof(path));
    *strrchr(path, '/') = '\0';
    snprintf(devices, sizeof(devices), "%s/profiles/devices", data_dir());
    const char *dirs[] = {path, devices, NULL};
    struct sim_params p;
    int rc = verdict("sim_preset_load", sim_preset_load("fuzz", dirs, &p, err, sizeof(err)), err);
    if (rc == 0)
        sim_params_describe(&p, devnull());

    /* the first line as a target: sim:LINE (a preset of the tree, then key=value overrides) */
    char target[600];
    size_t n = 0;
    while (n < size && n < 512 && data[n] != '\n' && data[n] != '\0')
        n++;
    snprintf(target, sizeof(target), "sim:%.*s", (int)n, (const char *)data);
    if (verdict("sim_target_parse", sim_target_parse(target, dirs, &p, err, sizeof(err)),
                err) == 0)
        sim_params_describe(&p, devnull());
    return rc;
}

static void claim_use(const struct verify_claim *c, const struct meas_point *pts, size_t n)
{
    struct verify_result r;
    verify_check(c, pts, n, VERIFY_DEFAULT_TOLERANCE, &r);
    char buf[1024];
    verify_claim_conditions(c, buf, sizeof(buf));
    verify_match_reason(c, &r.match, buf, sizeof(buf));
    verify_match_differences(c, &r.match, buf, sizeof(buf));
    verify_assumed_names(c->assumed, buf, sizeof(buf));
}

static int fuzz_sheet(const uint8_t *data, size_t size)
{
    const struct meas_set *pts = fixture_points();
    char path[4096], err[ERR_LEN];
    put_file("specs/fuzz.ini", data, size, path, sizeof(path));
    struct verify_sheet sheet;
    int rc = verdict("verify_sheet_load", verify_sheet_load(path, &sheet, err, sizeof(err)), err);
    if (rc == 0) {
        for (size_t i = 0; i < sheet.n; i++)
            claim_use(&sheet.c[i], pts->p, pts->n);
        verify_sheet_free(&sheet);
    }
    /* the value parsers on the first line */
    char *s = text_of(data, size);
    char *nl = strchr(s, '\n');
    if (nl)
        *nl = '\0';
    double v;
    struct verify_unit u;
    bool has_unit;
    uint32_t bs;
    verify_parse_quantity(s, &v, &u, &has_unit, err, sizeof(err));
    verify_parse_bs(s, &bs, err, sizeof(err));
    verify_parse_tolerance(s, &v, err, sizeof(err));
    free(s);
    return rc;
}

/* ---- fio's JSON --------------------------------------------------------------------------- */

static int fuzz_fio(const uint8_t *data, size_t size)
{
    char err[ERR_LEN];
    struct fio_output o;
    int rc = verdict("fio_output_parse",
                     fio_output_parse((const char *)data, size, "fio-3.33", &o, err, sizeof(err)),
                     err);
    if (rc != 0)
        return rc;
    static struct hist h;
    for (int d = 0; d < 2; d++) {
        hist_init(&h);
        fio_lat_to_hist(&o.total.dir[d].lat, &h);
        for (unsigned i = 0; i < o.n_hosts; i++)
            fio_lat_to_hist(&o.hosts[i].dir[d].lat, &h);
        hist_percentile(&h, 99.9);
        hist_mean(&h);
    }
    fio_output_free(&o);
    return 0;
}

/* ---- results documents: show, measure (+ verify), report, plot, gate ------------------------- */

static int fuzz_show(const uint8_t *data, size_t size)
{
    char path[4096], file[4200], err[ERR_LEN];
    put_file("show/results.json", data, size, path, sizeof(path));
    struct json_object *doc;
    int rc = verdict("show_load", show_load(path, &doc, file, sizeof(file), err, sizeof(err)),
                     err);
    if (rc == 0) {
        show_write(devnull(), doc, (unsigned)(size % 3) * 3);
        json_object_put(doc);
    }
    return rc;
}

static int fuzz_measure(const uint8_t *data, size_t size)
{
    const struct verify_sheet *sheet = fixture_sheet();
    char path[4096], err[ERR_LEN];
    put_file("measure/run/results.json", data, size, path, sizeof(path));
    struct meas_set set;
    int rc = verdict("meas_load", meas_load(path, &set, err, sizeof(err)), err);
    if (rc == 0) {
        for (size_t i = 0; i < sheet->n; i++)
            claim_use(&sheet->c[i], set.p, set.n);
        meas_find(&set, set.p[0].key);
        meas_free(&set);
    }
    /* the same file found in a directory walk */
    *strrchr(path, '/') = '\0';
    *strrchr(path, '/') = '\0';
    if (verdict("meas_load (directory)", meas_load(path, &set, err, sizeof(err)), err) == 0)
        meas_free(&set);
    return rc;
}

static int fuzz_report(const uint8_t *data, size_t size)
{
    char path[4096], file[4200], out[4096], err[ERR_LEN];
    put_file("report/results.json", data, size, path, sizeof(path));
    struct report_input in[2] = {{0}};
    int rc = verdict("report_load",
                     report_load(path, &in[0].doc, file, sizeof(file), err, sizeof(err)), err);
    if (rc != 0)
        return rc;
    in[0].path = file;
    in[1] = in[0];
    in[1].label = "second";
    scratch_path("report/out/x", out, sizeof(out));
    *strrchr(out, '/') = '\0';
    struct report_config cfg = {.out_dir = out, .no_plots = 1};
    for (size_t n = 1; n <= 2 && rc == 0; n++)   /* one device, then two side by side */
        rc = verdict("report_write", report_write(in, n, &cfg, NULL, 0, NULL, 0, err,
                                                  sizeof(err)), err);
    json_object_put(in[0].doc);
    return rc;
}

static int fuzz_plot(const uint8_t *data, size_t size)
{
    char path[4096], file[4200], err[ERR_LEN];
    put_file("plot/results.json", data, size, path, sizeof(path));
    struct json_object *doc;
    int rc = verdict("report_load", report_load(path, &doc, file, sizeof(file), err,
                                                sizeof(err)), err);
    if (rc != 0)
        return rc;
    char label[512];
    plot_default_label(doc, label, sizeof(label));
    struct plot_input in[2] = {{.doc = doc, .label = label, .source = file},
                               {.doc = doc, .label = "second", .source = NULL}};
    plot_build(in, 1);
    plot_build(in, 2);
    json_object_put(doc);
    return 0;
}

static void gate_use(const struct meas_set *base, const struct meas_set *cur)
{
    static const enum meas_metric all[] = {MEAS_IOPS, MEAS_READ_IOPS, MEAS_WRITE_IOPS, MEAS_MB_S,
                                           MEAS_LAT_MEAN_US, MEAS_LAT_P99_US, MEAS_LAT_MAX_US};
    struct gate_options o = {.tolerance = GATE_DEFAULT_TOLERANCE, .metrics = all,
                             .n_metrics = sizeof(all) / sizeof(all[0]),
                             .baseline_path = "base", .current_path = "cur"};
    struct gate_result r;
    gate_run(base, cur, &o, &r);
    gate_write_text(devnull(), &r, false);
    char msg[1024];
    for (size_t i = 0; i < r.n; i++)
        gate_case_message(&r.c[i], r.tolerance, msg, sizeof(msg));
    struct json_object *j = gate_json(&r);
    json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY);
    json_object_put(j);
    junit_write(devnull(), &r, "2024-01-01T00:00:00Z");
    gate_result_free(&r);
}

static int fuzz_gate(const uint8_t *data, size_t size)
{
    const struct meas_set *fixture = fixture_points();
    char path[4096], err[ERR_LEN];
    put_file("gate/results.json", data, size, path, sizeof(path));
    struct meas_set cur;
    int rc = verdict("meas_load", meas_load(path, &cur, err, sizeof(err)), err);
    if (rc != 0)
        return rc;
    gate_use(fixture, &cur);
    gate_use(&cur, &cur);
    gate_use(&cur, fixture);
    meas_free(&cur);
    return 0;
}

/* ---- the table --------------------------------------------------------------------------- */

/* A trace file (any of replay's formats, told apart by its bytes) read, measured and fitted
 * to a small target; each line through the tracepoint converter; the same bytes as a synthetic
 * trace definition, drawn at a size of at most a thousand I/Os. */
static int fuzz_trace(const uint8_t *data, size_t size)
{
    char path[4096], err[ERR_LEN];
    put_file("traces/fuzz.trace", data, size, path, sizeof(path));
    struct trace t = {0};
    int rc = verdict("trace_load", trace_load(path, &t, err, sizeof(err)), err);
    if (rc == 0)
        rc = verdict("trace_finish", trace_finish(&t, err, sizeof(err)), err);
    if (rc == 0) {
        struct trace_stats st;
        trace_stats(&t, &st);
        uint64_t raised;
        static const char *const modes[] = {"scale", "wrap", "none"};
        for (int m = 0; m < 3; m++)
            verdict("trace_remap", trace_remap(&t, 1u << 30, 4096, modes[m], &raised, err,
                                               sizeof(err)), err);
    }
    trace_free(&t);
    char *s = text_of(data, size), *save = NULL, out[640];
    uint64_t seq = 0;
    for (char *line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        capture_line_to_blkparse(line, ++seq, out, sizeof(out));
    free(s);
    char def[4096];
    put_file("traces/fuzz.ini", data, size, def, sizeof(def));
    struct tracegen_def d;
    if (verdict("tracegen_load", tracegen_load(def, NULL, &d, err, sizeof(err)), err) == 0) {
        struct trace g;
        if (verdict("tracegen_run", tracegen_run(&d, d.ios > 1000 ? 1000 / d.ios : 1, 1, &g,
                                                  err, sizeof(err)), err) == 0) {
            struct trace_stats st;
            trace_stats(&g, &st);
        }
        trace_free(&g);
    }
    return rc;
}

const struct fuzz_target fuzz_targets[] = {
    {"workload", fuzz_workload, "workload strings: wl_parse_inline, wl_set, wl_sweep_parse", 0},
    {"profile", fuzz_profile, "profiles: profile_load, ini_parse_string, wl_load_ini", 0},
    {"pts", fuzz_pts, "PTS definitions and spec versions: pts_def_load, pts_spec_load", 0},
    {"preset", fuzz_preset, "simulated-drive presets and sim: targets: sim_preset_load", 0},
    {"sheet", fuzz_sheet, "spec sheets: verify_sheet_load, verify_check", 0},
    {"fio", fuzz_fio, "fio's JSON output: fio_output_parse, fio_lat_to_hist", 1},
    {"show", fuzz_show, "results through show: show_load, show_write", 1},
    {"measure", fuzz_measure, "results through measure and verify: meas_load, verify_check", 1},
    {"report", fuzz_report, "results through report: report_load, report_write", 1},
    {"plot", fuzz_plot, "results through plot's readers: plot_build", 1},
    {"gate", fuzz_gate, "results through gate: meas_load, gate_run, gate_json, junit_write", 1},
    {"trace", fuzz_trace, "traces for replay: trace_load, trace_stats, trace_remap, "
                          "tracegen_load, tracegen_run, capture_line_to_blkparse", 0},
};
const size_t fuzz_n_targets = sizeof(fuzz_targets) / sizeof(fuzz_targets[0]);

const struct fuzz_target *fuzz_target_find(const char *name)
{
    for (size_t i = 0; i < fuzz_n_targets; i++)
        if (!strcmp(fuzz_targets[i].name, name))
            return &fuzz_targets[i];
    return NULL;
}
