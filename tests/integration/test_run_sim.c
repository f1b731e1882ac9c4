/* test_run_sim.c — `ptsbench run` on the built-in simulated SSD: virtual time, device counters
 * in the results, determinism, the write cliff as the harness sees it, and target errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "helpers.h"
#include "read/histogram.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("sim");
    return dir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_tree(dir);
    free(dir);
    return 0;
}

static struct json_object *run_sim(const char *name, const char *target, const char *workload,
                                   const char *rounds, const char *round_time, bool all_rounds,
                                   double *wall_s)
{
    char out[512], results[600];
    snprintf(out, sizeof(out), "%s/%s", dir, name);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", (char *)target, "--workload",
                    (char *)workload, "--rounds", (char *)rounds, "--round-time",
                    (char *)round_time, "--quiet", "--out", out, NULL, NULL};
    if (all_rounds) {
        argv[11] = "--all-rounds";
        argv[12] = "--out";
        argv[13] = out;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (wall_s)
        *wall_s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    if (r.status != 0)
        print_message("stderr: %s\n", r.errout);
    assert_int_equal(r.status, 0);
    cmd_result_free(&r);
    snprintf(results, sizeof(results), "%s/results.json", out);
    struct json_object *doc = load_json(results);
    assert_non_null(doc);
    return doc;
}

static double num(struct json_object *doc, const char *fmt, unsigned i)
{
    char k[160];
    snprintf(k, sizeof(k), fmt, i);
    return json_num(doc, k);
}

/* Random 4 KiB writes from fresh-out-of-box on the generic drive at OP 7% (k = 8 to keep it
 * quick): the harness sees the write cliff, the SNIA rule finds a flat window before 3x the
 * capacity is written, at the preset's formula (note §3: 11.9K IOPS), with WA near the
 * Lambert-W oracle (7.82 at rho 0.07); device counters in every round; virtual time. Without
 * preconditioning that window is not called steady state: it comes after more than a fill of
 * the stimulus, so it is labelled write saturation (drive_state.h). */
static void test_write_cliff_on_generic(void **state)
{
    (void)state;
    double wall;
    struct json_object *doc = run_sim("cliff", "sim:generic-mlc25,op=7,k=8",
                                      "rw=randwrite,bs=4k,qd=32", "25", "1m", false, &wall);
    assert_string_equal(json_object_get_string(json_at(doc, "engine.name")), "sim");
    assert_string_equal(json_object_get_string(json_at(doc, "engine.clock")), "virtual");
    assert_string_equal(json_object_get_string(json_at(doc, "target.kind")), "simulated");
    /* the tracking variable's parts beside its name: a run's is the metric alone */
    assert_string_equal(json_object_get_string(json_at(doc, "run.track.metric")), "iops");
    assert_string_equal(json_object_get_string(json_at(doc, "steady_state.track.metric")),
                        "iops");
    assert_null(json_at(doc, "steady_state.track.bs"));
    size_t n = json_object_array_length(json_at(doc, "rounds"));
    double capacity = json_num(doc, "target.capacity_bytes");
    for (unsigned i = 0; i < n; i++) {
        print_message("  round %2u: %6.0f IOPS, WA %.2f, %.2f drive fills, free lines %.0f\n",
                      i + 1, num(doc, "rounds.%u.write.iops", i),
                      num(doc, "rounds.%u.device.write_amplification", i),
                      num(doc, "rounds.%u.device.total_host_write_bytes", i) / capacity,
                      num(doc, "rounds.%u.device.free_lines", i));
        assert_true(fabs(num(doc, "rounds.%u.elapsed_s", i) - 60.0) < 1e-6);
    }
    double first = num(doc, "rounds.%u.write.iops", 0);
    double ss_avg = json_num(doc, "steady_state.window.average");
    unsigned ss_round = (unsigned)json_num(doc, "steady_state.window.last_round");
    double fills = num(doc, "rounds.%u.device.total_host_write_bytes", ss_round - 1) / capacity;
    double wa_last = num(doc, "rounds.%u.device.write_amplification", (unsigned)n - 1);
    print_message("generic op=7: round 1 %.0f IOPS; stable at round %u (%.2f fills), average "
                  "%.0f IOPS (formula 11,863), WA %.2f (oracle 7.82); %.1f s wall\n", first,
                  ss_round, fills, ss_avg, wa_last, wall);
    assert_false(json_object_get_boolean(json_at(doc, "steady_state.reached")));
    assert_true(json_object_get_boolean(json_at(doc, "steady_state.stable")));
    assert_string_equal(json_object_get_string(json_at(doc, "steady_state.measured_state")),
                        "saturated");
    assert_non_null(strstr(json_object_get_string(json_at(doc, "steady_state.reason")),
                           "no preconditioning"));
    assert_string_equal(json_object_get_string(json_at(doc, "preconditioning.mode")), "none");
    assert_string_equal(json_object_get_string(json_at(doc, "rounds.0.state.condition")), "fob");
    assert_true(json_object_get_boolean(json_at(doc, "rounds.0.state.simulated")));
    assert_true(fills < 3.0);
    assert_true(fabs(ss_avg / 11863.0 - 1) < 0.10);
    assert_true(first > 3 * ss_avg);                       /* the cliff */
    assert_true(num(doc, "rounds.%u.device.write_amplification", 0) < 1.5);   /* FOB */
    assert_true(wa_last > 0.9 * 7.82 && wa_last < 1.05 * 7.82);
    /* `ptsbench show` prints the table and the verdict from the file. */
    char out[512];
    snprintf(out, sizeof(out), "%s/cliff", dir);
    char *show[] = {(char *)ptsbench_bin(), "show", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(show, &r), 0);
    assert_int_equal(r.status, 0);
    char verdict[96];
    snprintf(verdict, sizeof(verdict), "(write saturation) (iops) at rounds %u-%u", ss_round - 4,
             ss_round);
    assert_non_null(strstr(r.out, verdict));
    assert_non_null(strstr(r.out, "WA"));
    cmd_result_free(&r);
    /* Little's law holds in virtual time too. */
    double last = num(doc, "rounds.%u.write.iops", (unsigned)n - 1);
    double outstanding = last * num(doc, "rounds.%u.write.lat_us.mean", (unsigned)n - 1) / 1e6;
    assert_true(outstanding > 0.9 * 32 && outstanding < 1.1 * 32);
    json_object_put(doc);
}

/* Same seed, same stream: identical rounds, bit for bit. */
static void test_deterministic(void **state)
{
    (void)state;
    struct json_object *a = run_sim("det-a", "sim:generic-mlc25", "rw=randrw,rwmixread=70,bs=4k,qd=8,workers=2", "2", "5", true, NULL);
    struct json_object *b = run_sim("det-b", "sim:generic-mlc25", "rw=randrw,rwmixread=70,bs=4k,qd=8,workers=2", "2", "5", true, NULL);
    const char *ra = json_object_to_json_string(json_at(a, "rounds"));
    const char *rb = json_object_to_json_string(json_at(b, "rounds"));
    assert_string_equal(ra, rb);
    assert_true(json_num(a, "rounds.1.total.iops") > 0);
    json_object_put(a);
    json_object_put(b);
}

/* The round's read 99.99th from its histogram (lat_hist): at k = 8 the round's completions
 * are too few for the recorded one (the tail rule, stats/hist.h, makes it null), and the
 * simulator's pause population is what is checked here. */
static double pct_9999(struct json_object *doc)
{
    struct read_hist *rh = calloc(1, sizeof(*rh));
    assert_non_null(rh);
    read_hist_init(rh);
    assert_int_equal(read_hist_add(rh, json_at(doc, "rounds.0"), READ_HIST_READ), 1);
    const double v = read_hist_percentile_us(rh, 99.99);
    free(rh);
    return v;
}

/* Controller pauses through the harness (sim.h): real time at any k. The same 50/50 QD 1
 * workload with 20 ms pauses every ~500 ms and 10 ms flushes every 100 MB, at k = 1 and k = 8:
 * the same IOPS and the same pause population in the latencies (only one of the k I/Os a
 * completion stands for waits), and the pauses' share of time lost against the drive without. */
static void test_pauses_real_time(void **state)
{
    (void)state;
    const char *wl = "rw=randrw,rwmixread=50,bs=4k,qd=1,workers=4";
    const char *pz = "pause_period_ms=500,pause_ms=20,flush_every_mb=100,flush_ms=10";
    char t1[200], t8[200];
    snprintf(t1, sizeof(t1), "sim:generic-mlc25,%s,k=1", pz);
    snprintf(t8, sizeof(t8), "sim:generic-mlc25,%s,k=8", pz);
    struct json_object *base = run_sim("pz-none", "sim:generic-mlc25", wl, "1", "5", true, NULL);
    struct json_object *a = run_sim("pz-k1", t1, wl, "1", "5", true, NULL);
    struct json_object *b = run_sim("pz-k8", t8, wl, "1", "5", true, NULL);
    double i0 = json_num(base, "rounds.0.total.iops"), i1 = json_num(a, "rounds.0.total.iops"),
           i8 = json_num(b, "rounds.0.total.iops");
    double p1 = pct_9999(a), p8 = pct_9999(b);
    /* writes complete from the buffer: without pauses nothing near a millisecond */
    double m1 = json_num(a, "rounds.0.write.lat_us.max"), m8 = json_num(b, "rounds.0.write.lat_us.max");
    double n0 = json_num(base, "rounds.0.write.lat_us.max");
    print_message("pauses: IOPS %.0f without, %.0f at k 1, %.0f at k 8; read 99.99%% %.0f / %.0f us; "
                  "write max %.0f / %.0f us (%.0f without)\n", i0, i1, i8, p1, p8, m1, m8, n0);
    assert_true(fabs(i8 / i1 - 1) < 0.03);
    assert_true(i1 / i0 > 0.90 && i1 / i0 < 0.98);   /* 20 / 500 of the time, and the flushes */
    assert_true(p1 >= 15000 && p8 >= 15000);
    assert_true(fabs(p8 / p1 - 1) < 0.25);
    assert_true(m1 >= 10000 && m8 >= 10000 && n0 < 1000);
    json_object_put(base);
    json_object_put(a);
    json_object_put(b);
}

/* A scaled preset reports full-size figures: capacity and completion weight. */
static void test_scaled_preset_reports_full_size(void **state)
{
    (void)state;
    struct json_object *doc = run_sim("scaled", "sim:zdrive-6300-1.6t",
                                      "rw=randread,bs=4k,qd=32,workers=4", "1", "2", true, NULL);
    double k = json_num(doc, "target.simulated.time_scale_k");
    double cap = json_num(doc, "target.capacity_bytes");
    double scaled = json_num(doc, "target.simulated.scaled_capacity_bytes");
    print_message("6300: k %.0f, capacity %.0f (scaled %.0f), 4 KiB random read %.0f IOPS\n", k,
                  cap, scaled, json_num(doc, "rounds.0.read.iops"));
    assert_true(k >= 1);
    assert_true(fabs(cap / scaled - k) < 0.01 * k);
    assert_true(json_num(doc, "engine.completion_weight") == k);
    assert_true(cap > 1.5e12);
    json_object_put(doc);
}

static void expect_usage_error(const char *target, const char *engine, const char *needle)
{
    char out[512];
    snprintf(out, sizeof(out), "%s/never", dir);
    char *argv[16];
    int i = 0;
    argv[i++] = (char *)ptsbench_bin();
    argv[i++] = "run";
    argv[i++] = "--target";
    argv[i++] = (char *)target;
    argv[i++] = "--workload";
    argv[i++] = "rw=randwrite,bs=4k";
    if (engine) {
        argv[i++] = "--engine";
        argv[i++] = (char *)engine;
    }
    argv[i++] = "--out";
    argv[i++] = out;
    argv[i] = NULL;
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    print_message("refused (%d): %s", r.status, r.errout);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.errout, needle));
    cmd_result_free(&r);
    struct stat st;
    assert_int_not_equal(stat(out, &st), 0);
}

static void test_target_errors(void **state)
{
    (void)state;
    expect_usage_error("sim:no-such-drive", NULL, "no-such-drive");
    expect_usage_error("sim:generic-mlc25,k=3", NULL, "k=3");
    expect_usage_error("sim:generic-mlc25,bogus=1", NULL, "bogus");
    expect_usage_error("sim:generic-mlc25", "io_uring", "sim engine");
    expect_usage_error("/dev/null", "sim", "sim");
}

/* measure_compress=1: the harness generates the data and the drive stores what lz4 says it
 * compresses to. At 90% the generator's data stores as ~0.14 of the host bytes, as declared;
 * at 0% it does not compress at all. */
static void test_measured_compressibility(void **state)
{
    (void)state;
    const char *target = "sim:zdrive-r4-cm88-1.6t,measure_compress=1,k=256";
    struct json_object *a = run_sim("lz4-90", target, "rw=randwrite,bs=4k,qd=32,workers=4,compress=90",
                                    "2", "1m", true, NULL);
    struct json_object *b = run_sim("lz4-0", target, "rw=randwrite,bs=4k,qd=32,workers=4,compress=0",
                                    "2", "1m", true, NULL);
    double wa90 = json_num(a, "rounds.1.device.write_amplification");
    double wa0 = json_num(b, "rounds.1.device.write_amplification");
    print_message("measured by lz4: WA %.3f at 90%% compressible, %.3f at 0%%\n", wa90, wa0);
    assert_true(wa90 >= 0.12 && wa90 <= 0.16);
    assert_true(wa0 >= 1.0);
    json_object_put(a);
    json_object_put(b);
}

/* `ptsbench sim --list` shows the five presets of the issue; --describe shows derived figures. */
static void test_sim_list_and_describe(void **state)
{
    (void)state;
    char *list[] = {(char *)ptsbench_bin(), "sim", "--list", NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(list, &r), 0);
    assert_int_equal(r.status, 0);
    const char *want[] = {"generic-mlc25", "zdrive-r4-cm88-1.6t", "zdrive-r4-cm84-300g",
                          "zdrive-6300-1.6t", "revodrive3-x2-480g"};
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        assert_non_null(strstr(r.out, want[i]));
    cmd_result_free(&r);
    char *desc[] = {(char *)ptsbench_bin(), "sim", "--describe", "sim:generic-mlc25,op=7", NULL};
    assert_int_equal(run_cmd(desc, &r), 0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "op_pct = 7"));
    assert_non_null(strstr(r.out, "rho_eff"));
    cmd_result_free(&r);
    char *bad[] = {(char *)ptsbench_bin(), "sim", "--describe", "nope", NULL};
    assert_int_equal(run_cmd(bad, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.errout, "nope"));
    cmd_result_free(&r);
}

/* run --purge: the shared purge step before WIPC, recorded as the suite and profile record it
 * (method, ran), the drive's state purged; a bad method is refused before anything is written. */
static void test_run_purge(void **state)
{
    (void)state;
    char out[512];
    snprintf(out, sizeof(out), "%s/purge", dir);
    char *argv[] = {(char *)ptsbench_bin(), "run", "--target", "sim:generic-mlc25", "--workload",
                    "rw=randwrite,bs=4k,qd=8", "--purge", "auto", "--precondition", "wipc",
                    "--rounds", "2", "--round-time", "2s", "--out", out, NULL};
    char *text = NULL;
    struct json_object *doc = ptsbench_results(argv, out, 0, &text);
    assert_non_null(doc);
    const char *method = json_object_get_string(json_at(doc, "preconditioning.purge.method"));
    print_message("purge: %s, ran %s; round 1 state %s\n", method,
                  json_object_get_string(json_at(doc, "preconditioning.purge.ran")),
                  json_object_get_string(json_at(doc, "rounds.0.state.condition")));
    assert_string_equal(method, "secure-erase");
    assert_true(json_object_get_boolean(json_at(doc, "preconditioning.purge.ran")));
    assert_true(json_object_get_boolean(json_at(doc, "rounds.0.state.purged")));
    assert_string_equal(json_object_get_string(json_at(doc, "rounds.0.state.condition")), "wipc");
    assert_string_equal(json_object_get_string(json_at(doc, "preconditioning.wipc.kind")), "wipc");
    assert_non_null(strstr(text, "purge: secure-erase"));
    free(text);
    json_object_put(doc);

    char bad[512];
    snprintf(bad, sizeof(bad), "%s/purge-bad", dir);
    char *bargv[] = {(char *)ptsbench_bin(), "run", "--target", "sim:generic-mlc25", "--workload",
                     "rw=randwrite,bs=4k", "--purge", "sometimes", "--out", bad, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(bargv, &r), 0);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.errout, "--purge sometimes"));
    cmd_result_free(&r);
    struct stat st;
    assert_int_not_equal(stat(bad, &st), 0);
}

/* Every job of every profile's fio form (each .fio file in profiles/fio/) runs unchanged through
 * `ptsbench run` and issues what its profile section issues: on the generic simulated drive
 * (unscaled and deterministic), the read share of a 0.5-second round is within 2 points of the
 * declared mix, and a round of the fio form and one of profiles/NAME.ini's section give the
 * same IOPS per direction and the same MB/s. */
static void test_fio_forms_run(void **state)
{
    (void)state;
    const char *dd = getenv("PTSBENCH_DATADIR");
    char pdir[600];
    snprintf(pdir, sizeof(pdir), "%s/profiles", dd && *dd ? dd : ".");
    char fdir[700];
    snprintf(fdir, sizeof(fdir), "%s/fio", pdir);
    DIR *d = opendir(fdir);
    assert_non_null(d);
    unsigned files = 0, jobs = 0, compared = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);
        if (n < 5 || strcmp(de->d_name + n - 4, ".fio") != 0)
            continue;
        unsigned in_file = 0;
        char path[1000], ini[1000];
        snprintf(path, sizeof(path), "%s/%s", fdir, de->d_name);
        snprintf(ini, sizeof(ini), "%s/%.*s.ini", pdir, (int)(n - 4), de->d_name);
        char *text = slurp_file(path, NULL);
        assert_non_null(text);
        files++;
        for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
             line = strtok_r(NULL, "\n", &save)) {
            char section[128];
            if (sscanf(line, "[%127[^]]]", section) != 1 || strcmp(section, "global") == 0)
                continue;
            /* the .ini's section beside the first five jobs of a file (the ATTO sweep's
             * 30 are one workload at 30 sizes): a run costs 0.2 s of set-up */
            const int forms = in_file++ < 5 ? 2 : 1;
            struct json_object *doc[2] = {NULL, NULL};
            for (int f = 0; f < forms; f++) {
                char spec[1200], name[200];
                snprintf(spec, sizeof(spec), "%s:%s", f ? ini : path, section);
                snprintf(name, sizeof(name), "form-%u-%d", jobs, f);
                doc[f] = run_sim(name, "sim:generic-mlc25", spec, "1", "0.5", false,
                                 NULL);
            }
            jobs++;
            double read_pct = json_num(doc[0], "workload.read_pct");
            double iops = json_num(doc[0], "rounds.0.total.iops");
            double riops = json_num(doc[0], "rounds.0.read.iops");
            print_message("  %-20s %-20s %9.0f IOPS, %5.1f%% reads (want %3.0f%%), %7.1f MB/s",
                          de->d_name, section, iops, 100 * riops / iops, read_pct,
                          json_num(doc[0], "rounds.0.total.mb_s"));
            assert_true(iops > 0);
            assert_true(fabs(100 * riops / iops - read_pct) <= 2);
            if (!doc[1]) {
                print_message("\n");
                json_object_put(doc[0]);
                continue;
            }
            print_message("; .ini %9.0f IOPS %7.1f MB/s\n",
                          json_num(doc[1], "rounds.0.total.iops"),
                          json_num(doc[1], "rounds.0.total.mb_s"));
            compared++;
            assert_true(json_num(doc[1], "workload.read_pct") == read_pct);
            static const char *const same[] = {"rounds.0.read.iops", "rounds.0.write.iops",
                                               "rounds.0.total.mb_s"};
            for (size_t k = 0; k < sizeof(same) / sizeof(same[0]); k++)
                if (json_num(doc[0], same[k]) != json_num(doc[1], same[k]))
                    fail_msg("%s [%s]: %s %.3f, in the .ini's section %.3f", de->d_name, section,
                             same[k], json_num(doc[0], same[k]), json_num(doc[1], same[k]));
            json_object_put(doc[0]);
            json_object_put(doc[1]);
        }
        free(text);
    }
    closedir(d);
    print_message("%u fio job files, %u jobs run, %u beside their profile's section\n", files,
                  jobs, compared);
    assert_true(files >= 14);
    assert_true(jobs >= 60);
    assert_true(compared >= 30);
}

/* The drive-health path end to end on the simulated drive (device/health.h): the results'
 * "health" object comes from the simulator's counters (source "simulator"); without
 * preconditioning, its host and NAND deltas over the run are the sums of the rounds' own device
 * counters, its write amplification their ratio (past the first fill, so above 1); `show`
 * prints it in one line. */
static void test_health_from_simulator_counters(void **state)
{
    (void)state;
    struct json_object *doc = run_sim("health", "sim:generic-mlc25,op=7,k=8",
                                      "rw=randwrite,bs=4k,qd=8", "4", "30", true, NULL);
    assert_string_equal(json_object_get_string(json_at(doc, "health.before.source")),
                        "simulator");
    assert_string_equal(json_object_get_string(json_at(doc, "health.after.source")),
                        "simulator");
    double host = 0, nand = 0;
    for (unsigned i = 0; i < 4; i++) {
        host += num(doc, "rounds.%u.device.host_write_bytes", i);
        nand += num(doc, "rounds.%u.device.nand_write_bytes", i);
    }
    double dh = json_num(doc, "health.delta.host_bytes_written.value");
    double dn = json_num(doc, "health.delta.nand_bytes_written.value");
    double wa = json_num(doc, "health.write_amplification");
    print_message("health: host %.0f (rounds %.0f), NAND %.0f (rounds %.0f), WA %.4f\n", dh,
                  host, dn, nand, wa);
    assert_true(host > 0 && fabs(dh - host) <= 1e-9 * host);
    assert_true(nand > 0 && fabs(dn - nand) <= 1e-9 * nand);
    assert_true(fabs(wa - nand / host) < 1e-6);
    assert_true(wa > 1.2);   /* 4 x 30 s pass the first fill (1.1 fills): GC has begun */
    assert_true(json_num(doc, "health.after.host_bytes_written.unit") == 512 * 8);   /* k = 8 */
    assert_string_equal(json_object_get_string(json_at(doc, "health.after.temperature_c")),
                        "not reported");
    json_object_put(doc);

    char out[600], line[160];
    snprintf(out, sizeof(out), "%s/health", dir);
    char *argv[] = {(char *)ptsbench_bin(), "show", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(argv, &r), 0);
    assert_int_equal(r.status, 0);
    snprintf(line, sizeof(line), "Drive write amplification over the test: %.2f (NAND ", wa);
    if (!strstr(r.out, line))
        fail_msg("show does not say \"%s\":\n%s", line, r.out);
    assert_non_null(strstr(r.out, ", simulator)"));
    cmd_result_free(&r);
}

/* The same counters around every PTS test and every profile group: the drive's write
 * amplification over each, from the simulator's lifetime counters, in the results and in show. */
static void test_health_per_test_and_group(void **state)
{
    (void)state;
    char out[600];
    snprintf(out, sizeof(out), "%s/health-suite", dir);
    char *suite[] = {"ptsbench", "run-test", "wsat", "--target", "sim:generic-mlc25",
                     "--round-time", "0.1", "--time-scale", "0.01", "--wsat-capacity", "1.5",
                     "--quiet", "--out", out, NULL};
    char *text = NULL;
    struct json_object *doc = ptsbench_results(suite, out, 0, NULL);
    assert_non_null(doc);
    const double dh = json_num(doc, "tests.0.health.delta.host_bytes_written.value");
    const double dn = json_num(doc, "tests.0.health.delta.nand_bytes_written.value");
    const double wa = json_num(doc, "tests.0.health.write_amplification");
    print_message("wsat: host %.0f, NAND %.0f, WA %.3f\n", dh, dn, wa);
    assert_string_equal(json_object_get_string(json_at(doc, "tests.0.health.after.source")),
                        "simulator");
    assert_true(dh > 0 && dn > dh);   /* 1.5 fills of random writes: GC has begun */
    assert_true(fabs(wa - dn / dh) < 1e-6);
    json_object_put(doc);
    char *show[] = {(char *)ptsbench_bin(), "show", out, NULL};
    struct cmd_result r;
    assert_int_equal(run_cmd(show, &r), 0);
    char line[160];
    snprintf(line, sizeof(line), "Drive write amplification over the test: %.2f (NAND ", wa);
    assert_non_null(strstr(r.out, line));
    cmd_result_free(&r);

    snprintf(out, sizeof(out), "%s/health-profile", dir);
    char *profile[] = {"ptsbench", "profile", "database", "--target", "sim:generic-mlc25",
                       "--compress", "0", "--workers", "1", "--qd", "8", "--round-time", "0.2",
                       "--rounds", "3", "--precondition", "wipc", "--quiet", "--out", out,
                       NULL};
    doc = ptsbench_results(profile, out, 0, &text);
    assert_non_null(doc);
    free(text);
    const double gh = json_num(doc, "groups.0.health.delta.host_bytes_written.value");
    const double gn = json_num(doc, "groups.0.health.delta.nand_bytes_written.value");
    const double gw = json_num(doc, "groups.0.health.write_amplification");
    print_message("database group: host %.0f, NAND %.0f, WA %.3f\n", gh, gn, gw);
    assert_true(gh > 0 && gn >= gh);
    assert_true(fabs(gw - gn / gh) < 1e-6);
    json_object_put(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_target_errors),
        cmocka_unit_test(test_sim_list_and_describe),
        cmocka_unit_test(test_measured_compressibility),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_pauses_real_time),
        cmocka_unit_test(test_run_purge),
        cmocka_unit_test(test_scaled_preset_reports_full_size),
        cmocka_unit_test(test_write_cliff_on_generic),
        cmocka_unit_test(test_fio_forms_run),
        cmocka_unit_test(test_health_from_simulator_counters),
        cmocka_unit_test(test_health_per_test_and_group),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
