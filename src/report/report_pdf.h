/* report_pdf.h — report.html printed to a PDF by a headless Chromium (or Chrome).
 *
 * The renderer is looked up in PATH (chromium, chromium-browser, google-chrome,
 * google-chrome-stable), run through lib/spawn.h with an argument vector, a time limit and its
 * own throw-away profile directory, and its output captured (shown only when it fails). The
 * PDF is written beside the HTML under a temporary name and renamed into place once it starts
 * with "%PDF-": a failed print leaves no PDF (an older one at pdf_path is removed, so that it
 * cannot pass for this report's). The print style (page header and footer, a page
 * per level-2 section, charts kept whole) is the report's own CSS (@media print). */
#ifndef PTSBENCH_REPORT_PDF_H
#define PTSBENCH_REPORT_PDF_H

#include <stddef.h>

#define REPORT_PDF_TIMEOUT_S 120

enum report_pdf_status {
    REPORT_PDF_OK = 0,
    REPORT_PDF_NO_RENDERER = 1,   /* none of the programs is in PATH */
    REPORT_PDF_FAILED = 2,        /* it ran and failed, timed out or wrote no PDF */
};

/* Print html_path to pdf_path. Returns a report_pdf_status; err receives one line unless OK
 * (for NO_RENDERER: the programs looked for). renderer (may be NULL) receives the program
 * used. */
int report_pdf(const char *html_path, const char *pdf_path, unsigned timeout_s, char *renderer,
               size_t renderer_len, char *err, size_t errlen);

#endif
