/* engine_registry.c — the engine registry: every engine's ops table, found by name. It sits
 * above the engines (each engine file calls helpers of engine.c, never this file). */
#include "engine/engine.h"

#include <string.h>

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
