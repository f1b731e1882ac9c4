/* units.h — parsing and formatting of sizes, durations and percentages.
 *
 * Sizes follow fio where fio is unambiguous and SI where the user spells SI:
 *   512, 4k, 4K, 4KiB, 1m, 1M, 1MiB, 2g, 1t      binary (powers of 1024), as fio
 *   4kB, 4KB, 1MB, 1GB, 1TB                      decimal (powers of 1000), as SI
 * A bare number is bytes. No fractions ("1.5k" is accepted only when it is a
 * whole number of bytes: 1.5k = 1536). Pure functions, no I/O. */
#ifndef PTSBENCH_UNITS_H
#define PTSBENCH_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Returns 0 and sets *out, or -1 with err naming the bad text. */
int units_parse_size(const char *text, uint64_t *out, char *err, size_t errlen);
/* A size by fio's rules (fio(1), "int" parameters and kb_base): a number (0x hex too) and an
 * optional case-insensitive suffix PREFIX[i][b] with PREFIX one of k m g t p e. kb_base 1024
 * (fio's default, "compatibility mode"): 4k = 4KB = 4kb = 4096, and the i form is decimal
 * (1mi = 1000000); kb_base 1000: 4k = 4KB = 4000, 4ki = 4KiB = 4096. 'b' alone is bytes. */
int units_parse_size_fio(const char *text, unsigned kb_base, uint64_t *out, char *err,
                         size_t errlen);

/* Durations: "60", "60s", "500ms", "5m", "1h", "1h30m", "2d". Result in ns. */
int units_parse_duration(const char *text, uint64_t *out_ns, char *err, size_t errlen);

/* Percent 0..100: "75", "75%", "12.5%". */
int units_parse_percent(const char *text, double *out, char *err, size_t errlen);

/* Unsigned integer in [min,max] with optional k/m binary suffix for counts ("1k"=1024 is NOT
 * used for counts: plain decimal digits only). */
int units_parse_uint(const char *text, uint64_t min, uint64_t max, uint64_t *out,
                     char *err, size_t errlen);

/* A plain decimal number ("1", "0.5", "2.75") in [min,max]: no suffix, no exponent. */
int units_parse_double(const char *text, double min, double max, double *out, char *err,
                       size_t errlen);

/* Format bytes as the shortest exact binary form: 4096 -> "4KiB", 1536 -> "1536B"
 * (3/2 KiB not exact in one unit -> bytes), 1048576 -> "1MiB", 512 -> "512B". */
void units_format_size(uint64_t bytes, char *buf, size_t len);

/* A latency in microseconds for people: "87.3 us", "1.25 ms", "35.2 ms" (one decimal from
 * 10 ms); "-" when not finite. UNITS_TYPESET writes "µs" and "–" (reports), UNITS_TEXT "us" and
 * "-" (terminals, logs). */
enum units_style { UNITS_TEXT, UNITS_TYPESET };
void units_format_lat(double us, enum units_style style, char *buf, size_t len);
/* A latency percentile for people, the one wording of "the count does not support it" (writers
 * leave such a percentile out by the tail rule, stats/hist.h hist_pct_supported: NAN in
 * structs, JSON null beside the direction's count; docs/latency-distributions.md):
 *   units_format_pct       a finite us as units_format_lat; NAN with observations > 0 (the
 *                          direction's count: latencies measured one by one) "n/a (999,999
 *                          I/Os)", the short form for tables; NAN with 0 (no I/O, or a reader
 *                          that does not know the count) "-"
 *   units_format_pct_long  "not enough I/Os for this percentile (999,999)", for sentences
 * Results files are read through read/words.h words_pct_lat, which tells null from absent.
 * Both return buf. */
const char *units_format_pct(double us, uint64_t observations, enum units_style style,
                             char *buf, size_t len);
const char *units_format_pct_long(uint64_t observations, char *buf, size_t len);

/* A block size as the PTS writes it, for tables, charts and messages: "0.5 KiB", "4 KiB",
 * "1.5 KiB", "1024 KiB" (KiB up to 1 MiB, as the PTS's block-size loops), "2 MiB", "8 MiB";
 * "100 B" below 512; "mixed sizes" for 0, a negative or a non-finite value (a bssplit). */
void units_format_bs(double bytes, char *buf, size_t len);

/* A capacity for people: decimal as drives are sold, binary beside it: "1.60 TB (1.46 TiB)",
 * "536.9 MB (512 MiB)". */
void units_format_capacity(uint64_t bytes, char *buf, size_t len);
/* A count with thousands separators, rounded: 1234567.8 -> "1,234,568"; "-" when not finite. */
void units_format_count(double v, char *buf, size_t len);

/* One figure for people, in every text and table output (show, run, suite, profile, report,
 * verify, gate, db, crosscheck, replay, trace); machine outputs (JSON, CSV, .dat, INI) keep
 * full precision. NaN or infinite -> "—".
 *   UNITS_FIG_IOPS   a whole number with thousands separators: 110639.4 -> "110,639"
 *   UNITS_FIG_MBS    MB/s (and any rate or plain value, UNITS_FIG_VALUE): 3 significant
 *                    digits at least, no decimals from 100 up, thousands separators:
 *                    3197.7 -> "3,198", 384.2 -> "384", 38.42 -> "38.4", 3.842 -> "3.84",
 *                    0.3842 -> "0.384" (at most 6 decimals); rounding decides the band:
 *                    99.96 -> "100", 999.95 -> "1,000"
 *   UNITS_FIG_LAT    a latency in us, as units_format_lat (UNITS_TEXT): "87.3 us", "1.25 ms"
 *   UNITS_FIG_PCT    a percentage, one decimal: 12.46 -> "12.5%", 100 -> "100.0%"
 *   UNITS_FIG_WAF    write amplification, two decimals: 2.345 -> "2.35"
 *   UNITS_FIG_COUNT  a count (I/Os, reads, rounds), as UNITS_FIG_IOPS: 39523 -> "39,523"
 *   UNITS_FIG_RATIO  a ratio of two figures (measured / claimed, fio / native), three
 *                    decimals: 0.95312 -> "0.953", 1.01 -> "1.010"
 *   UNITS_FIG_BYTES  bytes in decimal units, the unit chosen by magnitude as for latency (B,
 *                    kB, MB, GB, TB, PB: the largest that leaves at least 1), the number as
 *                    UNITS_FIG_MBS: 6433e9 -> "6.43 TB", 1.3e9 -> "1.30 GB", 81e6 -> "81.0 MB",
 *                    999.96e9 -> "1.00 TB" (rounding decides the unit), 512 -> "512 B"
 * Negative values keep their sign ("-1,234"); a value that rounds to zero prints "0". */
enum units_figure { UNITS_FIG_IOPS, UNITS_FIG_MBS, UNITS_FIG_VALUE, UNITS_FIG_LAT, UNITS_FIG_PCT,
                    UNITS_FIG_WAF, UNITS_FIG_COUNT, UNITS_FIG_RATIO, UNITS_FIG_BYTES };
void units_format_figure(double v, enum units_figure kind, char *buf, size_t len);

/* A number short, as charts and annotations write it: `sig` significant digits (1..15,
 * trailing zeros dropped) and an SI suffix k, M, G, T, P from 1000 up: 400000 -> "400k",
 * 1234567 -> "1.23M" (3 digits), 38420 -> "38.4k", 28099.1 -> "28k" (2 digits), 604.16 ->
 * "604", 0.5 -> "0.5"; "-" when not finite. units_format_short is 3 digits. */
void units_format_short_sig(double v, int sig, char *buf, size_t len);
void units_format_short(double v, char *buf, size_t len);

/* Conversions used by results and reports. */
static inline double units_mb(double bytes) { return bytes / 1e6; }          /* MB, decimal */
static inline double units_mib(double bytes) { return bytes / 1048576.0; }   /* MiB, binary */

#endif
