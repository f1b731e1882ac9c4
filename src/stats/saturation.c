/* saturation.c — see saturation.h. */
#include "stats/saturation.h"

#include <math.h>
#include <string.h>

int saturation_find(const struct saturation_point *pts, size_t n, double frac,
                    struct saturation *out)
{
    memset(out, 0, sizeof(*out));
    if ((n && !pts) || !(frac > 0.0) || frac > 1.0)
        return -1;
    if (n < 2)
        return 0;
    size_t imax = 0;
    for (size_t i = 1; i < n; i++)
        if (pts[i].iops > pts[imax].iops)
            imax = i;
    if (!(pts[imax].iops > 0.0) || !isfinite(pts[imax].iops))
        return 0;
    out->max_index = imax;
    out->max_iops = pts[imax].iops;
    out->threshold = frac * pts[imax].iops;
    size_t best = imax;
    for (size_t i = 0; i < n; i++) {
        if (!(pts[i].iops >= out->threshold))
            continue;
        if (pts[i].eqd < pts[best].eqd ||
            (pts[i].eqd == pts[best].eqd && pts[i].iops > pts[best].iops))
            best = i;
    }
    out->found = true;
    out->index = best;
    out->eqd = pts[best].eqd;
    out->iops = pts[best].iops;
    out->lat_mean_us = pts[best].lat_mean_us;
    out->lat_p99_us = pts[best].lat_p99_us;
    return 0;
}
