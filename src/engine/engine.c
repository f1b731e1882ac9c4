/* engine.c — the engine registry and helpers shared by the native engines. */
#include "engine/engine.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "lib/util.h"

extern const struct engine_ops engine_io_uring;
extern const struct engine_ops engine_libaio;
extern const struct engine_ops engine_sim;
extern const struct engine_ops engine_fio;
extern const struct engine_ops engine_fio_libaio;

static const struct engine_ops *const engines[] = {
    &engine_io_uring,
    &engine_libaio,
    &engine_sim,
    &engine_fio,
    &engine_fio_libaio,
    NULL,
};

const struct engine_ops *engine_find(const char *name)
{
    for (size_t i = 0; engines[i]; i++)
        if (strcmp(engines[i]->name, name) == 0)
            return engines[i];
    return NULL;
}

const struct engine_ops *const *engine_list(void) { return engines; }

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

void *engine_alloc_buffers(size_t n, size_t len, size_t align, size_t *stride_out)
{
    if (align < 4096)
        align = 4096;
    size_t stride = (len + align - 1) / align * align;
    size_t total = stride * n;
    /* mmap gives page alignment and zeroed, untouched-until-used memory. */
    void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    *stride_out = stride;
    return p;
}

void engine_free_buffers(void *base, size_t n, size_t stride)
{
    if (base)
        munmap(base, n * stride);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

unsigned engine_spin(struct engine *e, struct engine_waits *w, engine_look_fn look, unsigned max,
                     struct io_unit **out, uint64_t t0, unsigned in_flight)
{
    for (;;) {
        for (int k = 0; k < 16; k++) {
            unsigned n = look(e, max, out);
            if (n) {
                w->backoff = 0;
                return n;
            }
            cpu_relax();
        }
        if (now_mono_ns() - t0 >= ENGINE_SPIN_NS) {
            if (in_flight > 1)
                return 0;
            w->backoff = w->backoff ? w->backoff * 2 : 8;
            if (w->backoff > ENGINE_SPIN_BACKOFF)
                w->backoff = ENGINE_SPIN_BACKOFF;
            w->skip = w->backoff;
            return 0;
        }
    }
}
