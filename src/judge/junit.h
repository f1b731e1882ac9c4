/* junit.h — the gate's verdicts as JUnit XML, so that CI systems (Jenkins, GitLab, GitHub
 * actions that read JUnit) show one test per metric and point.
 *
 *   <testsuites name="ptsbench gate" tests= failures= errors="0" time="0">
 *     <testsuite name="ptsbench gate" tests= failures= errors="0" skipped= time="0" timestamp=>
 *       <properties> baseline, current, tolerance_pct, metrics, noise_rule </properties>
 *       <testcase classname="POINT KEY" name="METRIC" time="0">
 *         <failure message="..." type="regression|missing">the numbers</failure>  (fails)
 *         <skipped message="new: not in the baseline"/>                             (new)
 *         <system-out>the numbers; "WARNING: ..." for a change inside the noise band</system-out>
 *       </testcase> ...
 *
 * The subset of the Jenkins xUnit plugin's junit-10.xsd that this writes is described by
 * tests/fixtures/junit/junit.xsd.  Text and attribute values are escaped (& < > " '; in
 * attributes also tab, CR, LF as character references); characters XML 1.0 cannot carry
 * (control characters, invalid UTF-8) become '?'. */
#ifndef PTSBENCH_JUNIT_H
#define PTSBENCH_JUNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct gate_result;

/* Write s escaped for XML text (attr false) or a double-quoted attribute value (attr true). */
void junit_escape(FILE *f, const char *s, bool attr);

/* The whole document.  timestamp: ISO 8601, or NULL for now.  Returns 0, or -1 on a write
 * error (ferror). */
int junit_write(FILE *f, const struct gate_result *r, const char *timestamp);
/* The whole document (timestamp now) to path, atomically. 0, or -1 with err. */
int junit_write_file(const struct gate_result *r, const char *path, char *err, size_t errlen);

#endif
