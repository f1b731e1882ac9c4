/* engine_keys.h — how each engine applies each workload key: one table, a column per engine.
 *
 * Every key wl_set takes (io/workload.h; wl_key_at walks them) has one row here, and each row
 * says, for the native engines (io_uring, libaio: the I/O loop of core/worker.c drawing from
 * io/iogen.c), for the simulated drive's sim engine (the same loop in virtual time) and for
 * the fio job writer (engine/fio_job.c), whether the key is applied (and how), applied with a
 * difference that is named where the results and the job file show it, refused, applied by the
 * command around the engine (the round's length, the target, the profile matrix), or without
 * effect on the I/O (names, fio's reporting). tests/unit/test_engine_keys.c walks every key of
 * the grammar through each column: a key without a row, or whose row the writer does not keep,
 * fails it.
 *
 * Why here and not beside the key rows of io/workload.c: the workload layer sits below the
 * engines and knows none of them; the fio column is the job writer's knowledge. */
#ifndef PTSBENCH_ENGINE_KEYS_H
#define PTSBENCH_ENGINE_KEYS_H

#include <stdbool.h>
#include <stddef.h>

struct engine_ops;
struct workload;

enum engine_key_how {
    EK_APPLIED,      /* the engine does what the key says */
    EK_DIFFERS,      /* applied with a difference, named (job file comment, results' note) */
    EK_REFUSED,      /* some values are refused at prepare time (what = which and why) */
    EK_COMMAND,      /* applied around the engine by the command (run, profile) */
    EK_NO_EFFECT,    /* changes nothing the engine issues (names, fio's reporting) */
};

enum engine_key_col { EK_NATIVE, EK_SIM, EK_FIO, EK_NCOLS };

struct engine_key_way {
    enum engine_key_how how;
    const char *what;          /* how, in words (docs/workloads.md prints them) */
};

struct engine_key {
    const char *key;           /* as wl_set takes it (each alias has its own row) */
    const char *sample;        /* inline keys that set it to a value other than the default */
    const char *fio_line;      /* with sample: a line the job file must hold (NULL: none) */
    struct engine_key_way col[EK_NCOLS];
    const char *fio_refuse;    /* inline keys the fio job writer refuses (NULL: none) */
};

/* Rows, and their number. */
extern const struct engine_key engine_keys[];
extern const size_t engine_keys_n;

/* The row of a key, or NULL. */
const struct engine_key *engine_key_find(const char *key);

/* Which column an engine is, by its kind (flags): whole-round engines hand the workload to
 * fio's job writer, ENGINE_F_SIM_TARGET engines are the sim's, the rest are native. */
enum engine_key_col engine_key_column(const struct engine_ops *ops);

/* Does the engine take this workload?  0, or -1 with one line naming the key and value it
 * refuses (the fio job writer: fio_job_check).  Asked when the run is prepared; what the
 * engine applies differently (EK_DIFFERS: fio's random map for random_map=once) is added to
 * wl->note, which the results keep. */
int engine_keys_check(const struct engine_ops *ops, struct workload *wl, char *err,
                      size_t errlen);

const char *engine_key_how_name(enum engine_key_how how);

#endif
