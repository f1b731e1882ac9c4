/* test_fleet_hosts.c — `ptsbench run --remote` against three fio servers on loopback
 * (127.0.0.1/.2/.3), each in a mount namespace of its own where the one target path is a
 * different file (tests/helpers.h: fio_fleet_start): every host's own file gets its writes and
 * the results hold the three hosts; a host unreachable at the start is refused, naming it; one
 * server killed in round 2 of 4, with what fio and ptsbench do then.
 *
 * What fio-3.33 does, measured on this harness (2026-12-06; the same as the fixture
 * tests/fixtures/fio/clientserver-lost-host.json, README there):
 *   - a server killed mid-run (its process group SIGKILLed: the socket closes): fio's stdout
 *     holds "client: host=127.0.0.2 disconnected" (stdout, not stderr; fio's own job lines
 *     "<vm> w: (g=0): ..." come before it), fio goes on with the other servers until their jobs
 *     end, then prints the JSON with the survivors' client_stats only (and "All clients" over
 *     them), and exits with status 1.
 *   - a host nobody listens on at the start: stderr "fio: connect: Connection refused" and
 *     "fio: failed to connect to 127.0.0.4:PORT"; fio runs the others and EXITS 0, its JSON
 *     without that host. Before this test's fix ptsbench recorded such a run as complete, with
 *     one host fewer than asked for; now the round fails naming the host
 *     (src/engine/fio.c: fio_check_hosts_reported).
 *   - ptsbench today on a host lost in round 2: the round fails as a whole ("round 2: fio-3.33
 *     exited with status 1: <first line of fio's stderr>", which is a job line, not the host),
 *     exit status 1, results.json status "failed" with round 1 only: the survivors' round 2 is
 *     thrown away. Keeping the survivors and naming the lost host is issue 50 point 4 (the next
 *     session's work); this test asserts only what is right today (non-zero, not complete, fio's
 *     output kept with the survivors) and prints the rest.
 * Not SERIAL: nothing here compares timings; about 10 s of real-time rounds. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

#define HOST_FILE (64ll << 20)   /* each host's backing file: 16384 blocks of 4 KiB */

static char *dir;
static struct fio_fleet fleet;
static int started = -1;         /* fio_fleet_start's answer */

static int setup(void **state)
{
    (void)state;
    dir = make_temp_dir("fleet-hosts");
    if (!dir)
        return -1;
    started = fio_fleet_start(&fleet, 3, dir, HOST_FILE);
    if (started != 0)
        print_message("SKIP%s: %s\n", started > 0 ? "" : " (broken)", fleet.why);
    return started < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    fio_fleet_stop(&fleet);
    if (dir)
        remove_tree(dir);
    free(dir);
    return 0;
}

/* The round's hosts[] entry of the server at addr ("127.0.0.K", named "127.0.0.K,PORT"). */
static struct json_object *host_entry(struct json_object *doc, unsigned round, const char *addr)
{
    char p[64];
    snprintf(p, sizeof(p), "rounds.%u.hosts", round);
    struct json_object *hosts = json_at(doc, p);
    size_t al = strlen(addr);
    for (size_t i = 0; hosts && i < json_object_array_length(hosts); i++) {
        struct json_object *h = json_object_array_get_idx(hosts, i), *name;
        if (json_object_object_get_ex(h, "host", &name) &&
            strncmp(json_object_get_string(name), addr, al) == 0 &&
            json_object_get_string(name)[al] == ',')
            return h;
    }
    return NULL;
}

/* How many of path's 4 KiB blocks hold a non-zero byte: the blocks written (fio's buffers are
 * random, the file started sparse). -1 when it cannot be read. */
static long written_blocks(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    static unsigned char b[4096];
    long n = 0;
    for (ssize_t got; (got = read(fd, b, sizeof(b))) > 0;) {
        for (ssize_t i = 0; i < got; i++) {
            if (b[i]) {
                n++;
                break;
            }
        }
    }
    close(fd);
    return n;
}

/* (a) three hosts, one target path: each host's own file got its writes, and the results hold
 * three hosts with their IOPS. */
static void test_three_hosts_own_files(void **state)
{
    (void)state;
    if (started != 0)
        skip();
    char out[4200];
    snprintf(out, sizeof(out), "%s/three", dir);
    char *argv[] = {"ptsbench", "run", "--engine", "fio", "--remote", fleet.host[0].remote,
                    "--remote", fleet.host[1].remote, "--remote", fleet.host[2].remote,
                    "--target", fleet.shared, "--size", "64m", "--workload",
                    "rw=randwrite,bs=4k,qd=1", "--rounds", "2", "--round-time", "1",
                    "--all-rounds", "--quiet", "--out", out, NULL};
    struct json_object *doc = ptsbench_results(argv, out, 0, NULL);
    assert_non_null(doc);
    assert_string_equal(json_object_get_string(json_at(doc, "status")), "complete");
    assert_non_null(json_at(doc, "rounds.1"));
    struct stat st;
    assert_int_equal(stat(fleet.shared, &st), 0);   /* outside the namespaces: untouched */
    assert_int_equal(st.st_size, 0);
    for (unsigned k = 0; k < 3; k++) {
        double bytes = 0;
        for (unsigned r = 0; r < 2; r++) {
            struct json_object *h = host_entry(doc, r, fleet.host[k].addr);
            assert_non_null(h);
            assert_null(json_at(doc, r ? "rounds.1.hosts.3" : "rounds.0.hosts.3"));
            assert_true(json_num(h, "iops") > 50);
            assert_true(json_num(h, "write_iops") > 50);
            bytes += json_num(h, "write_bytes");
        }
        const double w = bytes / 4096.0, blocks = (double)(HOST_FILE / 4096);
        /* w uniform random 4 KiB writes over the file's blocks touch blocks*(1 - e^(-w/blocks))
         * of them on average (fio's random map, no block twice within a round, makes it a little
         * more); fewer than half of that, or more than w, is not this host's data alone */
        const double expect = blocks * (1.0 - exp(-w / blocks));
        const long got = written_blocks(fleet.host[k].backing);
        print_message("  host %s: %.0f blocks written, %ld distinct in its own file (%.0f "
                      "expected)\n", fleet.host[k].remote, w, got, expect);
        assert_true(w > 100);
        assert_true(got >= 0.5 * expect);
        assert_true((double)got <= w);
    }
    json_object_put(doc);
}

/* A host nobody listens on, beside two that answer: fio exits 0 without it; ptsbench must not
 * record that as a complete run of the three hosts asked for. */
static void test_unreachable_host_refused(void **state)
{
    (void)state;
    if (started != 0)
        skip();
    const int port = test_free_port("127.0.0.4");
    assert_true(port > 0);
    char nobody[32], out[4200];
    snprintf(nobody, sizeof(nobody), "127.0.0.4:%d", port);
    snprintf(out, sizeof(out), "%s/unreachable", dir);
    const char *args[] = {"run", "--engine", "fio", "--remote", fleet.host[0].remote,
                          "--remote", nobody, "--remote", fleet.host[2].remote, "--target",
                          fleet.shared, "--size", "64m", "--workload", "rw=randwrite,bs=4k",
                          "--rounds", "1", "--round-time", "1", "--quiet", "--out", out, NULL};
    struct cmd_result r;
    const int status = ptsbench_run(&r, args);
    print_message("  unreachable %s: exit %d: %s", nobody, status, r.errout);
    assert_int_equal(status, 1);   /* EXIT_FAILURE_RUN */
    assert_non_null(strstr(r.errout, nobody));
    assert_int_equal(count_prefixed_lines(r.errout, "ptsbench"), 1);
    char p[4300];
    snprintf(p, sizeof(p), "%s/results.json", out);
    struct json_object *doc = load_json(p);
    if (doc)
        assert_string_not_equal(json_object_get_string(json_at(doc, "status")), "complete");
    json_object_put(doc);
    cmd_result_free(&r);
}

/* The last round's fio output in d: the .json file with the highest NNNN- prefix, into path. */
static bool last_output(const char *d, char *path, size_t len)
{
    DIR *dd = opendir(d);
    if (!dd)
        return false;
    char best[256] = "";
    for (struct dirent *e; (e = readdir(dd));) {
        size_t l = strlen(e->d_name);
        if (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0 && strcmp(e->d_name, best) > 0)
            snprintf(best, sizeof(best), "%s", e->d_name);
    }
    closedir(dd);
    snprintf(path, len, "%s/%s", d, best);
    return best[0] != '\0';
}

/* (b) the server of 127.0.0.2 killed in round 2 of 4 (its process group SIGKILLed 0.5 s after
 * round 2's job file appears). Asserts fio's behaviour as measured and what ptsbench does right
 * today: it does not end as a success. Keeping the survivors' rounds is not asserted (the next
 * session's work, issue 50 point 4). Last: it leaves two hosts. */
static void test_host_killed_mid_run(void **state)
{
    (void)state;
    if (started != 0)
        skip();
    char out[4200], fio_dir[4300];
    snprintf(out, sizeof(out), "%s/killed", dir);
    snprintf(fio_dir, sizeof(fio_dir), "%s/fio", out);
    assert_true(fio_fleet_stop_host_when(&fleet, 1, fio_dir, ".fio", 2, 500) > 0);
    const char *args[] = {"run", "--engine", "fio", "--remote", fleet.host[0].remote,
                          "--remote", fleet.host[1].remote, "--remote", fleet.host[2].remote,
                          "--target", fleet.shared, "--size", "64m", "--workload",
                          "rw=randwrite,bs=4k,qd=4", "--rounds", "4", "--round-time", "1",
                          "--all-rounds", "--quiet", "--out", out, NULL};
    struct cmd_result r;
    const int status = ptsbench_run(&r, args);
    print_message("  ptsbench: exit %d; stderr: %s", status, r.errout);
    assert_int_not_equal(status, 0);
    char p[4400];
    snprintf(p, sizeof(p), "%s/results.json", out);
    struct json_object *doc = load_json(p);
    assert_non_null(doc);
    const char *st = json_object_get_string(json_at(doc, "status"));
    print_message("  results: status %s, %zu rounds\n", st,
                  json_object_array_length(json_at(doc, "rounds")));
    assert_string_not_equal(st, "complete");
    json_object_put(doc);
    cmd_result_free(&r);

    /* fio's own output of round 2 (the last one run), as ptsbench keeps it */
    char last[4400], *text;
    assert_true(last_output(fio_dir, last, sizeof(last)));
    text = slurp_file(last, NULL);
    assert_non_null(text);
    if (!strstr(text, "client: host=127.0.0.2 disconnected")) {
        /* on a machine so busy that fio had not connected 0.5 s after the job file appeared,
         * the kill came first: fio then says it failed to connect (stderr), and goes on with
         * the other two all the same */
        char ep[4400];
        snprintf(ep, sizeof(ep), "%.*s.stderr", (int)(strlen(last) - 5), last);
        char *etext = slurp_file(ep, NULL);
        print_message("  no disconnect line in %s; its stderr: %s\n", last, etext ? etext : "-");
        assert_non_null(etext);
        assert_non_null(strstr(etext, "failed to connect to 127.0.0.2"));
        free(etext);
    }
    const char *brace = strstr(text, "\n{");
    assert_non_null(brace);
    struct json_object *fj = json_tokener_parse(brace + 1);
    assert_non_null(fj);
    struct json_object *cs = json_at(fj, "client_stats");
    assert_non_null(cs);
    bool seen[4] = {false};
    for (size_t i = 0; i < json_object_array_length(cs); i++) {
        struct json_object *c = json_object_array_get_idx(cs, i);
        const char *h = json_object_get_string(json_at(c, "hostname"));
        if (h && strncmp(h, "127.0.0.", 8) == 0 && h[8] >= '1' && h[8] <= '3')
            seen[h[8] - '0'] = true;
    }
    print_message("  fio's %s: survivors 127.0.0.1 %s, 127.0.0.3 %s; 127.0.0.2 %s\n", last,
                  seen[1] ? "in" : "missing", seen[3] ? "in" : "missing",
                  seen[2] ? "in" : "absent");
    assert_true(seen[1] && seen[3] && !seen[2]);
    json_object_put(fj);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_hosts_own_files),
        cmocka_unit_test(test_unreachable_host_refused),
        cmocka_unit_test(test_host_killed_mid_run),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
