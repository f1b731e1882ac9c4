/* test_sim_preset.c — simulated-drive presets, the sim: target syntax and the describe view. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/ini.h"
#include "sim/sim_preset.h"
#include "lib/util.h"

#include "helpers.h"

static const char *const preset_names[] = {
    "generic-mlc25", "zdrive-r4-cm88-1.6t", "zdrive-r4-cm84-300g", "zdrive-6300-1.6t",
    "revodrive3-x2-480g",
};
#define N_PRESETS (sizeof preset_names / sizeof preset_names[0])

static void load_ok(const char *name, struct sim_params *p)
{
    char err[ERR_LEN] = "";
    int rc = sim_preset_load(name, test_device_dirs(), p, err, sizeof err);
    if (rc != 0)
        print_error("sim_preset_load(%s): %s\n", name, err);
    assert_int_equal(rc, 0);
}

static void target_ok(const char *target, struct sim_params *p)
{
    char err[ERR_LEN] = "";
    int rc = sim_target_parse(target, test_device_dirs(), p, err, sizeof err);
    if (rc != 0)
        print_error("sim_target_parse(%s): %s\n", target, err);
    assert_int_equal(rc, 0);
}

static void target_bad(const char *target, const char *want, bool exact)
{
    char err[ERR_LEN] = "";
    struct sim_params p;
    assert_int_equal(sim_target_parse(target, test_device_dirs(), &p, err, sizeof err), -1);
    bool ok = exact ? strcmp(err, want) == 0 : strstr(err, want) != NULL;
    if (!ok)
        print_error("%s: got '%s', want %s'%s'\n", target, err, exact ? "" : "it to contain ",
                    want);
    assert_true(ok);
    assert_null(strchr(err, '\n'));   /* one line */
}

/* describe output as a string (caller frees). */
static char *describe_str(const struct sim_params *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    sim_params_describe(p, f);
    fclose(f);
    return buf;
}

/* A number from the [expected] section of describe output (the output is INI). */
static double expected_value(const char *text, const char *key)
{
    struct ini_file f;
    char err[ERR_LEN];
    if (ini_parse_string(text, "describe", &f, err, sizeof err) != 0) {
        print_error("describe output is not INI: %s\n", err);
        fail();
    }
    const struct ini_entry *e = ini_find(ini_find_section(&f, "expected"), key);
    if (!e) {
        print_error("no '%s' in [expected]\n", key);
        ini_free(&f);
        fail();
    }
    double v = strtod(e->value, NULL);
    ini_free(&f);
    return v;
}

static void assert_near(double got, double want, double rel, const char *what)
{
    if (fabs(got - want) > rel * fabs(want)) {
        print_error("%s: got %g, want %g within %g %%\n", what, got, want, rel * 100);
        fail();
    }
}

static void test_every_preset_loads(void **state)
{
    (void)state;
    struct sim_params p;
    for (size_t i = 0; i < N_PRESETS; i++) {
        load_ok(preset_names[i], &p);
        assert_string_equal(p.name, preset_names[i]);
        assert_true(strlen(p.description) > 10);
        assert_true(p.k >= 1 && (p.k & (p.k - 1)) == 0);
        assert_true(p.n_ctl >= 1);
        assert_true(p.user_bytes > 0 || p.op_pct > 0);
    }
    /* Every file in the directory loads, not only the known ones. */
    DIR *d = opendir(test_device_dirs()[0]);
    assert_non_null(d);
    struct dirent *de;
    unsigned n = 0;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (de->d_name[0] == '.' || len <= 4 || strcmp(de->d_name + len - 4, ".ini") != 0)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 4), de->d_name);
        load_ok(name, &p);
        n++;
    }
    closedir(d);
    assert_true(n >= N_PRESETS);

    /* The note's key parameters (§6). */
    load_ok("generic-mlc25", &p);
    assert_int_equal(p.k, 1);
    assert_true(p.op_pct == 28.0);
    assert_int_equal(p.user_bytes, 0);
    assert_int_equal(p.channels * p.dies_per_channel, 32);
    assert_int_equal(p.gc, SIM_GC_GREEDY);
    load_ok("zdrive-r4-cm88-1.6t", &p);
    assert_int_equal(p.n_ctl, 8);
    assert_int_equal(p.k, 128);
    assert_int_equal(p.user_bytes, 200000000000ull);
    assert_int_equal(p.dispatch, SIM_DISPATCH_STRIPE);
    assert_int_equal(p.stripe_unit_bytes, 16384);
    assert_true(p.durawrite);
    load_ok("zdrive-r4-cm84-300g", &p);
    assert_int_equal(p.n_ctl, 4);
    assert_int_equal(p.user_bytes * p.n_ctl, 300000000000ull);
    assert_true(p.durawrite);
    load_ok("revodrive3-x2-480g", &p);
    assert_int_equal(p.n_ctl, 4);
    assert_int_equal(p.user_bytes * p.n_ctl, 480000000000ull);
    load_ok("zdrive-6300-1.6t", &p);
    assert_int_equal(p.n_ctl, 1);
    assert_int_equal(p.k, 128);
    assert_true(p.wpipe_mb_s == 1550.0);
    assert_false(p.durawrite);
}

static void test_list(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    int n = sim_preset_list(test_device_dirs(), f);
    fclose(f);
    assert_true(n >= (int)N_PRESETS);
    for (size_t i = 0; i < N_PRESETS; i++)
        assert_non_null(strstr(buf, preset_names[i]));
    assert_non_null(strstr(buf, "Z-Drive 6300"));   /* descriptions are listed */
    free(buf);

    const char *none[] = {"/nonexistent/devices", NULL};
    f = open_memstream(&buf, &len);
    assert_int_equal(sim_preset_list(none, f), 0);
    fclose(f);
    assert_int_equal(len, 0);
    free(buf);
}

static void test_overrides_in_order(void **state)
{
    (void)state;
    struct sim_params p;
    target_ok("sim:generic-mlc25,k=2,k=4", &p);
    assert_int_equal(p.k, 4);
    target_ok("sim:generic-mlc25,op=7,op_pct=50", &p);
    assert_true(p.op_pct == 50.0);
    target_ok("sim:generic-mlc25,op_pct=50,op=7", &p);
    assert_true(p.op_pct == 7.0);
    target_ok("sim:zdrive-r4-cm88-1.6t,k=64,dispatch=vca,gc=fifo,durawrite=off", &p);
    assert_int_equal(p.k, 64);
    assert_int_equal(p.dispatch, SIM_DISPATCH_VCA);
    assert_int_equal(p.gc, SIM_GC_FIFO);
    assert_false(p.durawrite);
    assert_int_equal(p.n_ctl, 8);                  /* the rest of the preset stays */
    target_ok("sim:zdrive-6300-1.6t, user_bytes = 800GB , page_bytes=8k,reserve_pct=12.5%", &p);
    assert_int_equal(p.user_bytes, 800000000000ull);
    assert_int_equal(p.page_bytes, 8192);
    assert_true(p.reserve_pct == 12.5);
    target_ok("sim:generic-mlc25,seed=18446744073709551615,description=x y", &p);
    assert_true(p.seed == UINT64_MAX);
    assert_string_equal(p.description, "x y");
}

static void test_op_alias(void **state)
{
    (void)state;
    struct sim_params p;
    target_ok("sim:generic-mlc25,op=7", &p);
    assert_true(p.op_pct == 7.0);
    char err[ERR_LEN];
    assert_int_equal(sim_params_set(&p, "op", "50", "x", err, sizeof err), 0);
    assert_true(p.op_pct == 50.0);
}

static void test_bad_keys_and_values(void **state)
{
    (void)state;
    target_bad("sim:generic-mlc25,k=3", "sim target: k=3: must be a power of two 1..4096", true);
    target_bad("sim:generic-mlc25,k=8192", "sim target: k=8192: must be a power of two 1..4096",
               true);
    target_bad("sim:generic-mlc25,k=0", "sim target: k=0: must be a power of two 1..4096", true);
    target_bad("sim:generic-mlc25,dispatch=foo", "sim target: dispatch=foo: want stripe or vca",
               true);
    target_bad("sim:generic-mlc25,gc=lru", "sim target: gc=lru: want greedy, fifo or dchoice",
               true);
    target_bad("sim:generic-mlc25,bogus=1", "sim target: bogus=1: unknown key", false);
    target_bad("sim:generic-mlc25,op=101", "sim target: op=101: must be a percentage 0..100",
               true);
    target_bad("sim:generic-mlc25,op=-1", "sim target: op=-1:", false);
    target_bad("sim:generic-mlc25,n_ctl=0", "sim target: n_ctl=0: must be an integer 1..64",
               true);
    target_bad("sim:generic-mlc25,n_ctl=two", "sim target: n_ctl=two:", false);
    target_bad("sim:generic-mlc25,page_bytes=6k", "sim target: page_bytes=6k: must be a "
               "multiple of 4 KiB", false);
    target_bad("sim:generic-mlc25,user_bytes=10Gb", "sim target: user_bytes=10Gb: bad size",
               false);
    target_bad("sim:generic-mlc25,t_read_us=fast", "sim target: t_read_us=fast: must be a number",
               false);
    target_bad("sim:generic-mlc25,t_read_us=nan", "sim target: t_read_us=nan:", false);
    target_bad("sim:generic-mlc25,bg_gc=maybe", "sim target: bg_gc=maybe: want 0/1", false);
    target_bad("sim:generic-mlc25,pages_per_block=4", "sim target: pages_per_block=4: must be a "
               "power of two 8..65536", true);
    target_bad("sim:generic-mlc25,k", "sim target: 'k': want key=value", true);
    target_bad("sim:generic-mlc25,,k=2", "empty key=value item", false);
    target_bad("sim:generic-mlc25,k=2,", "empty key=value item", false);
    target_bad("sim:", "missing preset name", false);
    target_bad("sim:,k=2", "missing preset name", false);
    target_bad("sim:../generic-mlc25", "bad sim preset name '../generic-mlc25'", false);

    /* The value failing validation leaves the field alone. */
    struct sim_params p;
    load_ok("generic-mlc25", &p);
    char err[ERR_LEN];
    assert_int_equal(sim_params_set(&p, "k", "3", "here", err, sizeof err), -1);
    assert_string_equal(err, "here: k=3: must be a power of two 1..4096");
    assert_int_equal(p.k, 1);
    char longname[100];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(sim_params_set(&p, "name", longname, "here", err, sizeof err), -1);
    assert_non_null(strstr(err, "longer than 63 characters"));
}

static void test_unknown_preset_lists_available(void **state)
{
    (void)state;
    char err[ERR_LEN] = "";
    struct sim_params p;
    assert_int_equal(sim_preset_load("no-such-drive", test_device_dirs(), &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown sim preset 'no-such-drive'"));
    assert_non_null(strstr(err, "available:"));
    for (size_t i = 0; i < N_PRESETS; i++)
        assert_non_null(strstr(err, preset_names[i]));
    assert_null(strchr(err, '\n'));
    target_bad("sim:no-such-drive,k=2", "sim target: unknown sim preset 'no-such-drive' "
               "(available: generic-mlc25", false);
    const char *none[] = {"/nonexistent/devices", NULL};
    assert_int_equal(sim_preset_load("generic-mlc25", none, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "no presets found"));
}

static void test_target_is_and_parse(void **state)
{
    (void)state;
    assert_true(sim_target_is("sim:generic-mlc25,op=7,k=2"));
    assert_true(sim_target_is("sim:"));
    assert_false(sim_target_is("/dev/nvme0n1"));
    assert_false(sim_target_is("simfile"));
    assert_false(sim_target_is("SIM:generic-mlc25"));
    assert_false(sim_target_is(""));
    assert_false(sim_target_is(NULL));

    struct sim_params p;
    target_ok("sim:generic-mlc25,op=7,k=2", &p);
    assert_string_equal(p.name, "generic-mlc25");
    assert_true(p.op_pct == 7.0);
    assert_int_equal(p.k, 2);
    assert_int_equal(p.channels, 8);               /* from the preset */
    assert_int_equal(p.blocks_per_plane, 256);

    char err[ERR_LEN];
    assert_int_equal(sim_target_parse("/dev/sda", test_device_dirs(), &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "does not start with 'sim:'"));
}

/* A preset file with a problem, in a temporary directory. */
static void file_bad(const char *text, const char *want)
{
    char dir[] = "/tmp/ptsbench-simpreset-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/bad.ini", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    const char *dirs[] = {dir, NULL};
    char err[ERR_LEN] = "";
    struct sim_params p;
    int rc = sim_preset_load("bad", dirs, &p, err, sizeof err);
    char full[512];
    snprintf(full, sizeof full, "%s/%s", dir, want);
    unlink(path);
    rmdir(dir);
    assert_int_equal(rc, -1);
    if (strcmp(err, full) != 0)
        print_error("got '%s', want '%s'\n", err, full);
    assert_string_equal(err, full);
}

static void test_file_errors(void **state)
{
    (void)state;
    file_bad("[device]\nn_ctl = 2\nchanels = 8\n",
             "bad.ini:3: chanels=8: unknown key (ptsbench sim --describe PRESET lists the keys)");
    file_bad("[device]\nk = 3   ; comment\n", "bad.ini:2: k=3: must be a power of two 1..4096");
    file_bad("[global]\nk = 2\n", "bad.ini: no [device] section");
    file_bad("[device]\nk = 2\n[drive]\nn_ctl=1\n",
             "bad.ini:3: unknown section [drive] (a preset has one [device] section)");

    /* [global] first, then [device]; a flag-style boolean is true. */
    char dir[] = "/tmp/ptsbench-simpreset-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/ok.ini", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("[device]\nk = 4\ndurawrite\n[global]\nk = 2\nn_ctl = 3\n", f);
    fclose(f);
    const char *dirs[] = {dir, NULL};
    char err[ERR_LEN] = "";
    struct sim_params p;
    int rc = sim_preset_load("ok", dirs, &p, err, sizeof err);
    unlink(path);
    rmdir(dir);
    assert_int_equal(rc, 0);
    assert_int_equal(p.k, 4);
    assert_int_equal(p.n_ctl, 3);
    assert_true(p.durawrite);
    assert_string_equal(p.name, "ok");
}

/* The note's §6.1 expectations for the generic drive. */
static void test_describe_generic(void **state)
{
    (void)state;
    static const struct {
        const char *target;
        double wa, ss;
    } cases[] = {
        {"sim:generic-mlc25,op=7", 7.82, 11900},
        {"sim:generic-mlc25,op=28", 2.48, 37900},
        {"sim:generic-mlc25,op=50", 1.72, 55400},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct sim_params p;
        target_ok(cases[i].target, &p);
        char *out = describe_str(&p);
        assert_non_null(strstr(out, "expected (formula)"));
        assert_near(expected_value(out, "rho_eff"), p.op_pct / 100.0, 0.001, "rho_eff");
        assert_near(expected_value(out, "wa_oracle"), cases[i].wa, 0.01, "wa_oracle");
        assert_near(expected_value(out, "ss_4k_randwrite_iops"), cases[i].ss, 0.10,
                    cases[i].target);
        assert_near(expected_value(out, "fob_4k_randwrite_iops"), 98000, 0.05, "FOB");
        assert_near(expected_value(out, "read_4k_qd1_latency_us"), 96, 0.05, "QD1 read");
        assert_near(expected_value(out, "raw_bytes_total"), 32.0 * (1ull << 30), 1e-9, "raw");
        free(out);
    }
    /* Steady state rises with OP (note §7.5: 28 % vs 7 % is ~3.2x). */
    struct sim_params p7, p28;
    target_ok("sim:generic-mlc25,op=7", &p7);
    target_ok("sim:generic-mlc25,op=28", &p28);
    char *o7 = describe_str(&p7), *o28 = describe_str(&p28);
    double r = expected_value(o28, "ss_4k_randwrite_iops") /
               expected_value(o7, "ss_4k_randwrite_iops");
    assert_near(r, 3.2, 0.10, "SS(28 %) / SS(7 %)");
    free(o7);
    free(o28);
}

/* The other presets against their files' stated expectations and the note's §6 tables. */
static void test_describe_presets(void **state)
{
    (void)state;
    struct sim_params p;
    char *out;

    load_ok("zdrive-r4-cm88-1.6t", &p);
    out = describe_str(&p);
    /* OCZ's 410K is for compressible data; incompressible data fills the datapath (190 MB/s
     * of stored data per controller: 8 x 190e6 / (4096 x 8.125 / 8) = 365K) */
    assert_near(expected_value(out, "fob_4k_randwrite_iops_compressible"), 408000, 0.05,
                "R4 FOB, compressible");
    assert_near(expected_value(out, "fob_4k_randwrite_iops"), 365000, 0.02, "R4 FOB, 0 %");
    assert_near(expected_value(out, "ss_4k_randwrite_iops_qd32"), 48129, 0.10, "R4 SS QD32");
    assert_near(expected_value(out, "ss_4k_randwrite_iops_qd128"), 59904, 0.10, "R4 SS 4xQD32");
    assert_near(expected_value(out, "stored_fraction_90pct"), 0.14, 0.02, "DuraWrite 90 %");
    assert_near(expected_value(out, "scaled_pages_per_block"), 16, 0, "R4 pages/block at k");
    assert_near(expected_value(out, "scaled_lines_per_ctl"), 256, 0, "R4 lines at k");
    assert_near(expected_value(out, "user_bytes_total"), 1.6e12, 1e-9, "R4 user");
    free(out);

    load_ok("zdrive-6300-1.6t", &p);
    out = describe_str(&p);
    assert_near(expected_value(out, "fob_4k_randwrite_iops"), 378000, 0.05, "6300 FOB");
    assert_near(expected_value(out, "ss_4k_randwrite_iops"), 140000, 0.05, "6300 SS");
    assert_near(expected_value(out, "wa_oracle"), 2.69, 0.02, "6300 A");
    assert_near(expected_value(out, "randread_4k_iops_cap"), 700000, 0.05, "6300 RR");
    assert_near(expected_value(out, "read_4k_qd1_latency_us"), 87, 0.05, "6300 QD1 read");
    assert_near(expected_value(out, "write_4k_qd1_latency_us"), 24, 0.10, "6300 QD1 write");
    assert_near(expected_value(out, "scaled_pages_per_block"), 8, 0, "6300 pages/block at k");
    assert_near(expected_value(out, "scaled_lines_per_ctl"), 256, 0, "6300 lines at k");
    free(out);

    load_ok("zdrive-r4-cm84-300g", &p);
    out = describe_str(&p);
    /* the spec's 250K with compressible data; incompressible data fills the datapath:
     * 4 x 246e6 / (4096 x 8.125 / 8) = 237K */
    assert_near(expected_value(out, "fob_4k_randwrite_iops_compressible"), 250000, 0.05,
                "CM84 FOB, compressible");
    assert_near(expected_value(out, "fob_4k_randwrite_iops"), 236500, 0.02, "CM84 FOB, 0 %");
    assert_true(expected_value(out, "scaled_lines_per_ctl") >= 256);
    free(out);

    load_ok("revodrive3-x2-480g", &p);
    out = describe_str(&p);
    assert_near(expected_value(out, "fob_4k_randwrite_iops_qd32"), 180000, 0.05, "Revo QD32");
    assert_true(expected_value(out, "scaled_lines_per_ctl") >= 256);
    free(out);

    /* Geometry rule unmet is reported, not hidden. */
    target_ok("sim:generic-mlc25,k=64", &p);
    out = describe_str(&p);
    assert_near(expected_value(out, "scaled_pages_per_block"), 8, 0, "k=64 pages/block");
    assert_near(expected_value(out, "scaled_lines_per_ctl"), 128, 0, "k=64 lines");
    assert_non_null(strstr(out, "NOT met"));
    free(out);
}

/* describe prints every parameter as a key the parser takes back: a round trip is exact. */
static void test_describe_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_PRESETS; i++) {
        struct sim_params a, b;
        load_ok(preset_names[i], &a);
        char *out = describe_str(&a);
        struct ini_file f;
        char err[ERR_LEN] = "";
        assert_int_equal(ini_parse_string(out, "describe", &f, err, sizeof err), 0);
        const struct ini_section *dev = ini_find_section(&f, "device");
        assert_non_null(dev);
        assert_int_equal(dev->n_entries, 68);     /* every field of struct sim_params (update with sim.h) */
        sim_params_default(&b);
        for (size_t j = 0; j < dev->n_entries; j++) {
            int rc = sim_params_set(&b, dev->entries[j].key, dev->entries[j].value, "rt", err,
                                    sizeof err);
            if (rc != 0)
                print_error("%s: %s\n", preset_names[i], err);
            assert_int_equal(rc, 0);
        }
        ini_free(&f);
        char *again = describe_str(&b);
        assert_string_equal(out, again);
        free(out);
        free(again);
    }
}

/* describe says for each parameter what it is and what it takes, from the key rows. */
static void test_describe_says_each_range(void **state)
{
    (void)state;
    struct sim_params p;
    load_ok("generic-mlc25", &p);
    char *out = describe_str(&p);
    assert_non_null(strstr(out, "\nn_ctl = 1                             ; controllers behind the "
                                "host interface (integer 1..64)\n"));
    assert_non_null(strstr(out, "; 8 KiB (8.192 kB); NAND page per plane (size 4KiB..1MiB, "
                                "multiple of 4 KiB)\n"));
    assert_non_null(strstr(out, "\ngc = greedy                           ; GC victim policy "
                                "(greedy | fifo | dchoice)\n"));
    assert_non_null(strstr(out, "\nk = 1                                 ; time dilation and "
                                "capacity scale (power of two 1..4096)\n"));
    /* every parameter line has a comment */
    char *copy = strdup(out);
    assert_non_null(copy);
    char *section = strstr(copy, "[device]\n");
    assert_non_null(section);
    char *end = strstr(section, "\n[expected]");
    assert_non_null(end);
    *end = '\0';
    unsigned lines = 0, commented = 0;
    for (char *l = strtok(section + 9, "\n"); l; l = strtok(NULL, "\n")) {
        if (*l == ';')
            continue;
        lines++;
        commented += strstr(l, " ; ") && l[strlen(l) - 1] == ')';
    }
    assert_int_equal(lines, 68);
    assert_int_equal(commented, 68);
    free(copy);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_preset_loads),
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_overrides_in_order),
        cmocka_unit_test(test_op_alias),
        cmocka_unit_test(test_bad_keys_and_values),
        cmocka_unit_test(test_unknown_preset_lists_available),
        cmocka_unit_test(test_target_is_and_parse),
        cmocka_unit_test(test_file_errors),
        cmocka_unit_test(test_describe_generic),
        cmocka_unit_test(test_describe_presets),
        cmocka_unit_test(test_describe_round_trip),
        cmocka_unit_test(test_describe_says_each_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
