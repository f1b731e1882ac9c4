/* engine_keys.c — how each engine applies each workload key (engine_keys.h). */
#include "engine/engine_keys.h"

#include <string.h>

#include "engine/engine.h"
#include "engine/fio_job.h"
#include "io/workload.h"
#include "lib/util.h"

#define A(w) {EK_APPLIED, w}
#define D(w) {EK_DIFFERS, w}
#define R(w) {EK_REFUSED, w}
#define C(w) {EK_COMMAND, w}
#define X(w) {EK_NO_EFFECT, w}
/* The native engines and the sim engine run the same loop on the same workload model. */
#define LOOP(w) {A(w), A(w)
/* ... and keys that change nothing their loop issues */
#define NONE(w) {X(w), X(w)

static const char loop_rw[] = "the loop's direction draw (iogen.c)";
static const char loop_pct[] = "the loop's draws (iogen.c)";
static const char run_round[] = "the round's length (run's --round-time/--round-bytes win)";
static const char run_fio_ss[] = "the run's window: tracked variable, range limit, first round (core/fio_ss.h); fio's criterion recorded beside it";
static const char prio_draw[] = "the loop's priority draw (iogen.h iogen_prio, fio's cmdprio.c), issued per I/O (sqe ioprio, IOCB_FLAG_IOPRIO)";
static const char sim_no_prio[] = "taken, noted: the simulated drive has no priority model";
static const char report_only[] = "fio's reporting: results hold their own figures";

const struct engine_key engine_keys[] = {
    /* direction and mix */
    {"rw", "rw=randwrite", "rw=randwrite", LOOP(loop_rw), A("rw= from the read and random shares, "
     "with its offset modifier (rw=read:N in bytes, rw=randread:N); trims as fio's rw=trim, "
     "randtrim, trimwrite, randtrimwrite (fio trims block devices only)")}, NULL},
    {"readwrite", "readwrite=write", "rw=write", LOOP(loop_rw), A("rw=")}, NULL},
    {"rwmixread", "rw=randrw,rwmixread=70", "rwmixread=70", LOOP(loop_pct), A("rwmixread=")}, NULL},
    {"rwmix", "rw=randrw,rwmix=30", "rwmixread=30", LOOP(loop_pct), A("rwmixread=")}, NULL},
    {"rwmixwrite", "rw=randrw,rwmixwrite=20", "rwmixread=80", LOOP(loop_pct), A("rwmixread=")}, NULL},
    {"percentage_random", "percentage_random=40", "percentage_random=40", LOOP(loop_pct),
     A("rw=rand* with percentage_random= (fio applies it to random jobs only)")}, NULL},
    /* offsets */
    {"random_map", "random_map=off", "norandommap=1", LOOP("iogen.c's map: once, always, off"),
     D("always: fio's map; off: norandommap=1; once (the native default): fio's map restarts "
       "every pass, said in the job file")}, NULL},
    {"norandommap", "norandommap=1", "norandommap=1", LOOP("random_map=off"), A("norandommap=1")}, NULL},
    {"random_distribution", "random_distribution=zipf:1.2", "random_distribution=zipf:1.2",
     LOOP("iogen.c: zoned, zipf, pareto, normal as fio's"),
     A("random_distribution= (zoned, zipf, pareto, normal, centre too) with norandommap=1")}, NULL},
    {"zonemode", "zonemode=strided,zonesize=1m", "zonemode=strided",
     LOOP("iogen.c: zonesize bytes in each zone, then on past zoneskip, as fio's strided mode"),
     D("zonemode=strided; fio wraps past the device's end, the loop past the range's (said "
       "in the job file)")}, NULL},
    {"zonesize", "zonesize=1m", "zonesize=1048576", LOOP("bytes of I/O in each strided zone"),
     A("zonesize= in bytes")}, NULL},
    {"zonerange", "zonesize=1m,zonerange=4m", "zonerange=4194304",
     LOOP("each strided zone's length"), A("zonerange= in bytes")}, NULL},
    {"zoneskip", "zonesize=1m,zoneskip=8m", "zoneskip=8388608",
     LOOP("the gap after each strided zone"), A("zoneskip= in bytes")}, NULL},
    {"rw_sequencer", "rw=randread:8,rw_sequencer=identical", "rw_sequencer=identical",
     LOOP("iogen.h: the I/Os between rw=randread:N's draws repeat the drawn offset"),
     A("rw_sequencer=identical")}, NULL},
    {"region", "numjobs=2,region=split", "offset_increment=", LOOP("each worker's slice"),
     A("split: size= a slice, offset_increment= the slice")}, NULL},
    {"offset", "offset=1048576", "offset=1048576", LOOP("the active range"), A("offset= in bytes")}, NULL},
    {"fileoffset", "fileoffset=1048576", "offset=1048576", LOOP("the active range"),
     A("offset= in bytes")}, NULL},
    {"size", "size=8388608", "size=8388608", LOOP("the active range"), A("size= in bytes")}, NULL},
    {"filesize", "filesize=8388608", "size=8388608",
     LOOP("one file (nrfiles=1): the active range, as size"), A("size= in bytes")}, NULL},
    {"range", "range=4194304", "size=4194304", LOOP("the active range"), A("size= in bytes")}, NULL},
    /* sizes */
    {"bs", "bs=8192", "bs=8192", LOOP("every I/O's size"), A("bs= in bytes")}, NULL},
    {"blocksize", "blocksize=16384", "bs=16384", LOOP("every I/O's size"), A("bs= in bytes")}, NULL},
    {"bssplit", "bssplit=4096/50:65536/50", "bssplit=4096/50:65536/50", LOOP("the size draw"),
     A("bssplit= in bytes, blockalign= where most I/Os align")}, NULL},
    {"bsrange", "bsrange=4k-64k", "bsrange=4096-65536",
     LOOP("uniform over the multiples of MIN up to MAX, as fio's get_next_buflen (iogen.h)"),
     A("bsrange= in bytes (READ,WRITE when they differ)")}, NULL},
    {"blocksize_range", "blocksize_range=8k-32k", "bsrange=8192-32768",
     LOOP("uniform over the multiples of MIN up to MAX"), A("bsrange=")}, NULL},
    {"blockalign", "blockalign=8k", "blockalign=8192",
     LOOP("random offsets aligned to it (no random map unless it is the one block size)"),
     A("blockalign= in bytes (norandommap=1 where ptsbench draws without a map)")}, NULL},
    {"ba", "ba=16k", "blockalign=16384", LOOP("random offsets aligned to it"),
     A("blockalign=")}, NULL},
    /* depth and workers */
    {"iodepth", "iodepth=8", "iodepth=8", LOOP("I/Os in flight per worker"), A("iodepth=")}, NULL},
    {"qd", "qd=4", "iodepth=4", LOOP("I/Os in flight per worker"), A("iodepth=")}, NULL},
    {"numjobs", "numjobs=3", "numjobs=3", LOOP("workers (threads)"),
     A("numjobs= with group_reporting")}, NULL},
    {"workers", "workers=2", "numjobs=2", LOOP("workers"), A("numjobs=")}, NULL},
    {"threads", "threads=2", "numjobs=2", LOOP("workers"), A("numjobs=")}, NULL},
    /* data */
    {"buffer_compress_percentage", "buffer_compress_percentage=50",
     "buffer_compress_percentage=50", LOOP("the write data (pattern.c)"),
     A("buffer_compress_percentage= with buffer_compress_chunk=4k, refill_buffers")}, NULL},
    {"compress", "compress=90", "buffer_compress_percentage=90", LOOP("the write data"),
     A("buffer_compress_percentage=")}, NULL},
    {"buffer_compress_chunk", "buffer_compress_chunk=4k,compress=50",
     "buffer_compress_chunk=4k", LOOP("4 KiB: the only chunk taken (others refused)"),
     A("buffer_compress_chunk=4k")}, NULL},
    {"dedupe_percentage", "rw=write,dedupe_percentage=30", "dedupe_percentage=30",
     {A("the write data (pattern.c): that share of 4 KiB chunks repeats one"),
      X("the data sample has the repeats; the simulated drive does not deduplicate"),
      A("dedupe_percentage= (fio: per write buffer)")}, NULL},
    {"dedupe_mode", "rw=write,dedupe_percentage=30,dedupe_mode=working_set",
     "dedupe_mode=working_set", {A("which chunk a repeat is (pattern.c)"),
      X("the simulated drive does not deduplicate"), A("dedupe_mode=")}, NULL},
    {"dedupe_working_set_percentage",
     "rw=write,dedupe_percentage=30,dedupe_mode=working_set,dedupe_working_set_percentage=20",
     "dedupe_working_set_percentage=20", {A("the working set's size (pattern.c)"),
      X("the simulated drive does not deduplicate"), A("dedupe_working_set_percentage=")}, NULL},
    {"dedupe_global", "rw=write,dedupe_percentage=30,dedupe_mode=working_set,dedupe_global=1",
     "dedupe_global=1", {A("one working set for the run's jobs (pattern.c)"),
      X("the simulated drive does not deduplicate"), A("dedupe_global=1")}, NULL},
    {"numa_cpu_nodes", "numa_cpu_nodes=0", NULL,
     {C("the run's placement (--numa) when every job agrees (core/job_numa.h)"),
      C("the run's placement"), C("fio inherits the run's placement")}, NULL},
    {"numa_mem_policy", "numa_mem_policy=local", NULL,
     {C("taken where first touch on the pinned CPUs gives it"),
      C("the run's placement"), C("fio's buffers follow the inherited placement")}, NULL},
    {"refill_buffers", "refill_buffers=1", NULL, NONE("every write's data is fresh anyway"),
     X("refill_buffers=1 for every writing job")}, NULL},
    {"randseed", "randseed=42", "randseed=42", LOOP("the loop's PRNG seed"),
     A("randseed= (low 63 bits) with tausworthe64")}, NULL},
    {"seed", "seed=7", "randseed=7", LOOP("the loop's PRNG seed"), A("randseed=")}, NULL},
    {"randrepeat", "randrepeat=0", NULL, NONE("the seed repeats the pattern anyway"),
     X("randseed= is always written")}, NULL},
    {"allrandrepeat", "allrandrepeat=1", NULL, NONE("the seed repeats the pattern anyway"),
     X("randseed= is always written")}, NULL},
    {"random_generator", "random_generator=lfsr", NULL,
     NONE("ptsbench's own PRNG: the same distributions"), X("random_generator=tausworthe64")}, NULL},
    /* pacing and batches */
    /* fio's pacing and flow (helper "pace"; worker.c pace_*) */
    {"rate_iops", "rate_iops=2000", "rate_iops=2000",
     LOOP("per worker and direction, as fio: an issue every 1/rate, caught up after a stall "
          "(worker.c)"), A("rate_iops= per job")}, NULL},
    {"rate", "rate=1m:200k", "rate=1048576,204800",
     LOOP("per worker and direction, as fio: bytes over the rate between issues, a direction "
          "ahead of its rate gives way to the other"), A("rate=R,W in bytes per job (R,W,T where the trims' differ)")}, NULL},
    {"rate_process", "rate_iops=500,rate_process=poisson", "rate_process=poisson",
     LOOP("exponential gaps of the rate's mean, seeded by randseed"),
     A("rate_process=poisson (fio's own seed)")}, NULL},
    {"io_submit_mode", "rate_iops=500,io_submit_mode=offload", "io_submit_mode=offload",
     LOOP("ahead of a rate: inline waits for every I/O in flight first (fio's quiesce), "
          "offload does not"), A("io_submit_mode=")}, NULL},
    {"rate_cycle", "rate_cycle=500", NULL, NONE("only rate_min's window (rate_min refused)"),
     X("not written")}, NULL},
    {"ratecycle", "ratecycle=500", NULL, NONE("only rate_min's window (rate_min refused)"),
     X("not written")}, NULL},
    {"thinktime", "thinktime=200", "thinktime=200us",
     LOOP("after thinktime_blocks issues, once nothing is in flight (fio's quiesce); at "
          "depth with thinktime_blocks=1 refused: fio's depth would be 1"),
     A("thinktime= in whole microseconds; a fraction of a microsecond is refused")},
     "thinktime=1500ns"},
    {"thinktime_blocks", "iodepth=4,thinktime=100,thinktime_blocks=4", "thinktime_blocks=4",
     LOOP("issues between thinks"), A("thinktime_blocks=")}, NULL},
    {"thinktime_spin", "thinktime=100,thinktime_spin=40", "thinktime_spin=40us",
     {A("that much of the think polled, the rest slept"), X("virtual time: a wait either way"),
      A("thinktime_spin= in whole microseconds")}, NULL},
    {"thinktime_iotime", "thinktime=100,thinktime_iotime=1", "thinktime_iotime=1000000us",
     LOOP("a think after this long issuing"), A("thinktime_iotime= in microseconds")}, NULL},
    {"startdelay", "startdelay=1", "startdelay=1000000us",
     LOOP("every round, the worker starts this long into it (fio: once per job)"),
     A("startdelay= per round: each round a fio run")}, NULL},
    {"number_ios", "number_ios=1000", "number_ios=1000",
     LOOP("a round ends after this many I/Os per worker"),
     A("number_ios= with io_size= and runtime= (time_based would run past it)")}, NULL},
    {"loops", "round_bytes=1m,loops=3", NULL,
     LOOP("round_bytes and number_ios multiplied (timed rounds: no effect, as time_based)"),
     A("the multiplied io_size= and number_ios=")}, NULL},
    {"fill_device", "rw=write,fill_device=1", NULL,
     LOOP("a writing round ends once each worker wrote its share of the active range"),
     A("io_size= the share, runtime= without time_based")}, NULL},
    {"fill_fs", "rw=write,fill_fs=1", NULL, LOOP("fill_device"),
     A("io_size= the share")}, NULL},
    /* fio's flow control between jobs (helper "flow"; core/flow.h) */
    {"flow", "flow=2", "flow=2",
     LOOP("the workers of one flow_id keep their issues in the ratio of their weights (per "
          "worker, as fio's per job)"), A("flow= and flow_id= per job")}, NULL},
    {"flow_id", "flow=1,flow_id=3", "flow_id=3", LOOP("the flow a worker's weight counts in"),
     A("flow_id=")}, NULL},
    {"flow_sleep", "flow=1,flow_sleep=100", "flow_sleep=100",
     LOOP("held back by its flow: every I/O in flight completes, then this wait"),
     A("flow_sleep= in microseconds (rounded up)")}, NULL},
    {"iodepth_batch", "iodepth=8,iodepth_batch=4", "iodepth_batch_submit=4",
     LOOP("at most this many I/Os per submit call"), A("iodepth_batch_submit=")}, NULL},
    {"iodepth_batch_submit", "iodepth=8,iodepth_batch_submit=2", "iodepth_batch_submit=2",
     LOOP("at most this many I/Os per submit call"), A("iodepth_batch_submit=")}, NULL},
    {"iodepth_batch_complete", "iodepth=8,iodepth_batch_complete=2",
     "iodepth_batch_complete_min=2", LOOP("completions waited for per call (0, fio's poll, "
                                          "refused)"), A("iodepth_batch_complete_min=")}, NULL},
    {"iodepth_batch_complete_min", "iodepth=8,iodepth_batch_complete_min=3",
     "iodepth_batch_complete_min=3", LOOP("completions waited for per call"),
     A("iodepth_batch_complete_min=")}, NULL},
    {"iodepth_batch_complete_max", "iodepth=8,iodepth_batch_complete_max=8",
     "iodepth_batch_complete_max=8",
     LOOP("every completion there is taken: a value below iodepth is refused"),
     A("iodepth_batch_complete_max=")}, NULL},
    /* fio's steady state (the run's rule, core/fio_ss.h) and latency target (helper "ss") */
    {"steadystate", "ss=iops:2%,ss_dur=30", NULL, {C(run_fio_ss), C(run_fio_ss), C(run_fio_ss)},
     NULL},
    {"ss", "ss=bw_slope:1%,ss_dur=30", NULL, {C(run_fio_ss), C(run_fio_ss), C(run_fio_ss)}, NULL},
    {"steadystate_duration", "ss_dur=30", NULL,
     {C(run_fio_ss), C(run_fio_ss), C(run_fio_ss)}, NULL},
    {"ss_dur", "ss_dur=30", NULL, {C(run_fio_ss), C(run_fio_ss), C(run_fio_ss)}, NULL},
    {"steadystate_ramp_time", "ss_dur=30,ss_ramp=10", NULL,
     {C(run_fio_ss), C(run_fio_ss), C(run_fio_ss)}, NULL},
    {"ss_ramp", "ss_dur=30,ss_ramp=10", NULL, {C(run_fio_ss), C(run_fio_ss), C(run_fio_ss)},
     NULL},
    {"steadystate_check_interval", "ss_dur=30,ss_interval=2", NULL,
     {C(run_fio_ss), C(run_fio_ss), C(run_fio_ss)}, NULL},
    {"ss_interval", "ss_dur=30,ss_interval=2", NULL,
     {C(run_fio_ss), C(run_fio_ss), C(run_fio_ss)}, NULL},
    {"latency_target", "iodepth=32,latency_target=500", "latency_target=500us",
     LOOP("per worker: fio's depth search, the loop's depth moved by it (core/lat_target.h)"),
     A("latency_target= (fio searches itself each round)")}, NULL},
    {"latency_window", "iodepth=32,latency_target=500,latency_window=1s",
     "latency_window=1000000us", LOOP("each depth judged over this long"),
     A("latency_window=")}, NULL},
    {"latency_percentile", "iodepth=32,latency_target=500,latency_percentile=99",
     "latency_percentile=99", LOOP("share of a window's I/Os within the target"),
     A("latency_percentile=")}, NULL},
    {"latency_run", "iodepth=32,latency_target=500,latency_run=1", "latency_run=1",
     LOOP("the search goes on after it settles"), A("latency_run=")}, NULL},
    /* engine, target, round: the command's */
    {"ioengine", "ioengine=psync", "iodepth=1",
     {C("selects io_uring or libaio unless --engine names one; sync engines: iodepth 1"),
      C("simulated targets run on sim; sync engines: iodepth 1"),
      C("fio's own ioengine is the command's (fio: io_uring, fio-libaio); sync engines: "
        "iodepth=1")}, NULL},
    {"direct", "direct=0", "direct=0",
     {A("O_DIRECT; direct=0 opens the target without it: the page cache's figures, said on "
        "every figure"),
      D("no page cache: run direct, noted"), A("direct= as given")}, NULL},
    {"buffered", "buffered=1", "direct=0",
     {A("the opposite of direct"), D("no page cache: run direct, noted"),
      A("direct= as given")}, NULL},
    {"filename", "filename=/dev/null", NULL,
     {C("the target when the command names none"), C("the target"),
      C("filename= the command's target")}, NULL},
    {"directory", "directory=/tmp", NULL,
     {C("with filename: its directory; without: the job's own extent of the target (jobset.h)"),
      C("the job's own extent of the target without filename"),
      C("filename= the command's target; offset and size the job's extent")}, NULL},
    {"time_based", "time_based=1", NULL, {C(run_round), C(run_round), C(run_round)}, NULL},
    {"runtime", "runtime=5", NULL,
     {C(run_round), C(run_round), C("time_based=1, runtime= the round's length")}, NULL},
    {"timeout", "timeout=5", NULL,
     {C(run_round), C(run_round), C("time_based=1, runtime= the round's length")}, NULL},
    {"round_time", "round_time=5", NULL,
     {C(run_round), C(run_round), C("time_based=1, runtime= the round's length")}, NULL},
    {"round_bytes", "round_bytes=1g", NULL,
     {C(run_round), C(run_round), C("io_size= per job, the round's bytes")}, NULL},
    {"io_size", "io_size=1g", NULL,
     {C(run_round), C(run_round), C("io_size= per job, the round's bytes")}, NULL},
    {"io_limit", "io_limit=1g", NULL,
     {C(run_round), C(run_round), C("io_size= per job, the round's bytes")}, NULL},
    {"ramp_time", "ramp_time=2", NULL,
     {C("run: an unrecorded round of the workload before the first"),
      C("run: an unrecorded round in virtual time"),
      C("run: an unrecorded fio run of its own before the first round")}, NULL},
    {"kb_base", "kb_base=1000", NULL,
     {C("how sizes read (sizes reach the engine in bytes)"), C("how sizes read"),
      C("how sizes read: the job file has bytes")}, NULL},
    {"io_submit_mode", "io_submit_mode=inline", NULL,
     NONE("inline only: the worker submits its own I/O"), X("fio's default, inline")}, NULL},
    {"iodepth_low", "iodepth=4,iodepth_low=4", NULL,
     NONE("at least iodepth: the queue is refilled at once"),
     X("fio's default (iodepth_low=iodepth)")}, NULL},
    {"wait_for", "wait_for=x", NULL, NONE("the job's group (io/jobset.c)"),
     X("the job's group")}, NULL},
    /* fio's reporting, names */
    {"percentile_list", "percentile_list=99", NULL,
     {X("checked: every result holds 50..99.9999"), X("checked"),
      X("percentile_list=50:90:99:99.9:99.99:99.999:99.9999 always")}, NULL},
    {"group_reporting", "group_reporting=1", NULL, NONE(report_only), X("group_reporting=1")}, NULL},
    {"lat_percentiles", "lat_percentiles=1", NULL, NONE(report_only), X("lat_percentiles=1")}, NULL},
    {"clat_percentiles", "clat_percentiles=1", NULL, NONE(report_only), X(report_only)}, NULL},
    {"slat_percentiles", "slat_percentiles=1", NULL, NONE(report_only), X(report_only)}, NULL},
    {"thread", "thread=1", NULL, NONE("workers are threads"), X("thread=1 always")}, NULL},
    {"stonewall", "stonewall=1", NULL, NONE("one job: nothing to order"), X("one job")}, NULL},
    {"wait_for_previous", "wait_for_previous=1", NULL, NONE("one job"), X("one job")}, NULL},
    {"new_group", "new_group=1", NULL, NONE("one job"), X("one job")}, NULL},
    {"invalidate", "invalidate=0", NULL, NONE("direct I/O: no page cache to drop"),
     X("direct=1: no page cache")}, NULL},
    /* fio's I/O priorities (io/iogen.h iogen_prio draws, the native engines issue) */
    {"prio", "prio=3", "prio=3",
     {A("every I/O not raised at this level (sqe ioprio, IOCB_FLAG_IOPRIO), best effort "
        "unless prioclass"), D(sim_no_prio), A("prio=")}, NULL},
    {"prioclass", "prioclass=3", "prioclass=3",
     {A("every I/O not raised in this class, per I/O rather than fio's ioprio_set"),
      D(sim_no_prio), A("prioclass=")}, NULL},
    {"cmdprio", "cmdprio_percentage=10,cmdprio=3", "cmdprio=3,3",
     {A(prio_draw), D(sim_no_prio), A("cmdprio=R,W")}, NULL},
    {"cmdprio_class", "cmdprio_percentage=10,cmdprio_class=2", "cmdprio_class=2,2",
     {A(prio_draw), D(sim_no_prio), A("cmdprio_class=R,W")}, NULL},
    {"cmdprio_percentage", "cmdprio_percentage=10", "cmdprio_percentage=10,0",
     {A(prio_draw), D(sim_no_prio), A("cmdprio_percentage=R,W (a direction not issued: 0)")},
     NULL},
    {"cmdprio_bssplit", "bssplit=4096/50:65536/50,cmdprio_bssplit=4096/30",
     "cmdprio_bssplit=4096/30/1/0,4096/0",
     {A(prio_draw), D(sim_no_prio),
      A("cmdprio_bssplit= with each entry's class and level")}, NULL},
    {"fixedbufs", "fixedbufs=1", NULL,
     {X("io_uring registers its buffers always"), X("no buffers"),
      X("fixedbufs=1 with io_uring")}, NULL},
    {"registerfiles", "registerfiles=1", NULL,
     {X("io_uring registers its file always"), X("no file"),
      X("registerfiles=1 with io_uring")}, NULL},
    {"name", "name=x", NULL, {X("the results' name"), X("the results' name"), X("a comment")}, NULL},
    {"description", "description=x", NULL,
     {X("the results' description"), X("the results' description"), X("none")}, NULL},
    /* the profile matrix: ptsbench profile's, not one run's */
    {"sweep_qd", "sweep_qd=1:4", NULL,
     {C("profile: iodepth per point"), C("profile"), C("profile: iodepth= per point")}, NULL},
    {"sweep_workers", "sweep_workers=1:2", NULL,
     {C("profile: workers per point"), C("profile"), C("profile: numjobs= per point")}, NULL},
    {"sweep_compress", "sweep_compress=0:50", NULL,
     {C("profile: compressibility per point"), C("profile"), C("profile")}, NULL},
    {"precondition", "precondition=none", NULL,
     {C("profile: the drive's preparation"), C("profile"), C("profile")}, NULL},
};

const size_t engine_keys_n = sizeof engine_keys / sizeof engine_keys[0];

const struct engine_key *engine_key_find(const char *key)
{
    for (size_t i = 0; i < engine_keys_n; i++)
        if (!strcmp(engine_keys[i].key, key))
            return &engine_keys[i];
    return NULL;
}

enum engine_key_col engine_key_column(const struct engine_ops *ops)
{
    if (ops->flags & ENGINE_F_WHOLE_ROUND)
        return EK_FIO;
    return ops->flags & ENGINE_F_SIM_TARGET ? EK_SIM : EK_NATIVE;
}

int engine_keys_check(const struct engine_ops *ops, struct workload *wl, char *err,
                      size_t errlen)
{
    char why[400];
    if (wl->buffered && engine_key_column(ops) == EK_SIM) {
        wl->buffered = false;
        wl_note_add(wl, "direct=0 on a simulated drive: it has no page cache, run as direct=1");
    } else if (wl->buffered) {
        wl_note_add(wl, "buffered (direct=0): the page cache's figures, not the device's");
    }
    const bool prio = wl_prio_raises(wl) || wl_prio_default(wl);
    if (prio && engine_key_column(ops) == EK_SIM)
        wl_note_add(wl, "I/O priorities (prio, prioclass, cmdprio*): the simulated drive has no "
                        "priority model: every I/O served alike");
    else if (prio)
        wl_note_add(wl, "I/O priorities issued per I/O, as fio's io_uring and libaio engines: "
                        "what they change is the block layer's and the drive's");
    if (engine_key_column(ops) != EK_FIO)
        return 0;
    if (fio_job_check(wl, why, sizeof why) != 0)
        return errf(err, errlen, "--engine %s: %s", ops->name, why);
    if (wl->random_map == WL_RANDOM_MAP_ONCE && wl->random_pct > 0 && wl->n_bs == 1 &&
        !wl->n_zones && wl->dist == WL_DIST_UNIFORM)
        wl_note_add(wl, "random_map=once on fio: fio's random map starts a new pass each time "
                        "the range is covered (random_map=always)");
    if (wl->zone_size)
        wl_note_add(wl, "zonemode=strided on fio: fio's zones start again from the job's "
                        "offset past the device's end, not past the active range's");
    return 0;
}

const char *engine_key_how_name(enum engine_key_how how)
{
    static const char *const names[] = {
        [EK_APPLIED] = "applied", [EK_DIFFERS] = "differs (named)", [EK_REFUSED] = "refused",
        [EK_COMMAND] = "the command's", [EK_NO_EFFECT] = "no effect",
    };
    return how < sizeof names / sizeof names[0] ? names[how] : "?";
}
