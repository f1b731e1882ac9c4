/* data_uri.h — a file as an RFC 2397 data: URI (base64, RFC 4648 section 4), for the report's
 * --single-file HTML: charts inlined, so that the page references nothing outside itself. */
#ifndef PTSBENCH_DATA_URI_H
#define PTSBENCH_DATA_URI_H

#include <stddef.h>
#include <stdio.h>

/* Write "data:MIME;base64,..." of the file at path to out. 0, or -1 with one line naming path. */
int data_uri_write(FILE *out, const char *path, const char *mime, char *err, size_t errlen);

/* The base64 of len bytes into out (4 * ceil(len / 3) characters and a NUL); returns its length. */
size_t data_uri_base64(const unsigned char *in, size_t len, char *out);

#endif
