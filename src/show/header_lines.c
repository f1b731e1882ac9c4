/* header_lines.c — the lines every view's header shares (see header_lines.h). */
#include "show/header_lines.h"

#include <json-c/json.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/cpuset.h"
#include "lib/json_path.h"

void show_memory_label(struct json_object *doc, char *buf, size_t len)
{
    buf[0] = '\0';
    const char *fs = jp_str(doc, "target.filesystem");
    if (jp_true(jp_at(doc, "target.memory")))
        snprintf(buf, len, " -- on %s: memory, not a drive",
                 fs && *fs ? fs : "a memory filesystem");
}

/* printf at the end of the text in buf (truncated, never overrun). */
static void appendf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void appendf(char *buf, size_t len, const char *fmt, ...)
{
    size_t k = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + k, len - k, fmt, ap);
    va_end(ap);
}

bool show_placement_line(struct json_object *doc, char *buf, size_t len)
{
    buf[0] = '\0';
    struct json_object *pl = jp_obj_at(doc, "placement");
    if (!pl)
        return false;
    const double node = jp_path(pl, "device_node");
    if (isfinite(node))
        appendf(buf, len, "device node %.0f; ", node);
    else
        appendf(buf, len, "device node unknown; ");
    const char *mode = jp_str(pl, "mode"), *cpus = jp_str(pl, "cpus");
    const char *reason = jp_str(pl, "reason");
    if (jp_true(jp_at(pl, "pinned")) && cpus) {
        const double pn = jp_path(pl, "node");
        appendf(buf, len, "workers pinned to CPUs %s", cpus);
        if (isfinite(pn))
            appendf(buf, len, " (node %.0f%s)", pn, mode && !strcmp(mode, "node") ? ", --numa" : "");
        else if (mode && !strcmp(mode, "cpus"))
            appendf(buf, len, " (--cpus)");
    } else {
        appendf(buf, len, "not pinned: %s", reason ? reason : "reason not recorded");
    }
    /* the union of the CPUs every worker ran on */
    cpu_set_t ran;
    CPU_ZERO(&ran);
    struct json_object *ws = jp_arr_at(pl, "workers");
    for (size_t i = 0; i < jp_len(ws); i++) {
        cpu_set_t one;
        char why[128];
        const char *r = jp_str(json_object_array_get_idx(ws, i), "ran_on");
        if (r && cpuset_parse(r, &one, why, sizeof(why)) == 0)
            CPU_OR(&ran, &ran, &one);
    }
    if (cpuset_count(&ran)) {
        char list[256];
        cpuset_format(&ran, list, sizeof(list));
        const char *threads = jp_str(pl, "threads");
        appendf(buf, len, "; ran on %s%s", list,
            threads && !strcmp(threads, "calling") ? " (every worker in one thread)"
            : threads && !strcmp(threads, "child") ? " (fio's processes inherit the mask)"
                                                    : "");
    }
    return true;
}
