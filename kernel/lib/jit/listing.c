/* jit/listing.c — the instructions per element of a compiled njit kernel's loops.
 *
 * Hardware counters are not readable on every machine (virtual machines often have none), so
 * the count is read from the code itself: objdump's listing of the kernel's shared object. In
 * the functions gcc made of it (jit_entry and its OpenMP parts, and their .cold parts, where gcc
 * puts what it guesses runs rarely, sometimes a whole loop), a jump back to an earlier
 * address closes a loop. The loops over elements are the innermost ones that do float
 * arithmetic or moves (SSE/AVX instructions on floats); the loops nested in them are integer
 * loops, the index math over dims (to_index, index_to_position), counted per step. A loop over
 * elements whose float instructions are packed (ps) handles as many floats per iteration as
 * its widest register holds. The count is of the instructions in the loop's address range, each
 * once: a branch not taken in every iteration counts as one that is. */
#include "lib/jit/listing.h"

#include "render/render.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct insn {
    unsigned long addr;
    int fn;    /* which function of the listing */
    int width; /* floats per instruction: 0 none, 1 scalar, 4/8/16 packed */
    bool work; /* float work: arithmetic, a conversion, a scalar load or store (not the packed
                * moves of zeros that clear index buffers) */
};

struct loop {
    unsigned long start, end; /* the jump target and the jump back */
    int fn;
    int parent; /* the innermost loop holding it, or -1 */
    bool direct_float;
};

/* The floats one instruction handles: 0 when it is no float instruction. */
static int float_width(const char *mn, const char *ops)
{
    size_t n = strlen(mn);
    if (n < 3) return 0;
    const char *sfx = mn + n - 2;
    bool packed = strcmp(sfx, "ps") == 0 || strcmp(sfx, "pd") == 0;
    if (!packed && strcmp(sfx, "ss") != 0 && strcmp(sfx, "sd") != 0) return 0;
    if (!strchr(ops, '%')) return 0; /* no register: a string instruction */
    /* storages hold float32: a loop over elements vectorised by gcc packs floats (ps); doubles
     * (pd) are the kernel's own arithmetic, paired up, not more elements per iteration */
    if (!packed || sfx[1] == 'd') return 1;
    return strstr(ops, "%zmm") ? 16 : strstr(ops, "%ymm") ? 8 : 4;
}

static bool float_work(const char *mn, int width)
{
    if (!width) return false;
    const char *m = mn[0] == 'v' ? mn + 1 : mn;
    return width == 1 || strncmp(m, "mov", 3) != 0;
}

static bool is_prefix(const char *t)
{
    static const char *const p[] = {"rep",     "repz", "repnz",  "repe", "repne", "lock",
                                    "notrack", "bnd",  "data16", "cs",   "ds",    "addr32"};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (strcmp(t, p[i]) == 0) return true;
    return false;
}

/* Whether loop a holds loop b (b's range inside a's, and not the same). */
static bool holds(const struct loop *a, const struct loop *b)
{
    return a->fn == b->fn && a->start <= b->start && b->end <= a->end &&
           (a->start != b->start || a->end != b->end);
}

/* The phrase of loop i (of nl, over the n instructions in, owner[k] the innermost loop of
 * each) when it runs per element: its own instructions (per vector where gcc vectorised it),
 * plus each inner integer loop's; false for a loop that is not per element (no float work of
 * its own, or some in a loop inside it). */
static bool loop_phrase(const struct loop *lp, size_t nl, size_t i, const struct insn *in, size_t n,
                        const int *owner, char *phrase, size_t size)
{
    if (!lp[i].direct_float) return false;
    for (size_t j = 0; j < nl; j++) /* a loop inside it does float work: not per element */
        for (int a = lp[j].parent; a >= 0; a = lp[a].parent)
            if (a == (int)i && lp[j].direct_float) return false;
    int own = 0, width = 1;
    for (size_t k = 0; k < n; k++)
        if (owner[k] == (int)i) {
            own++;
            if (in[k].width > width) width = in[k].width;
        }
    int at = width > 1 ? snprintf(phrase, size, "%d per %d elements (vectorised)", own, width)
                       : snprintf(phrase, size, "%d per element", own);
    int nkids = 0;
    for (size_t j = 0; j < nl && at < (int)size - 40; j++) {
        if (lp[j].parent != (int)i) continue;
        int cnt = 0; /* the inner loop's instructions, its own inner loops' included */
        for (size_t k = 0; k < n; k++)
            if (in[k].fn == lp[j].fn && lp[j].start <= in[k].addr && in[k].addr <= lp[j].end) cnt++;
        at += snprintf(phrase + at, size - (size_t)at, "%s%d", nkids ? " and " : ", plus ", cnt);
        nkids++;
    }
    if (nkids)
        snprintf(phrase + at, size - (size_t)at,
                 " per step of its inner integer loop%s (index math)", nkids > 1 ? "s" : "");
    return true;
}

char *jit_loops_from_listing(const char *listing)
{
    size_t cap = 256, n = 0, lcap = 16, nl = 0;
    struct insn *in = malloc(cap * sizeof *in);
    struct loop *lp = malloc(lcap * sizeof *lp);
    if (!in || !lp) {
        free(in);
        free(lp);
        return NULL;
    }
    int fn = -1;
    bool inside = false; /* in a function of the kernel's */
    unsigned long fn_start = 0;
    for (const char *p = listing; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[512];
        if (len >= sizeof line) len = sizeof line - 1;
        memcpy(line, p, len);
        line[len] = 0;
        p = eol ? eol + 1 : NULL;
        unsigned long addr;
        char name[256];
        if (sscanf(line, "%lx <%255[^>]>:", &addr, name) == 2 && line[0] != ' ') {
            inside = strncmp(name, "jit_entry", 9) == 0;
            fn++;
            fn_start = addr;
            continue;
        }
        char *tab = strchr(line, '\t');
        if (!inside || !tab || sscanf(line, " %lx:", &addr) != 1) continue;
        char mn[32] = "", *ops = tab + 1;
        for (;;) { /* the mnemonic, after any prefix */
            while (*ops == ' ') ops++;
            size_t k = strcspn(ops, " \t");
            if (k == 0 || k >= sizeof mn) break;
            memcpy(mn, ops, k);
            mn[k] = 0;
            ops += k;
            if (!is_prefix(mn)) break;
        }
        if (!*mn) continue;
        if (n == cap) {
            struct insn *m = realloc(in, 2 * cap * sizeof *in);
            if (!m) goto nomem;
            in = m;
            cap *= 2;
        }
        int w = float_width(mn, ops);
        in[n++] = (struct insn){.addr = addr, .fn = fn, .width = w, .work = float_work(mn, w)};
        unsigned long target;
        if (mn[0] == 'j' && sscanf(ops, " %lx", &target) == 1 && target <= addr &&
            target >= fn_start) {
            size_t k = 0;
            while (k < nl && !(lp[k].fn == fn && lp[k].start == target)) k++;
            if (k < nl) { /* another way back to the same loop head (a continue) */
                if (addr > lp[k].end) lp[k].end = addr;
                continue;
            }
            if (nl == lcap) {
                struct loop *m = realloc(lp, 2 * lcap * sizeof *lp);
                if (!m) goto nomem;
                lp = m;
                lcap *= 2;
            }
            lp[nl++] = (struct loop){.start = target, .end = addr, .fn = fn, .parent = -1};
        }
    }
    /* each loop's parent: the smallest loop holding it */
    for (size_t i = 0; i < nl; i++)
        for (size_t j = 0; j < nl; j++)
            if (holds(&lp[j], &lp[i]) && (lp[i].parent < 0 || holds(&lp[lp[i].parent], &lp[j])))
                lp[i].parent = (int)j;
    /* an instruction belongs to the innermost loop holding it */
    int *owner = malloc((n ? n : 1) * sizeof *owner);
    if (!owner) goto nomem;
    for (size_t i = 0; i < n; i++) {
        owner[i] = -1;
        for (size_t j = 0; j < nl; j++)
            if (lp[j].fn == in[i].fn && lp[j].start <= in[i].addr && in[i].addr <= lp[j].end &&
                (owner[i] < 0 || holds(&lp[owner[i]], &lp[j])))
                owner[i] = (int)j;
        if (owner[i] >= 0 && in[i].work) lp[owner[i]].direct_float = true;
    }
    struct render_buf b;
    render_buf_init(&b, 0);
    int shown = 0;
    for (size_t i = 0; i < nl && shown < 4; i++) {
        char phrase[256];
        if (!loop_phrase(lp, nl, i, in, n, owner, phrase, sizeof phrase)) continue;
        if (b.data && strstr(b.data, phrase)) continue; /* another version of the same loop */
        render_buf_printf(&b, "%s%s", shown ? "; " : "", phrase);
        shown++;
    }
    free(owner);
    free(in);
    free(lp);
    if (b.nomem || !shown) {
        render_buf_free(&b);
        return NULL;
    }
    return b.data;
nomem:
    free(in);
    free(lp);
    return NULL;
}

char *jit_loops_describe(const char *path)
{
    char out[] = "/tmp/mt-objdump-XXXXXX";
    int fd = mkstemp(out);
    char *text = NULL, *r = NULL;
    if (fd < 0) {
        if (asprintf(&r, "cannot disassemble it: %s", strerror(errno)) < 0) r = NULL;
        return r;
    }
    unlink(out);
    char *argv[] = {"objdump", "-d", "--no-show-raw-insn", (char *)path, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd, 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int err = posix_spawnp(&pid, "objdump", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int status = 0;
    if (err == 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (err != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        close(fd);
        if (asprintf(&r, "cannot disassemble it: %s",
                     err ? "objdump (binutils) not found" : "objdump failed") < 0)
            r = NULL;
        return r;
    }
    off_t size = lseek(fd, 0, SEEK_END);
    if (size > 0 && (text = malloc((size_t)size + 1)) &&
        pread(fd, text, (size_t)size, 0) == (ssize_t)size) {
        text[size] = 0;
        r = jit_loops_from_listing(text);
        if (!r) r = strdup("no loop over elements found in it");
    } else {
        r = strdup("cannot disassemble it: objdump wrote nothing");
    }
    free(text);
    close(fd);
    return r;
}
