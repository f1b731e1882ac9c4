/* harness.c — the libFuzzer harness of one entry of fuzz_entry.c, chosen at build time:
 * `make fuzz` compiles this file once per harness with -DFUZZ_TARGET=NAME (workload, profile,
 * pts, preset, sheet, fio, show, measure, report, plot, gate) into build/fuzz/fuzz_NAME.
 *
 * For the JSON inputs (fio's output, results documents) half the mutations are structural: the
 * document is parsed, one value anywhere in it is replaced (by an object, an array, a string, a
 * number out of every range, NaN, a boolean, null, or a copy of another value of the document)
 * or removed, and the document is written back. Byte mutations alone rarely keep a document
 * valid deep enough to reach a reader's assumption about a type ("rounds" is an array). */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_entry.h"

#ifndef FUZZ_TARGET
#error "build with -DFUZZ_TARGET=NAME (see the Makefile's fuzz target)"
#endif
#define FUZZ_STR2(x) #x
#define FUZZ_STR(x) FUZZ_STR2(x)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static const struct fuzz_target *target;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    target = fuzz_target_find(FUZZ_STR(FUZZ_TARGET));
    if (!target) {
        fprintf(stderr, "harness: no fuzz target '%s' in fuzz_entry.c\n", FUZZ_STR(FUZZ_TARGET));
        abort();
    }
    fuzz_scratch();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    target->run(data, size);
    return 0;
}

/* ---- the structural mutator ----------------------------------------------------------------- */

static unsigned rng_next(unsigned *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

#define MAX_NODES 4096

/* A place in the document: the parent (object or array) and the key or index of the value. */
struct place {
    struct json_object *parent;
    const char *key;           /* object member; NULL for an array element */
    size_t idx;
};

struct places {
    struct place p[MAX_NODES];
    size_t n;
};

static void collect(struct json_object *o, struct places *ps)
{
    if (json_object_is_type(o, json_type_object)) {
        json_object_object_foreach(o, k, v) {
            if (ps->n < MAX_NODES)
                ps->p[ps->n++] = (struct place){o, k, 0};
            if (v)
                collect(v, ps);
        }
    } else if (json_object_is_type(o, json_type_array)) {
        size_t n = json_object_array_length(o);
        for (size_t i = 0; i < n; i++) {
            if (ps->n < MAX_NODES)
                ps->p[ps->n++] = (struct place){o, NULL, i};
            struct json_object *v = json_object_array_get_idx(o, i);
            if (v)
                collect(v, ps);
        }
    }
}

static struct json_object *value_at(const struct place *p)
{
    if (p->key)
        return json_object_object_get(p->parent, p->key);
    return json_object_array_get_idx(p->parent, p->idx);
}

/* A value of some type, now and then absurd. */
static struct json_object *random_value(unsigned *s, struct places *ps)
{
    static const double nums[] = {0, -1, 1, 0.5, 100, 101, -100, 255, 65536, 4294967296.0,
                                  1e18, 1.8446744073709552e19, 1e300, -1e300, 2147483648.0};
    switch (rng_next(s) % 12) {
    case 0: return json_object_new_object();
    case 1: return json_object_new_array();
    case 2: return json_object_new_string("");
    case 3: return json_object_new_string("x\ny");
    case 4: return json_object_new_double(nums[rng_next(s) % (sizeof(nums) / sizeof(nums[0]))]);
    case 5: return json_object_new_int64((int64_t)rng_next(s) - 2147483648LL);
    case 6: return json_object_new_int64(INT64_MAX);
    case 7: return json_object_new_double(NAN);
    case 8: return json_object_new_boolean(rng_next(s) & 1);
    case 9: return NULL;       /* JSON null */
    default: {
        /* a copy of another value: the right shapes in the wrong places */
        struct json_object *v = ps->n ? value_at(&ps->p[rng_next(s) % ps->n]) : NULL, *copy = NULL;
        if (v && json_object_deep_copy(v, &copy, NULL) == 0)
            return copy;
        return json_object_new_object();
    }
    }
}

static void mutate_tree(struct json_object *root, unsigned *s)
{
    static struct places ps;
    ps.n = 0;
    collect(root, &ps);
    if (!ps.n)
        return;
    const struct place *p = &ps.p[rng_next(s) % ps.n];
    unsigned what = rng_next(s) % 8;
    if (what == 0 && p->key) {
        json_object_object_del(p->parent, p->key);
    } else if (what == 1 && !p->key) {
        json_object_array_del_idx(p->parent, p->idx, 1);
    } else {
        struct json_object *v = random_value(s, &ps);
        if (p->key) {
            char *k = strdup(p->key);   /* the key belongs to the member being replaced */
            json_object_object_add(p->parent, k, v);
            free(k);
        } else {
            json_object_array_put_idx(p->parent, p->idx, v);
        }
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    unsigned s = seed ? seed : 1;
    if (!target || !target->json || rng_next(&s) % 2)
        return LLVMFuzzerMutate(data, size, max_size);
    /* the object: from the first '{' (fio prints text before it) */
    size_t start = 0;
    while (start < size && data[start] != '{')
        start++;
    if (start == size)
        return LLVMFuzzerMutate(data, size, max_size);
    json_tokener *tok = json_tokener_new();
    struct json_object *root = json_tokener_parse_ex(tok, (const char *)data + start,
                                                     (int)(size - start));
    size_t end = start + json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (!root)
        return LLVMFuzzerMutate(data, size, max_size);
    unsigned rounds = 1 + rng_next(&s) % 3;
    for (unsigned i = 0; i < rounds; i++)
        mutate_tree(root, &s);
    size_t len;
    const char *text = json_object_to_json_string_length(root, JSON_C_TO_STRING_PLAIN, &len);
    size_t tail = size - end;
    size_t out = 0;
    if (start + len + tail <= max_size) {
        memmove(data + start + len, data + end, tail);
        memcpy(data + start, text, len);
        out = start + len + tail;
    }
    json_object_put(root);
    return out ? out : LLVMFuzzerMutate(data, size, max_size);
}
