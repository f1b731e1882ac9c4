/* safety_images.h — what the safety tests put into their own image files: signatures written
 * by hand (a dos partition table; an LVM2 physical-volume label, for machines without
 * pvcreate), data of a known pattern, and a checksum to prove that a refused command left the
 * bytes alone.  Header-only (static), so the unit and integration tests share it without a
 * Makefile rule of its own.
 *
 * Sources: the MBR layout is the classic one (446: four 16-byte entries, 510: 0x55 0xAA; the
 * disk signature at 440).  The LVM2 label is lib/label/label.h of LVM2 (struct label_header:
 * "LABELONE", sector_xl, crc_xl, offset_xl, type "LVM2 001", then struct pv_header with the
 * 32-character PV UUID and the device size), written at sector 1; crc_xl is LVM2's calc_crc()
 * (CRC-32, reflected polynomial 0xEDB88320, initial value 0xf597a6cf, no final xor) over the
 * label from offset_xl to the end of the 512-byte sector.  libblkid (superblocks/lvm2.c)
 * checks all of that. */
#ifndef PTSBENCH_TEST_SAFETY_IMAGES_H
#define PTSBENCH_TEST_SAFETY_IMAGES_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* pwrite all of buf at off into path (which must exist). */
static inline bool img_pwrite(const char *path, const void *buf, size_t len, off_t off)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool ok = pwrite(fd, buf, len, off) == (ssize_t)len && fsync(fd) == 0;
    return close(fd) == 0 && ok;
}

/* A dos (MBR) partition table with one Linux partition (type 0x83) at 1 MiB, 4 MiB long. */
static inline bool img_write_dos(const char *path)
{
    uint8_t s[512];
    memset(s, 0, sizeof(s));
    const uint32_t disk_id = 0x5054c0deu, start = 2048, count = 8192;
    memcpy(s + 440, &disk_id, 4);
    uint8_t *e = s + 446;
    e[1] = 0x20; e[2] = 0x21; e[3] = 0x00;        /* CHS of the first sector (unused) */
    e[4] = 0x83;
    e[5] = 0xfe; e[6] = 0xff; e[7] = 0xff;
    memcpy(e + 8, &start, 4);
    memcpy(e + 12, &count, 4);
    s[510] = 0x55;
    s[511] = 0xaa;
    return img_pwrite(path, s, sizeof(s), 0);
}

static inline uint32_t img_lvm_crc(const uint8_t *d, size_t n)
{
    static const uint32_t tab[16] = {
        0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158,
        0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4,
        0xa00ae278, 0xbdbdf21c};
    uint32_t c = 0xf597a6cfu;
    for (size_t i = 0; i < n; i++) {
        c ^= d[i];
        c = (c >> 4) ^ tab[c & 15];
        c = (c >> 4) ^ tab[c & 15];
    }
    return c;
}

/* An LVM2 PV label at sector 1 (UUID "ptsbenchSafetyTestPvUuid00000001"). */
static inline bool img_write_lvm_label(const char *path, uint64_t dev_size)
{
    uint8_t s[512];
    memset(s, 0, sizeof(s));
    const uint64_t sector = 1;
    const uint32_t offset = 32;
    memcpy(s, "LABELONE", 8);
    memcpy(s + 8, &sector, 8);
    memcpy(s + 20, &offset, 4);
    memcpy(s + 24, "LVM2 001", 8);
    memcpy(s + 32, "ptsbenchSafetyTestPvUuid00000001", 32);
    memcpy(s + 64, &dev_size, 8);
    uint32_t crc = img_lvm_crc(s + 20, sizeof(s) - 20);
    memcpy(s + 16, &crc, 4);
    return img_pwrite(path, s, sizeof(s), 512);
}

/* Create path with size bytes of a non-zero pattern (every block allocated). */
static inline bool img_fill(const char *path, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    static uint8_t buf[1 << 16];
    uint64_t x = 0x9e3779b97f4a7c15ull;
    bool ok = true;
    for (size_t done = 0; ok && done < size; done += sizeof(buf)) {
        for (size_t i = 0; i < sizeof(buf); i += 8) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            memcpy(buf + i, &x, 8);
        }
        size_t n = size - done < sizeof(buf) ? size - done : sizeof(buf);
        ok = write(fd, buf, n) == (ssize_t)n;
    }
    ok = ok && fsync(fd) == 0;
    return close(fd) == 0 && ok;
}

/* CRC-32 of the whole file (and its size in *size), or false when it cannot be read. */
static inline bool img_checksum(const char *path, uint32_t *crc, uint64_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    static uint8_t buf[1 << 16];
    uLong c = crc32(0L, Z_NULL, 0);
    uint64_t total = 0;
    ssize_t n;
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        c = crc32(c, buf, (uInt)n);
        total += (uint64_t)n;
    }
    close(fd);
    if (n < 0)
        return false;
    *crc = (uint32_t)c;
    if (size)
        *size = total;
    return true;
}

#endif
