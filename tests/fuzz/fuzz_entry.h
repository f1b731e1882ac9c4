/* fuzz_entry.h — one entry function per parser, shared by the libFuzzer harnesses
 * (tests/fuzz/harness.c, built by `make fuzz` with clang) and the regression test that replays
 * the saved crashing inputs (tests/unit/test_fuzz_regressions.c, built by gcc in `make test` and
 * under ASan+UBSan in `make sanitize`).
 *
 * Each entry feeds one input through the library functions the CLI uses (no CLI, no exec): from
 * memory where the function takes text, else through a file in a private scratch directory
 * (tmpfs /dev/shm when writable; removed at exit). It returns 0 when the input was accepted and
 * 1 when it was refused with an error, and abort()s when an error message breaks the contract
 * (util.h: one line, naming the problem): empty, or more than one line. Crashes, sanitizer
 * reports and hangs are the harness's to find.
 *
 * Data: the entries that judge one input against another (a spec sheet against measured points,
 * results against a baseline) load fixtures once from $PTSBENCH_DATADIR (default "."): the repo's
 * tests/fuzz/corpus/results (the results fixtures cut down), specs/ and profiles/devices/. */
#ifndef PTSBENCH_FUZZ_ENTRY_H
#define PTSBENCH_FUZZ_ENTRY_H

#include <stddef.h>
#include <stdint.h>

typedef int (*fuzz_fn)(const uint8_t *data, size_t size);

struct fuzz_target {
    const char *name;          /* the harness and its directories: corpus/NAME, regressions/NAME */
    fuzz_fn run;
    const char *what;          /* one line, for `make fuzz` */
    int json;                  /* the input is JSON: the harness adds a structural mutator */
};

extern const struct fuzz_target fuzz_targets[];
extern const size_t fuzz_n_targets;
const struct fuzz_target *fuzz_target_find(const char *name);

/* Where the scratch files go (created on first use). */
const char *fuzz_scratch(void);

#endif
