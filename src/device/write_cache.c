/* write_cache.c — see write_cache.h. */
#include "device/write_cache.h"

#include <stdio.h>
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

void wcache_plan_make(const struct purge_facts *f, bool enable, struct wcache_plan *out)
{
    memset(out, 0, sizeof(*out));
    switch (f->transport) {
    case PURGE_T_NVME:
        if (!f->have_nvme_cli) {
            snprintf(out->reason, sizeof(out->reason), "nvme-cli is not installed");
            return;
        }
        snprintf(out->text, sizeof(out->text), "nvme set-feature %s --feature-id=6 --value=%d",
                 f->devpath, enable ? 1 : 0);
        break;
    case PURGE_T_ATA:
        if (!f->have_hdparm) {
            snprintf(out->reason, sizeof(out->reason), "hdparm is not installed");
            return;
        }
        snprintf(out->text, sizeof(out->text), "hdparm -W%d %s", enable ? 1 : 0, f->devpath);
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

int wcache_apply(const struct wcache_plan *p, char *err, size_t errlen)
{
    if (!p->supported)
        return errf(err, errlen, "write cache: %s", p->reason);
    struct spawn_result r;
    if (spawn_run(p->argv, &r) != 0)
        return errf(err, errlen, "write cache: cannot run %s", p->argv[0]);
    int st = r.status;
    if (st != 0) {
        const char *msg = r.err && r.err[0] ? r.err : r.out;
        char line[200];
        str_copy(line, sizeof(line), msg ? msg : "");
        line[strcspn(line, "\n")] = '\0';
        errf(err, errlen, "write cache: '%s' failed (exit %d): %s", p->text, st, line);
    }
    spawn_result_free(&r);
    return st == 0 ? 0 : -1;
}
