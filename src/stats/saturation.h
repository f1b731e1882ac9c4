/* saturation.h — the saturation point of a queue-depth ramp (pure).
 *
 * Reviews read a ramp as "how much outstanding I/O does this drive need": StorageReview's
 * Z-Drive R4 conclusion is that it "had to be above an effective QD level of 32" to pass its
 * competitor. The saturation point is the lowest effective queue depth (workers x QD per
 * worker) whose IOPS reach `frac` (0.95) of the ramp's maximum IOPS; the latency there is
 * what an application pays to get that throughput. Points need not be sorted; when two
 * points share an effective queue depth (1 x QD4 and 4 x QD1), the one with more IOPS
 * stands for it. */
#ifndef PTSBENCH_SATURATION_H
#define PTSBENCH_SATURATION_H

#include <stdbool.h>
#include <stddef.h>

#define SATURATION_FRAC 0.95

struct saturation_point {
    double eqd;              /* effective queue depth: workers x QD */
    double iops;
    double lat_mean_us;
    double lat_p99_us;
};

struct saturation {
    bool found;              /* false: fewer than 2 points, or no IOPS at all */
    size_t index;            /* the saturation point, an index into the input */
    size_t max_index;        /* the point with the most IOPS */
    double max_iops;
    double threshold;        /* frac x max_iops */
    double eqd, iops, lat_mean_us, lat_p99_us;   /* copied from the saturation point */
};

/* Find the saturation point of n points at fraction frac of the maximum (0 < frac <= 1).
 * Returns 0 (out->found tells whether there is one), or -1 for bad arguments. */
int saturation_find(const struct saturation_point *pts, size_t n, double frac,
                    struct saturation *out);

#endif
