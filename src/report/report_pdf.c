/* report_pdf.c — report.html to report.pdf with a headless Chromium (report_pdf.h). */
#include "report/report_pdf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/file.h"
#include "lib/spawn.h"
#include "lib/util.h"

static const char *const renderers[] = {"chromium", "chromium-browser", "google-chrome",
                                        "google-chrome-stable", NULL};

/* The first renderer that is an executable file in PATH, as execvp would find it. */
static bool find_renderer(char *path, size_t len)
{
    const char *env = getenv("PATH");
    if (!env || !*env)
        return false;
    for (const char *const *r = renderers; *r; r++) {
        const char *p = env;
        while (*p) {
            const char *colon = strchr(p, ':');
            size_t dl = colon ? (size_t)(colon - p) : strlen(p);
            if (dl) {
                int w = snprintf(path, len, "%.*s/%s", (int)dl, p, *r);
                if (w > 0 && (size_t)w < len && access(path, X_OK) == 0)
                    return true;
            }
            p += dl;
            if (*p == ':')
                p++;
        }
    }
    return false;
}

/* file:// URL of an absolute path, every byte outside [A-Za-z0-9/._~-] percent-encoded. */
static void file_url(const char *abs, char *url, size_t len)
{
    size_t o = (size_t)snprintf(url, len, "file://");
    for (const unsigned char *s = (const unsigned char *)abs; *s && o + 4 < len; s++) {
        bool plain = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                     (*s >= '0' && *s <= '9') || strchr("/._~-", *s);
        if (plain)
            url[o++] = (char)*s;
        else
            o += (size_t)snprintf(url + o, len - o, "%%%02X", *s);
    }
    url[o < len ? o : len - 1] = '\0';
}

static bool starts_pdf(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char head[5] = {0};
    bool ok = fread(head, 1, 5, f) == 5 && !memcmp(head, "%PDF-", 5);
    fclose(f);
    return ok;
}

int report_pdf(const char *html_path, const char *pdf_path, unsigned timeout_s, char *renderer,
               size_t renderer_len, char *err, size_t errlen)
{
    char exe[4096];
    if (!find_renderer(exe, sizeof(exe))) {
        errf(err, errlen, "none of chromium, chromium-browser, google-chrome, "
             "google-chrome-stable is in PATH");
        unlink(pdf_path);   /* an older report's PDF would pass for this one */
        return REPORT_PDF_NO_RENDERER;
    }
    if (renderer)
        str_copy(renderer, renderer_len, exe);
    char *abs = realpath(html_path, NULL);
    if (!abs) {
        errf(err, errlen, "%s: %s", html_path, strerror(errno));
        unlink(pdf_path);
        return REPORT_PDF_FAILED;
    }
    char url[3 * 4096 + 16];
    file_url(abs, url, sizeof(url));
    free(abs);

    /* a profile of its own: no lock shared with a browser in use or another print */
    const char *tmp = getenv("TMPDIR");
    char prof[4200];
    snprintf(prof, sizeof(prof), "%s/ptsbench-pdf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(prof)) {
        errf(err, errlen, "cannot make a profile directory for %s: %s", exe, strerror(errno));
        unlink(pdf_path);
        return REPORT_PDF_FAILED;
    }
    char tmp_pdf[4200], a_prof[4300], a_out[4300];
    snprintf(tmp_pdf, sizeof(tmp_pdf), "%s.tmp", pdf_path);
    snprintf(a_prof, sizeof(a_prof), "--user-data-dir=%s", prof);
    snprintf(a_out, sizeof(a_out), "--print-to-pdf=%s", tmp_pdf);
    char *argv[] = {exe, "--headless", "--disable-gpu", "--no-sandbox", "--no-pdf-header-footer",
                    "--no-first-run", "--disable-extensions", a_prof, a_out, url, NULL};
    unlink(tmp_pdf);
    struct spawn_result r;
    int rc = spawn_run_timeout(argv, SPAWN_STOPPABLE, timeout_s * 1000u, &r);
    int saved = errno;
    file_remove_tree(prof);
    if (rc != 0) {
        errf(err, errlen, "cannot start %s: %s", exe, strerror(saved));
        unlink(pdf_path);
        return REPORT_PDF_FAILED;
    }
    int status = REPORT_PDF_OK;
    if (r.timed_out) {
        errf(err, errlen, "%s did not finish within %u s", exe, timeout_s);
        status = REPORT_PDF_FAILED;
    } else if (r.stopped) {
        errf(err, errlen, "%s was stopped", exe);
        status = REPORT_PDF_FAILED;
    } else if (r.status != 0 || !starts_pdf(tmp_pdf)) {
        char line[512];
        str_last_line(r.err, line, sizeof(line));
        errf(err, errlen, "%s exited with status %d and %s%s%s", exe, r.status,
             starts_pdf(tmp_pdf) ? "a PDF" : "no PDF", line[0] ? ": " : "", line);
        status = REPORT_PDF_FAILED;
    } else if (rename(tmp_pdf, pdf_path) != 0) {
        errf(err, errlen, "%s: %s", pdf_path, strerror(errno));
        status = REPORT_PDF_FAILED;
    }
    if (status != REPORT_PDF_OK) {
        unlink(tmp_pdf);
        unlink(pdf_path);
    }
    spawn_result_free(&r);
    return status;
}
