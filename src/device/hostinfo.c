/* hostinfo.c — host description for the results: kernel, CPU, memory, library versions. */
#include "device/hostinfo.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/spawn.h"
#include "lib/util.h"

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Model", 5) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                colon++;
                while (*colon == ' ' || *colon == '\t')
                    colon++;
                colon[strcspn(colon, "\n")] = '\0';
                snprintf(buf, len, "%s", colon);
                break;
            }
        }
    }
    fclose(f);
}

void hostinfo_dpkg_version(const char *package, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen("/var/lib/dpkg/status", "r");
    if (!f)
        return;
    char line[1024];
    int in_pkg = 0, installed = 0;
    char version[128] = "";
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '\0') {
            if (in_pkg && installed && version[0]) {
                snprintf(buf, len, "%s", version);
                break;
            }
            in_pkg = installed = 0;
            version[0] = '\0';
            continue;
        }
        if (strncmp(line, "Package: ", 9) == 0) {
            const char *name = line + 9;
            size_t n = strlen(package);
            in_pkg = strncmp(name, package, n) == 0 && (name[n] == '\0' || name[n] == ':');
        } else if (in_pkg && strncmp(line, "Status: ", 8) == 0) {
            installed = strstr(line, "install ok installed") != NULL;
        } else if (in_pkg && strncmp(line, "Version: ", 9) == 0) {
            snprintf(version, sizeof(version), "%s", line + 9);
        }
    }
    if (!buf[0] && in_pkg && installed && version[0])
        snprintf(buf, len, "%s", version);
    fclose(f);
}

static void fio_version(char *buf, size_t len)
{
    char *argv[] = {"fio", "--version", NULL};
    char out[128];
    buf[0] = '\0';
    if (spawn_capture(argv, out, sizeof(out), NULL, 0) == 0) {
        out[strcspn(out, "\n")] = '\0';
        snprintf(buf, len, "%s", out);
    }
}

void hostinfo_dmi_at(const char *root, struct hostinfo *h)
{
    const struct {
        const char *file;
        char *buf;
        size_t len;
    } keys[] = {
        {"sys_vendor", h->sys_vendor, sizeof(h->sys_vendor)},
        {"product_name", h->product_name, sizeof(h->product_name)},
        {"board_vendor", h->board_vendor, sizeof(h->board_vendor)},
        {"board_name", h->board_name, sizeof(h->board_name)},
        {"bios_vendor", h->bios_vendor, sizeof(h->bios_vendor)},
        {"bios_version", h->bios_version, sizeof(h->bios_version)},
    };
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        char path[4096], tmp[256];
        keys[i].buf[0] = '\0';
        snprintf(path, sizeof(path), "%s/sys/class/dmi/id/%s", root, keys[i].file);
        if (read_text_file(path, tmp, sizeof(tmp)) >= 0)
            snprintf(keys[i].buf, keys[i].len, "%s", str_trim(tmp));
    }
}

void hostinfo_collect(struct hostinfo *h, bool with_fio)
{
    memset(h, 0, sizeof(*h));
    gethostname(h->hostname, sizeof(h->hostname) - 1);
    struct utsname u;
    if (uname(&u) == 0) {
        snprintf(h->kernel, sizeof(h->kernel), "%s %s %s %s", u.sysname, u.release, u.version,
                 u.machine);
        snprintf(h->kernel_release, sizeof(h->kernel_release), "%s", u.release);
    }
    cpu_model(h->cpu_model, sizeof(h->cpu_model));
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    h->cpus_online = n > 0 ? (unsigned)n : 0;
    struct sysinfo si;
    if (sysinfo(&si) == 0)
        h->memory_bytes = (uint64_t)si.totalram * si.mem_unit;
    hostinfo_dpkg_version("liburing2", h->liburing, sizeof(h->liburing));
#ifdef PTSBENCH_LIBURING_VERSION
    snprintf(h->liburing_built, sizeof(h->liburing_built), "%s", PTSBENCH_LIBURING_VERSION);
#endif
    hostinfo_dpkg_version("libaio1t64", h->libaio, sizeof(h->libaio));
    if (!h->libaio[0])
        hostinfo_dpkg_version("libaio1", h->libaio, sizeof(h->libaio));
    if (with_fio)
        fio_version(h->fio, sizeof(h->fio));
    snprintf(h->json_c, sizeof(h->json_c), "%s", json_c_version());
    hostinfo_dmi_at("", h);
}

void hostinfo_boot_id(char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (!f)
        return;
    if (fgets(buf, (int)len, f))
        buf[strcspn(buf, "\n")] = '\0';
    fclose(f);
}
