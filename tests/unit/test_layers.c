/* test_layers.c — the tree keeps its shape (docs/architecture.md):
 *   - every folder of src/ is a layer, and a file includes headers of its own folder or of
 *     folders below it, never above: lib < stats < io < sim < device < engine < core < pts <
 *     profile < read < judge < plot < show < report < db < cli;
 *   - every include of a ptsbench header names its folder ("core/run.h"), and the header exists;
 *   - no basename is used twice under src/;
 *   - no source, data or documentation file names a path of the machine it was written on
 *     (under /work, /home or /root) or one outside the repository (the shared folder beside
 *     it, its research notes and seed reviews): a clone cannot follow them. Cite a publication
 *     or a path in the repository (docs/).
 *   - a short option letter means the same long option in every command (src/cli/cmd_*.c:
 *     option tables and getopt_long arrays alike): -t is --target everywhere it exists;
 *   - no function above the engine layer is longer than 120 lines (from its signature, the
 *     line at column 0 before a "{" alone on its line, to the next "}" alone on its line);
 *   - no source file opens with more than 60 lines of comment: the header says the contract,
 *     the evidence lives in docs/;
 *   - no circle between object files: where a.o uses a symbol b.o defines, b.o uses nothing
 *     of a.o, directly or through others (nm over the objects under $BUILD/src; a registry
 *     sits above what it registers, the helpers those use below them).
 * scripts/tree-stats.py prints the same figures for any checkout.
 * The files are read from PTSBENCH_DATADIR (the source tree; run-tests.sh sets it). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/spawn.h"

static const char *const layers[] = {"lib",     "stats", "io",    "sim",  "device", "engine",
                                     "core",    "pts",   "profile", "read", "judge",  "plot",
                                     "show",    "report", "db",     "cli",  NULL};

static const char *root(void)
{
    const char *r = getenv("PTSBENCH_DATADIR");
    return r && *r ? r : ".";
}

static int rank_of(const char *folder, size_t len)
{
    for (int i = 0; layers[i]; i++)
        if (strlen(layers[i]) == len && !strncmp(layers[i], folder, len))
            return i;
    return -1;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    size_t got = fread(b, 1, (size_t)n, f);
    fclose(f);
    b[got] = '\0';
    return b;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

typedef void (*visit_fn)(const char *path, const char *rel, void *ctx);

/* Every regular file under dir (rel: its path from the root), depth first. */
static void walk(const char *dir, const char *rel, visit_fn fn, void *ctx)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096], r[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        snprintf(r, sizeof(r), "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            walk(path, r, fn, ctx);
        else if (S_ISREG(st.st_mode))
            fn(path, r, ctx);
    }
    closedir(d);
}

struct findings {
    unsigned files, includes, bad;
    char names[512][64];
    unsigned n_names;
};

static void check_source(const char *path, const char *rel, void *ctx)
{
    struct findings *f = ctx;
    if (!ends_with(rel, ".c") && !ends_with(rel, ".h"))
        return;
    f->files++;
    /* rel = "src/FOLDER/NAME" */
    const char *folder = rel + 4, *slash = strchr(folder, '/');
    if (!slash || strchr(slash + 1, '/')) {
        print_error("%s: not in a layer folder (src/FOLDER/FILE)\n", rel);
        f->bad++;
        return;
    }
    const int mine = rank_of(folder, (size_t)(slash - folder));
    if (mine < 0) {
        print_error("%s: src/%.*s is not a layer of docs/architecture.md\n", rel,
                    (int)(slash - folder), folder);
        f->bad++;
    }
    for (unsigned i = 0; i < f->n_names; i++)
        if (!strcmp(f->names[i], slash + 1)) {
            print_error("%s: the basename %s is used twice under src/\n", rel, slash + 1);
            f->bad++;
        }
    if (f->n_names < 512)
        snprintf(f->names[f->n_names++], sizeof(f->names[0]), "%s", slash + 1);
    char *text = slurp(path);
    assert_non_null(text);
    unsigned line = 1;
    for (char *p = text; *p; p++) {
        if (*p == '\n') {
            line++;
            continue;
        }
        if ((p == text || p[-1] == '\n') && !strncmp(p, "#include \"", 10)) {
            const char *name = p + 10, *end = strchr(name, '"');
            if (!end)
                continue;
            f->includes++;
            const char *s = memchr(name, '/', (size_t)(end - name));
            if (!s) {
                print_error("%s:%u: #include \"%.*s\" names no folder\n", rel, line,
                            (int)(end - name), name);
                f->bad++;
                continue;
            }
            const int theirs = rank_of(name, (size_t)(s - name));
            char hdr[4096];
            snprintf(hdr, sizeof(hdr), "%s/src/%.*s", root(), (int)(end - name), name);
            struct stat st;
            if (theirs < 0 || stat(hdr, &st) != 0) {
                print_error("%s:%u: #include \"%.*s\": no such header under src/\n", rel, line,
                            (int)(end - name), name);
                f->bad++;
            } else if (mine >= 0 && theirs > mine) {
                print_error("%s:%u: %s includes \"%.*s\", a layer above it\n", rel, line,
                            layers[mine], (int)(end - name), name);
                f->bad++;
            }
        }
    }
    free(text);
}

static void test_includes_go_down(void **state)
{
    (void)state;
    struct findings *f = calloc(1, sizeof(*f));
    char src[4096];
    snprintf(src, sizeof(src), "%s/src", root());
    walk(src, "src", check_source, f);
    print_message("%u files, %u includes of ptsbench headers, %u problems\n", f->files,
                  f->includes, f->bad);
    assert_true(f->files > 50);
    assert_true(f->includes > 200);
    assert_int_equal(f->bad, 0);
    free(f);
}

/* What no file of the tree may name (split so that this file does not name them itself). */
static const char *const forbidden[] = {"/wor" "k/", "/hom" "e/", "/roo" "t/", "../shar" "ed/",
                                        "resear" "ch/", "shared/se" "eds", NULL};

static void check_paths(const char *path, const char *rel, void *ctx)
{
    struct findings *f = ctx;
    static const char *const kinds[] = {".c", ".h", ".ini", ".md", ".sh", ".gp", ".json",
                                        ".dict", ".css", "Makefile", NULL};
    bool text = false;
    for (int i = 0; kinds[i]; i++)
        text |= ends_with(rel, kinds[i]);
    if (!text)
        return;
    f->files++;
    char *s = slurp(path);
    if (!s)
        return;
    for (int i = 0; forbidden[i]; i++) {
        const char *hit = strstr(s, forbidden[i]);
        if (hit) {
            unsigned line = 1;
            for (const char *p = s; p < hit; p++)
                line += *p == '\n';
            print_error("%s:%u: names %s (a path outside the repository)\n", rel, line,
                        forbidden[i]);
            f->bad++;
        }
    }
    free(s);
}

static void test_no_paths_outside_the_tree(void **state)
{
    (void)state;
    struct findings *f = calloc(1, sizeof(*f));
    static const char *const dirs[] = {"src", "tests", "pts", "profiles", "specs", "reports",
                                       "docs", "scripts", NULL};
    for (int i = 0; dirs[i]; i++) {
        char d[4096];
        snprintf(d, sizeof(d), "%s/%s", root(), dirs[i]);
        walk(d, dirs[i], check_paths, f);
    }
    static const char *const top[] = {"README.md", "Makefile", NULL};
    for (int i = 0; top[i]; i++) {
        char p[4096];
        snprintf(p, sizeof(p), "%s/%s", root(), top[i]);
        check_paths(p, top[i], f);
    }
    print_message("%u files read, %u name a path outside the repository\n", f->files, f->bad);
    assert_true(f->files > 100);
    assert_int_equal(f->bad, 0);
    free(f);
}

/* The short letters of the commands: {"name", 'x', CLI_...} rows and {"name", ..., NULL, 'x'}
 * getopt_long entries. */
struct letters {
    char name[128][40];
    unsigned files, seen, bad;
};

static void record_letter(struct letters *L, const char *rel, char c, const char *name, size_t n)
{
    if (c == 'h' || n >= sizeof(L->name[0]))
        return;
    L->seen++;
    char *have = L->name[(unsigned char)c];
    if (!*have) {
        snprintf(have, sizeof(L->name[0]), "%.*s", (int)n, name);
    } else if (strlen(have) != n || strncmp(have, name, n) != 0) {
        print_error("%s: -%c is --%.*s here but --%s elsewhere\n", rel, c, (int)n, name, have);
        L->bad++;
    }
}

static void check_letters(const char *path, const char *rel, void *ctx)
{
    struct letters *L = ctx;
    if (strncmp(rel, "src/cli/cmd_", 12) != 0 || !ends_with(rel, ".c"))
        return;
    L->files++;
    char *s = slurp(path);
    assert_non_null(s);
    for (char *p = s; (p = strstr(p, "{\"")); p++) {
        const char *name = p + 2, *q = strchr(name, '"');
        if (!q)
            break;
        const size_t n = (size_t)(q - name);
        const char *line_end = strchr(q, '\n');
        if (!line_end)
            break;
        if (!strncmp(q, "\", '", 4) && q[5] == '\'' && q[6] == ',' && strstr(q, "CLI_") &&
            strstr(q, "CLI_") < line_end) {
            record_letter(L, rel, q[4], name, n);
        } else {
            const char *g = strstr(q, "NULL, '");
            if (g && g < line_end && (strstr(q, "_argument") && strstr(q, "_argument") < g))
                record_letter(L, rel, g[7], name, n);
        }
    }
    free(s);
}

static void test_short_options_mean_one_thing(void **state)
{
    (void)state;
    struct letters *L = calloc(1, sizeof(*L));
    char d[4096];
    snprintf(d, sizeof(d), "%s/src/cli", root());
    walk(d, "src/cli", check_letters, L);
    print_message("%u command files, %u short options, %u used for two long ones\n", L->files,
                  L->seen, L->bad);
    assert_true(L->files >= 10);
    assert_true(L->seen >= 15);
    assert_int_equal(L->bad, 0);
    free(L);
}

/* ---- Short functions and short opening comments ---- */

/* Layers whose functions may be long: the engine's hot paths and the simulator's model read best
 * whole (docs/architecture.md). */
static const char *const long_ok[] = {"lib", "stats", "io", "sim", "device", "engine", NULL};
#define MAX_FUNCTION_LINES 120
#define MAX_OPENING_COMMENT 60

struct shape_findings {
    unsigned files, functions, long_functions, long_comments;
};

static bool in_list(const char *const *list, const char *s, size_t n)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == n && !strncmp(list[i], s, n))
            return true;
    return false;
}

/* Lines of text as an array of pointers into it (each line's '\n' replaced by '\0'). */
static char **split_lines(char *text, size_t *n)
{
    size_t cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == '\n';
    char **lines = calloc(cap + 1, sizeof(*lines));
    size_t k = 0;
    for (char *p = text; p;) {
        lines[k++] = p;
        p = strchr(p, '\n');
        if (p)
            *p++ = '\0';
    }
    *n = k;
    return lines;
}

static void check_shape(const char *path, const char *rel, void *ctx)
{
    struct shape_findings *f = ctx;
    if (!ends_with(rel, ".c") && !ends_with(rel, ".h"))
        return;
    f->files++;
    char *text = slurp(path);
    assert_non_null(text);
    size_t n = 0;
    char **L = split_lines(text, &n);
    if (n && !strncmp(L[0], "/*", 2)) {
        size_t end = 0;
        while (end < n && !strstr(L[end], "*/"))
            end++;
        if (end + 1 > MAX_OPENING_COMMENT) {
            print_error("%s: opens with %zu lines of comment (at most %d: the contract; the "
                        "evidence belongs in docs/)\n", rel, end + 1, MAX_OPENING_COMMENT);
            f->long_comments++;
        }
    }
    const char *folder = rel + 4, *slash = strchr(folder, '/');
    const bool exempt = !slash || in_list(long_ok, folder, (size_t)(slash - folder));
    for (size_t i = 1; i < n && ends_with(rel, ".c"); i++) {
        if (strcmp(L[i], "{") != 0)
            continue;
        f->functions++;
        size_t start = i - 1;
        while (start > 0 && (L[start][0] == ' ' || L[start][0] == '\t' || !L[start][0]))
            start--;
        size_t end = i + 1;
        while (end < n && strcmp(L[end], "}") != 0)
            end++;
        if (!exempt && end - start + 1 > MAX_FUNCTION_LINES) {
            print_error("%s:%zu: %.60s: %zu lines (at most %d above the engine layer)\n", rel,
                        start + 1, L[start], end - start + 1, MAX_FUNCTION_LINES);
            f->long_functions++;
        }
    }
    free(L);
    free(text);
}

static void test_functions_and_headers_are_short(void **state)
{
    (void)state;
    struct shape_findings f = {0};
    char src[4096];
    snprintf(src, sizeof(src), "%s/src", root());
    walk(src, "src", check_shape, &f);
    print_message("%u files, %u functions: %u over %d lines above the engine layer, %u files "
                  "opening with over %d lines of comment\n", f.files, f.functions,
                  f.long_functions, MAX_FUNCTION_LINES, f.long_comments, MAX_OPENING_COMMENT);
    assert_true(f.functions > 1000);
    assert_int_equal(f.long_functions, 0);
    assert_int_equal(f.long_comments, 0);
}

/* ---- No circle between object files ---- */

#define MAX_OBJS 512

struct objgraph {
    char *name[MAX_OBJS];
    size_t n;
    bool edge[MAX_OBJS][MAX_OBJS];
    int index[MAX_OBJS], low[MAX_OBJS], stack[MAX_OBJS], sp, next;
    bool on[MAX_OBJS];
    unsigned circles;
};

struct sym {
    char *name;
    int obj;
};

static int sym_cmp(const void *a, const void *b)
{
    return strcmp(((const struct sym *)a)->name, ((const struct sym *)b)->name);
}

/* An object of the build whose source is still in the tree (rel: "FOLDER/NAME.o"); one left
 * behind by a removed source is not part of the program. */
static void collect_obj(const char *path, const char *rel, void *ctx)
{
    struct objgraph *g = ctx;
    if (!ends_with(rel, ".o") || g->n >= MAX_OBJS)
        return;
    char src[4096];
    struct stat st;
    snprintf(src, sizeof(src), "%s/src/%.*s.c", root(), (int)(strlen(rel) - 2), rel);
    if (stat(src, &st) == 0)
        g->name[g->n++] = strdup(path);
}

static int obj_of(const struct objgraph *g, const char *path, size_t len)
{
    for (size_t i = 0; i < g->n; i++)
        if (strlen(g->name[i]) == len && !strncmp(g->name[i], path, len))
            return (int)i;
    return -1;
}

/* Tarjan's strongly connected components; a component of more than one object is a circle. */
static void scc_visit(struct objgraph *g, int v)
{
    g->index[v] = g->low[v] = g->next++;
    g->stack[g->sp++] = v;
    g->on[v] = true;
    for (int w = 0; w < (int)g->n; w++) {
        if (!g->edge[v][w])
            continue;
        if (g->index[w] < 0) {
            scc_visit(g, w);
            g->low[v] = g->low[w] < g->low[v] ? g->low[w] : g->low[v];
        } else if (g->on[w] && g->index[w] < g->low[v]) {
            g->low[v] = g->index[w];
        }
    }
    if (g->low[v] != g->index[v])
        return;
    int members = 0, w;
    char names[2048] = "";
    do {
        w = g->stack[--g->sp];
        g->on[w] = false;
        members++;
        const char *base = strstr(g->name[w], "/src/");
        size_t used = strlen(names);
        snprintf(names + used, sizeof(names) - used, "%s%s", used ? " <-> " : "",
                 base ? base + 5 : g->name[w]);
    } while (w != v);
    if (members > 1) {
        print_error("a circle between object files: %s\n", names);
        g->circles++;
    }
}

/* Parse `nm -A` lines ("OBJ:ADDR T sym", "OBJ: U sym") into the graph. */
static void graph_from_nm(struct objgraph *g, char *out)
{
    size_t n_lines = 0, n_defs = 0;
    char **L = split_lines(out, &n_lines);
    struct sym *defs = calloc(n_lines + 1, sizeof(*defs));
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n_lines; i++) {
            char *colon = strstr(L[i], ".o:");
            if (!colon)
                continue;
            const int obj = obj_of(g, L[i], (size_t)(colon + 2 - L[i]));
            char f1[256] = "", f2[256] = "", f3[256] = "";
            const int k = sscanf(colon + 3, "%255s %255s %255s", f1, f2, f3);
            if (obj < 0)
                continue;
            if (pass == 0 && k == 3 && strlen(f2) == 1 && strchr("TDBR", f2[0])) {
                defs[n_defs].name = strdup(f3);
                defs[n_defs++].obj = obj;
            } else if (pass == 1 && k == 2 && !strcmp(f1, "U")) {
                struct sym key = {f2, 0};
                const struct sym *d = bsearch(&key, defs, n_defs, sizeof(*defs), sym_cmp);
                if (d && d->obj != obj)
                    g->edge[obj][d->obj] = true;
            }
        }
        if (pass == 0)
            qsort(defs, n_defs, sizeof(*defs), sym_cmp);
    }
    for (size_t i = 0; i < n_defs; i++)
        free(defs[i].name);
    free(defs);
    free(L);
}

static void test_no_circle_between_objects(void **state)
{
    (void)state;
    const char *build = getenv("BUILD");
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/%s/src", root(), build && *build ? build : "build");
    struct objgraph *g = calloc(1, sizeof(*g));
    walk(dir, "", collect_obj, g);
    if (g->n < 50) {
        printf("SKIP: no object files under %s (the test reads the build's objects)\n", dir);
        for (size_t i = 0; i < g->n; i++)
            free(g->name[i]);
        free(g);
        skip();
        return;
    }
    char **argv = calloc(g->n + 3, sizeof(*argv));
    argv[0] = "nm";
    argv[1] = "-A";
    for (size_t i = 0; i < g->n; i++)
        argv[i + 2] = g->name[i];
    struct spawn_result r = {0};
    const int rc = spawn_run(argv, &r);
    if (rc != 0 || r.status == 127) {
        spawn_result_free(&r);
        free(argv);
        printf("SKIP: nm could not run (binutils)\n");
        for (size_t i = 0; i < g->n; i++)
            free(g->name[i]);
        free(g);
        skip();
        return;
    }
    assert_int_equal(r.status, 0);
    graph_from_nm(g, r.out);
    for (size_t i = 0; i < g->n; i++)
        g->index[i] = -1;
    for (size_t i = 0; i < g->n; i++)
        if (g->index[i] < 0)
            scc_visit(g, (int)i);
    print_message("%zu object files, %u circles\n", g->n, g->circles);
    assert_int_equal(g->circles, 0);
    spawn_result_free(&r);
    for (size_t i = 0; i < g->n; i++)
        free(g->name[i]);
    free(argv);
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_includes_go_down),
        cmocka_unit_test(test_no_paths_outside_the_tree),
        cmocka_unit_test(test_short_options_mean_one_thing),
        cmocka_unit_test(test_functions_and_headers_are_short),
        cmocka_unit_test(test_no_circle_between_objects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
