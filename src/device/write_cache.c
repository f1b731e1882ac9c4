/* write_cache.c — see write_cache.h. */
#include "device/write_cache.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/spawn.h"
#include "lib/util.h"

/* Split text (single spaces, no quoting needed: device paths and fixed words) into argv. */
static void plan_argv(struct wcache_plan *p)
{
    str_copy(p->store, sizeof(p->store), p->text);
    unsigned n = 0;
    char *save = NULL;
    for (char *t = strtok_r(p->store, " ", &save); t && n < 7; t = strtok_r(NULL, " ", &save))
        p->argv[n++] = t;
    p->argv[n] = NULL;
}

/* "nvme12" and nothing else */
static bool is_nvme_ctrl(const char *name)
{
    size_t d = strncmp(name, "nvme", 4) ? 0 : strspn(name + 4, "0123456789");
    return d > 0 && name[4 + d] == '\0';
}

/* The smallest nvmeXcYnZ entry of ROOT/sys/class/block/NAME/multipath, as "nvmeX". */
static bool multipath_first(const char *root, const char *name, char *out, size_t len)
{
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s/sys/class/block/%s/multipath", root, name);
    DIR *d = opendir(p);
    if (!d)
        return false;
    char best[64] = "";
    for (struct dirent *e; (e = readdir(d));) {
        unsigned x, y, z;
        if (sscanf(e->d_name, "nvme%uc%un%u", &x, &y, &z) == 3 &&
            (!best[0] || strcmp(e->d_name, best) < 0))
            str_copy(best, sizeof(best), e->d_name);
    }
    closedir(d);
    if (!best[0])
        return false;
    best[strcspn(best + 4, "c") + 4] = '\0';
    str_copy(out, len, best);
    return true;
}

void wcache_nvme_controller(const char *root, const char *devpath, char *out, size_t len)
{
    if (!root)
        root = "";
    const char *b = strrchr(devpath, '/');
    char name[64], ctrl[64], p[PATH_MAX], real[PATH_MAX];
    str_copy(name, sizeof(name), b ? b + 1 : devpath);
    char *n = strncmp(name, "nvme", 4) ? NULL : strchr(name + 4, 'n');
    char *part = n ? strchr(n, 'p') : NULL;
    if (part)
        *part = '\0';                           /* nvme0n1p2 -> nvme0n1 */
    snprintf(p, sizeof(p), "%s/sys/class/block/%s/device", root, name);
    const char *link = realpath(p, real) ? strrchr(real, '/') : NULL;
    if (multipath_first(root, name, ctrl, sizeof(ctrl))) {
        /* the head's own device is the subsystem */
    } else if (link && is_nvme_ctrl(link + 1)) {
        str_copy(ctrl, sizeof(ctrl), link + 1);
    } else {
        str_copy(ctrl, sizeof(ctrl), name);     /* nvme1n1, nvme1c2n1 -> nvme1 */
        if (!strncmp(ctrl, "nvme", 4))
            ctrl[4 + strspn(ctrl + 4, "0123456789")] = '\0';
    }
    snprintf(out, len, "/dev/%s", ctrl);
}

/* The NVMe command for the feature: set (value 0 or 1) or get (value -1). */
static void nvme_text(const struct purge_facts *f, int value, struct wcache_plan *out)
{
    char ctrl[128];
    wcache_nvme_controller("", f->devpath, ctrl, sizeof(ctrl));
    if (value < 0)
        snprintf(out->text, sizeof(out->text),
                 "nvme get-feature %s --namespace-id=0xffffffff --feature-id=6", ctrl);
    else
        snprintf(out->text, sizeof(out->text),
                 "nvme set-feature %s --namespace-id=0xffffffff --feature-id=6 --value=%d", ctrl,
                 value);
}

/* value: 0 or 1 to set, -1 to read */
static void plan_make(const struct purge_facts *f, int value, struct wcache_plan *out)
{
    memset(out, 0, sizeof(*out));
    switch (f->transport) {
    case PURGE_T_NVME:
        if (!f->have_nvme_cli) {
            snprintf(out->reason, sizeof(out->reason), "nvme-cli is not installed");
            return;
        }
        nvme_text(f, value, out);
        break;
    case PURGE_T_ATA:
        if (!f->have_hdparm) {
            snprintf(out->reason, sizeof(out->reason), "hdparm is not installed");
            return;
        }
        if (value < 0)
            snprintf(out->text, sizeof(out->text), "hdparm -W %s", f->devpath);
        else
            snprintf(out->text, sizeof(out->text), "hdparm -W%d %s", value, f->devpath);
        break;
    case PURGE_T_SCSI:
        snprintf(out->reason, sizeof(out->reason), "SCSI write cache (WCE mode page) is not "
                                                   "changed by ptsbench (use sdparm)");
        return;
    case PURGE_T_SIM:
        snprintf(out->reason, sizeof(out->reason), "simulated drive: its buffer is power-loss "
                                                   "protected, as the preset describes");
        return;
    case PURGE_T_FILE:
        snprintf(out->reason, sizeof(out->reason), "file target: no device write cache to set");
        return;
    default:
        snprintf(out->reason, sizeof(out->reason), "%s has no write-cache control ptsbench "
                 "knows", f->devpath[0] ? f->devpath : "the device");
        return;
    }
    out->supported = true;
    plan_argv(out);
}

void wcache_plan_make(const struct purge_facts *f, bool enable, struct wcache_plan *out)
{
    plan_make(f, enable ? 1 : 0, out);
}

void wcache_query_plan(const struct purge_facts *f, struct wcache_plan *out)
{
    plan_make(f, -1, out);
}

/* Run the plan: 0 with its result in r (free it), or -1 with the tool's first error line. */
static int run_plan(const struct wcache_plan *p, struct spawn_result *r, char *err,
                    size_t errlen)
{
    if (!p->supported)
        return errf(err, errlen, "write cache: %s", p->reason);
    if (spawn_run(p->argv, r) != 0)
        return errf(err, errlen, "write cache: cannot run %s", p->argv[0]);
    if (r->status == 0)
        return 0;
    /* nvme-cli 2.3 says a controller's refusal on stderr, sometimes exiting 0: callers read
     * the answer, not only the status */
    const char *msg = r->err && r->err[0] ? r->err : r->out;
    char line[200];
    str_copy(line, sizeof(line), msg ? msg : "");
    line[strcspn(line, "\n")] = '\0';
    errf(err, errlen, "write cache: '%s' failed (exit %d): %s", p->text, r->status, line);
    spawn_result_free(r);
    return -1;
}

int wcache_apply(const struct wcache_plan *p, char *err, size_t errlen)
{
    struct spawn_result r;
    if (run_plan(p, &r, err, errlen) != 0)
        return -1;
    int rc = 0;
    if (r.err && strstr(r.err, "NVMe status")) {   /* refused, exit status 0 */
        char line[200];
        str_copy(line, sizeof(line), r.err);
        line[strcspn(line, "\n")] = '\0';
        rc = errf(err, errlen, "write cache: '%s' failed: %s", p->text, line);
    }
    spawn_result_free(&r);
    return rc;
}

int wcache_query(const struct purge_facts *f, bool *on, char *err, size_t errlen)
{
    struct wcache_plan p;
    wcache_query_plan(f, &p);
    struct spawn_result r;
    if (run_plan(&p, &r, err, errlen) != 0)
        return -1;
    int rc = f->transport == PURGE_T_NVME ? wcache_parse_nvme_get_feature(r.out, on)
                                          : wcache_parse_hdparm(r.out, on);
    if (rc != 0) {
        char line[200];
        str_copy(line, sizeof(line), r.err && r.err[0] ? r.err : r.out ? r.out : "");
        line[strcspn(line, "\n")] = '\0';
        errf(err, errlen, "write cache: '%s' answered '%s'", p.text, line);
    }
    spawn_result_free(&r);
    return rc;
}

int wcache_parse_nvme_get_feature(const char *text, bool *on)
{
    const char *v = text ? strstr(text, "Current value:") : NULL;
    if (!v)
        return -1;
    char *end;
    unsigned long x = strtoul(v + strlen("Current value:"), &end, 16);   /* "0x..." or not */
    if (end == v + strlen("Current value:"))
        return -1;
    *on = (x & 1) != 0;                       /* bit 0: Volatile Write Cache Enable (WCE) */
    return 0;
}

int wcache_parse_hdparm(const char *text, bool *on)
{
    const char *v = text ? strstr(text, "write-caching =") : NULL;   /* not "... to 0 (off)" */
    int x;
    if (!v || sscanf(v, "write-caching = %d", &x) != 1 || (x != 0 && x != 1))
        return -1;
    *on = x == 1;
    return 0;
}
