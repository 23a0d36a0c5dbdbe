/* history.c — the in-memory input history behind history_request.
 *
 * Entries are (session, line, input[, output]) for cells run with store_history. The kernel
 * has one session, numbered 1; a request's session 0 or a negative one means "the current
 * session" as in IPython. Like xeus we keep history in memory only: a kernel restart starts a
 * new, empty history. The oldest entries are dropped past max_entries or max_bytes (the memory
 * its chunks hold), so memory stays bounded in a kernel that runs for days whatever its cells'
 * sizes; an input over JP_HISTORY_MAX_INPUT is kept cut short, with a line saying so. Inputs are
 * stored with their length: one holding U+0000 comes back whole (only a search pattern sees
 * it up to the NUL). */
#include "jupyter/jupyter.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HISTORY_SESSION 1

/* The inputs are copied into chunks of at least CHUNK_BYTES, filled in order and freed when
 * their last entry is dropped. Kept together, the long-lived copies do not pin the heap pages
 * of each request's short-lived allocations, as one malloc per input would: scattered through
 * the heap, each small copy keeps a page of freed request memory from being given back, so RSS
 * would grow with the number of inputs rather than with their size. */
#define CHUNK_BYTES (64 * 1024)

struct chunk {
    struct chunk *next; /* newer */
    size_t used, cap;   /* bytes of data */
    size_t live;        /* entries whose input is here */
    char data[];
};

struct entry {
    long line;
    char *input; /* in chunk, NUL-terminated */
    size_t len;  /* bytes of input, without the terminator */
    struct chunk *chunk;
};

struct jp_history {
    struct entry *v; /* oldest first */
    size_t n, cap, max;
    size_t max_bytes, held;     /* bound on, and bytes of, the chunks' data */
    struct chunk *first, *last; /* oldest and newest chunk */
};

struct jp_history *jp_history_new(size_t max_entries, size_t max_bytes)
{
    struct jp_history *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->max = max_entries ? max_entries : 1;
    /* room for one input of the largest size kept, whatever the caller asked */
    size_t least =
        JP_HISTORY_MAX_INPUT + 4096 > CHUNK_BYTES ? JP_HISTORY_MAX_INPUT + 4096 : CHUNK_BYTES;
    h->max_bytes = max_bytes > least ? max_bytes : least;
    return h;
}

void jp_history_clear(struct jp_history *h)
{
    for (struct chunk *c = h->first, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    h->first = h->last = NULL;
    h->held = 0;
    free(h->v);
    h->v = NULL;
    h->n = h->cap = 0;
}

void jp_history_free(struct jp_history *h)
{
    if (!h) return;
    jp_history_clear(h);
    free(h);
}

size_t jp_history_bytes(const struct jp_history *h) { return h->held; }

/* The bytes a new chunk must get for len more bytes of input: 0 when the newest has room. */
static size_t new_chunk_bytes(const struct jp_history *h, size_t len)
{
    const struct chunk *c = h->last;
    if (c && c->cap - c->used >= len) return 0;
    return len > CHUNK_BYTES ? len : CHUNK_BYTES;
}

/* Room for len bytes at the end of the newest chunk (a new chunk when it lacks them), or NULL
 * when out of memory. */
static struct chunk *room(struct jp_history *h, size_t len)
{
    size_t cap = new_chunk_bytes(h, len);
    if (cap == 0) return h->last;
    if (h->last && h->last->live == 0) { /* empty, so the only one: replace it by a bigger one */
        h->held -= h->last->cap;
        free(h->last);
        h->first = h->last = NULL;
    }
    struct chunk *c = malloc(sizeof *c + cap);
    if (!c) return NULL;
    *c = (struct chunk){.cap = cap};
    h->held += cap;
    if (h->last)
        h->last->next = c;
    else
        h->first = c;
    h->last = c;
    return c;
}

/* Drops the oldest entry, and its chunk with it when that held nothing else. */
static void drop_oldest(struct jp_history *h)
{
    struct chunk *c = h->v[0].chunk;
    memmove(h->v, h->v + 1, (h->n - 1) * sizeof *h->v);
    h->n--;
    if (--c->live > 0) return;
    if (c == h->last) { /* the newest: keep it, empty, for the next inputs */
        c->used = 0;
        return;
    }
    h->first = c->next; /* entries are dropped oldest first, so c is the oldest chunk */
    h->held -= c->cap;
    free(c);
}

/* The length of the first max bytes of s (n bytes), cut before a UTF-8 sequence it would
 * split, so that what is kept is still valid UTF-8. */
static size_t utf8_prefix(const char *s, size_t n, size_t max)
{
    if (n <= max) return n;
    size_t k = max;
    while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80) k--;
    return k;
}

int jp_history_append(struct jp_history *h, long line, const char *input, size_t input_len)
{
    char note[128] = "";
    size_t keep = utf8_prefix(input, input_len, JP_HISTORY_MAX_INPUT);
    if (keep < input_len)
        snprintf(note, sizeof note,
                 "\n# [history: this input had %zu bytes; only its first %zu are kept]\n",
                 input_len, keep);
    size_t note_len = strlen(note);
    size_t len = keep + note_len + 1;
    while (h->n > 0 && h->held + new_chunk_bytes(h, len) > h->max_bytes) drop_oldest(h);
    if (h->n == h->cap && h->cap < h->max) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        if (cap > h->max) cap = h->max;
        struct entry *v = realloc(h->v, cap * sizeof *v);
        if (!v) return -1;
        h->v = v;
        h->cap = cap;
    }
    struct chunk *c = room(h, len);
    if (!c) return -1;
    if (h->n == h->max) drop_oldest(h);
    char *copy = c->data + c->used;
    memcpy(copy, input, keep);
    memcpy(copy + keep, note, note_len + 1);
    c->used += len;
    c->live++;
    h->v[h->n++] = (struct entry){line, copy, len - 1, c};
    return 0;
}

static long get_int(const json_t *req, const char *key, long dflt)
{
    json_t *v = json_object_get(req, key);
    return json_is_integer(v) ? (long)json_integer_value(v) : dflt;
}

/* Appends entry e to out in the shape the request asked for. */
static int add_entry(json_t *out, const struct entry *e, bool output)
{
    json_t *input = json_stringn(e->input, e->len);
    json_t *item = output ? json_pack("[i, i, [o, n]]", HISTORY_SESSION, (json_int_t)e->line, input)
                          : json_pack("[i, i, o]", HISTORY_SESSION, (json_int_t)e->line, input);
    return item ? json_array_append_new(out, item) : -1;
}

json_t *jp_history_query(const struct jp_history *h, const json_t *request)
{
    json_t *out = json_array();
    if (!out) return NULL;
    const char *type = json_string_value(json_object_get(request, "hist_access_type"));
    bool output = json_is_true(json_object_get(request, "output"));
    if (!type) return out;

    if (strcmp(type, "tail") == 0) {
        long n = get_int(request, "n", 10);
        size_t first = n <= 0 ? h->n : ((size_t)n >= h->n ? 0 : h->n - (size_t)n);
        for (size_t i = first; i < h->n; i++) add_entry(out, &h->v[i], output);
    } else if (strcmp(type, "range") == 0) {
        long session = get_int(request, "session", 0);
        if (session <= 0 || session == HISTORY_SESSION) {
            long start = get_int(request, "start", 0);
            long stop = get_int(request, "stop", -1);
            for (size_t i = 0; i < h->n; i++) {
                long line = h->v[i].line;
                if (line >= start && (stop < 0 || line < stop)) add_entry(out, &h->v[i], output);
            }
        }
    } else if (strcmp(type, "search") == 0) {
        const char *pattern = json_string_value(json_object_get(request, "pattern"));
        if (!pattern) pattern = "*";
        long n = get_int(request, "n", 0);
        bool unique = json_is_true(json_object_get(request, "unique"));
        /* Walk newest first so `n` keeps the latest matches and `unique` keeps the latest copy
         * of each input; then reverse into chronological order. */
        json_t *rev = json_array();
        for (size_t i = h->n; rev && i-- > 0;) {
            if (n > 0 && (long)json_array_size(rev) >= n) break;
            if (fnmatch(pattern, h->v[i].input, 0) != 0) continue;
            bool seen = false;
            for (size_t j = i + 1; unique && !seen && j < h->n; j++)
                seen = h->v[j].len == h->v[i].len &&
                       memcmp(h->v[j].input, h->v[i].input, h->v[i].len) == 0 &&
                       fnmatch(pattern, h->v[j].input, 0) == 0;
            if (!seen) add_entry(rev, &h->v[i], output);
        }
        for (size_t i = json_array_size(rev); rev && i-- > 0;)
            json_array_append(out, json_array_get(rev, i));
        json_decref(rev);
    }
    return out;
}
