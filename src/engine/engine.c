/* engine.c — helpers shared by the engines (clock, idle, buffers, waits, CPU, choices); the
 * registry that lists the engines is engine_registry.c, above them. */
#include "engine/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"

uint64_t engine_clock_monotonic(struct engine *e)
{
    (void)e;
    return now_mono_ns();
}

int engine_idle_sleep(struct engine *e, uint64_t ns)
{
    (void)e;
    struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
    while (nanosleep(&ts, &ts) != 0)
        if (errno != EINTR)
            return -errno;
    return 0;
}

/* The buffers of I/Os larger than a page come from 2 MiB pages (transparent huge pages, asked
 * for with madvise; where THP is off or the kernel finds no free 2 MiB page, the same memory
 * is in 4 KiB pages and nothing else changes).  A 128 KiB buffer in 4 KiB pages is 32 pieces
 * of memory wherever the allocator put them; the block layer carries each as a segment, a
 * virtio disk passes each to the host, and a request may hold at most max_segments of them
 * (254 on the virtio disk here), so eight 128 KiB reads submitted together seldom merge into
 * one 1 MiB request.  In one 2 MiB page a buffer is one contiguous piece.  Measured on an
 * O_DIRECT file on a virtio disk, 128 KiB sequential reads at QD 8 (interleaved series of 6):
 * 7K IOPS in 4 KiB pages, 15K in 2 MiB pages, at 0.6x the CPU per I/O; fio goes the same way
 * with its huge-page buffers (iomem=shmhuge).  4 KiB I/Os gain nothing (each is one page
 * either way), so their buffers are not rounded up to 2 MiB. */
#define BUF_HUGE ((size_t)2 << 20)

static bool buffers_huge(size_t stride) { return stride > 4096; }

static size_t buffers_map_len(size_t n, size_t stride)
{
    size_t total = n * stride;
    return buffers_huge(stride) ? (total + BUF_HUGE - 1) / BUF_HUGE * BUF_HUGE : total;
}

void *engine_alloc_buffers(size_t n, size_t len, size_t align, size_t *stride_out)
{
    if (align < 4096)
        align = 4096;
    size_t stride = (len + align - 1) / align * align;
    size_t total = buffers_map_len(n, stride);
    /* mmap gives page alignment and zeroed memory.  For 2 MiB pages, map 2 MiB more than
     * needed and keep the 2 MiB-aligned part (a huge page must be aligned). */
    bool huge = buffers_huge(stride);
    size_t extra = huge ? BUF_HUGE : 0;
    char *q = mmap(NULL, total + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED)
        return NULL;
    char *p = q;
    if (huge) {
        p = (char *)(((uintptr_t)q + BUF_HUGE - 1) & ~(uintptr_t)(BUF_HUGE - 1));
        if (p > q)
            munmap(q, (size_t)(p - q));
        munmap(p + total, (size_t)(q + extra - p));   /* p < q + extra: a tail is always left */
#ifdef MADV_HUGEPAGE
        (void)madvise(p, total, MADV_HUGEPAGE); /* advice: EINVAL where THP is not built in */
#endif
    }
    /* Fault the pages in now, in set-up, not in the first I/Os of the measured round. */
    for (size_t off = 0; off < total; off += 4096)
        ((volatile char *)p)[off] = 0;
    *stride_out = stride;
    return p;
}

void engine_free_buffers(void *base, size_t n, size_t stride)
{
    if (base)
        munmap(base, buffers_map_len(n, stride));
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Start a block of ENGINE_QD1_TRIAL or `period` waits in `phase` at CPU time now. */
static void qd1_start(struct engine_qd1 *q, unsigned phase, unsigned waits, uint64_t now)
{
    q->phase = phase;
    q->left = waits - 1;   /* this wait is the block's first */
    q->cpu0 = now;
}

bool engine_qd1_phase(struct engine_waits *w, uint64_t now)
{
    struct engine_qd1 *q = &w->qd1;
    switch (q->phase) {
    case 1:   /* the sleeping trial is over: spin the next ENGINE_QD1_TRIAL waits */
        q->cost_sleep = now - q->cpu0;
        qd1_start(q, 2, ENGINE_QD1_TRIAL, now);
        return true;
    case 2: {   /* both tried: run the cheaper way */
        const bool spin = now - q->cpu0 < q->cost_sleep;
        if (q->period && spin == q->spin)
            q->period = q->period * 2 > ENGINE_QD1_PERIOD_MAX ? ENGINE_QD1_PERIOD_MAX
                                                               : q->period * 2;
        else
            q->period = ENGINE_QD1_PERIOD_MIN;
        q->spin = spin;
        q->trials++;
        qd1_start(q, 0, q->period, now);
        return spin;
    }
    default:   /* the first wait, or the period is over: sleep the next ENGINE_QD1_TRIAL */
        qd1_start(q, 1, ENGINE_QD1_TRIAL, now);
        return false;
    }
}

uint64_t engine_process_cpu_ns(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
           ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
}

unsigned engine_spin(struct engine *e, struct engine_waits *w, engine_look_fn look, unsigned max,
                     struct io_unit **out, uint64_t t0, unsigned in_flight)
{
    const uint64_t limit = engine_spin_limit(w, in_flight);
    for (;;) {
        for (int k = 0; k < 16; k++) {
            unsigned n = look(e, max, out);
            if (n) {
                w->backoff = 0;
                return n;
            }
            cpu_relax();
        }
        if (now_mono_ns() - t0 >= limit) {
            if (in_flight > 1)
                return 0;
            w->backoff = engine_backoff_next(w->backoff, 8, ENGINE_SPIN_BACKOFF);
            w->skip = w->backoff;
            return 0;
        }
    }
}

unsigned engine_thread_cpus(void)
{
    cpu_set_t aff;
    if (sched_getaffinity(0, sizeof(aff), &aff) == 0 && CPU_COUNT(&aff) > 0)
        return (unsigned)CPU_COUNT(&aff);
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

bool engine_refuses_nowait(int fd)
{
    void *buf = aligned_alloc(4096, 4096);
    if (!buf)
        return false;
    struct iovec iov = {buf, 4096};
    const bool refused = preadv2(fd, &iov, 1, 0, RWF_NOWAIT) < 0 && errno == EOPNOTSUPP;
    free(buf);
    return refused;
}

/* The counters of struct engine_choices, for the difference and the sum. */
static const size_t choice_counters[] = {
    offsetof(struct engine_choices, marked),  offsetof(struct engine_choices, waits),
    offsetof(struct engine_choices, held),    offsetof(struct engine_choices, spun),
    offsetof(struct engine_choices, napped),  offsetof(struct engine_choices, yielded),
    offsetof(struct engine_choices, batched), offsetof(struct engine_choices, slept),
};
#define CHOICE(c, off) (*(uint64_t *)((char *)(c) + (off)))
#define CHOICE_C(c, off) (*(const uint64_t *)((const char *)(c) + (off)))

void engine_choices_since(struct engine_choices *d, const struct engine_choices *now,
                          const struct engine_choices *start)
{
    *d = *now;
    for (size_t i = 0; i < sizeof(choice_counters) / sizeof(choice_counters[0]); i++)
        CHOICE(d, choice_counters[i]) -= CHOICE_C(start, choice_counters[i]);
}

void engine_choices_add(struct engine_choices *sum, const struct engine_choices *one)
{
    if (!one->known)
        return;
    if (!sum->known) {
        *sum = *one;
        return;
    }
    sum->nowait = sum->nowait && one->nowait;
    for (size_t i = 0; i < sizeof(choice_counters) / sizeof(choice_counters[0]); i++)
        CHOICE(sum, choice_counters[i]) += CHOICE_C(one, choice_counters[i]);
}

void host_figures_free(struct host_figures *h, unsigned n)
{
    for (unsigned i = 0; h && i < n; i++)
        for (int d = 0; d < IO_NDIR; d++)
            free(h[i].lat[d]);
    free(h);
}

void host_figures_copy(struct host_figures *dst, const struct host_figures *src, unsigned n)
{
    memcpy(dst, src, n * sizeof(*dst));
    for (unsigned i = 0; i < n; i++)
        for (int d = 0; d < IO_NDIR; d++)
            if (src[i].lat[d]) {
                dst[i].lat[d] = xcalloc(1, sizeof(struct hist));
                memcpy(dst[i].lat[d], src[i].lat[d], sizeof(struct hist));
            }
}

/* ---- trims, synchronous as fio's (engine.h) ---------------------------------------- */

void engine_trims_init(struct engine_trims *t, int fd, unsigned depth)
{
    struct stat st;
    t->done = xcalloc(depth ? depth : 1, sizeof(*t->done));
    t->n = 0;
    t->blk = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
}

void engine_trims_run(struct engine_trims *t, int fd, struct io_unit *u)
{
    const uint64_t t0 = now_mono_ns();
    int rc;
    if (t->blk) {
        uint64_t range[2] = {u->offset, u->len};
        rc = ioctl(fd, BLKDISCARD, range);
    } else {
        rc = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)u->offset,
                       (off_t)u->len);
    }
    u->result = rc == 0 ? (int64_t)u->len : -(int64_t)errno;
    u->sync_ns = now_mono_ns() - t0;
    t->done[t->n++] = u;
}

unsigned engine_trims_take(struct engine_trims *t, unsigned max, struct io_unit **out)
{
    const unsigned n = t->n < max ? t->n : max;
    if (!n)
        return 0;
    const uint64_t now = now_mono_ns();
    for (unsigned i = 0; i < n; i++) {
        out[i] = t->done[i];
        out[i]->issue_ns = now - out[i]->sync_ns;   /* issue to the syscall's return */
    }
    memmove(t->done, t->done + n, (t->n - n) * sizeof(*t->done));
    t->n -= n;
    return n;
}

void engine_trims_free(struct engine_trims *t)
{
    free(t->done);
    t->done = NULL;
    t->n = 0;
}

static int trim_check_block(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;   /* opened later, which says why */
    char p[PATH_MAX];
    unsigned long long max = 0;
    const char *const fmt[] = {"/sys/dev/block/%u:%u/queue/discard_max_bytes",
                               "/sys/dev/block/%u:%u/../queue/discard_max_bytes"};   /* a partition */
    for (unsigned i = 0; i < 2; i++) {
        snprintf(p, sizeof p, fmt[i], major(st.st_rdev), minor(st.st_rdev));
        FILE *f = fopen(p, "r");
        if (!f)
            continue;
        const int got = fscanf(f, "%llu", &max);
        fclose(f);
        if (got == 1 && max == 0)
            return errf(err, errlen, "%s cannot discard (its queue's discard_max_bytes is 0): "
                        "rw=trim, randtrim and trimwrite need a device that takes trims", path);
        return 0;
    }
    return 0;
}

int engine_trim_check(const char *path, bool block, char *err, size_t errlen)
{
    if (block)
        return trim_check_block(path, err, errlen);
    char dir[PATH_MAX];
    str_copy(dir, sizeof dir, path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        str_copy(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);   /* nameless, gone at close */
    off_t at = 0;
    if (fd < 0) {
        struct stat st;
        fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0 || fstat(fd, &st) != 0) {
            if (fd >= 0)
                close(fd);
            return 0;   /* opened later, which says why */
        }
        at = (st.st_size + 4095) / 4096 * 4096 + 4096;   /* past its end: no data touched */
    }
    const int rc = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, at, 4096);
    const int e = errno;
    close(fd);
    if (rc != 0 && (e == EOPNOTSUPP || e == ENOSYS))
        return errf(err, errlen, "%s cannot discard (its file system punches no holes: %s): "
                    "rw=trim, randtrim and trimwrite need one that does", path, strerror(e));
    return 0;
}
