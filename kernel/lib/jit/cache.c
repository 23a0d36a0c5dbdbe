/* jit/cache.c — the folder of compiled code, the compiler's runs, and loading what they built.
 *
 * A shared object in the cache is code the kernel runs, so the folder must be the user's alone:
 * a folder in a place another user can reach first (a fixed name in /tmp) would let that user
 * leave a .so under the name of the next unit, or a link through which the kernel writes over
 * one of the user's files. The folder is found by a walk from / with openat that follows no
 * link at its end, makes what is missing (0700), and checks the folder and each folder on the
 * way; every later operation is relative to its descriptor, and a compiler runs with it as its
 * working folder, given names without a folder, so that nothing resolves a path again.
 *
 * The cache is also kept sound against what can go wrong with files and compilers: a shared
 * object is checked (owner, mode, ELF headers, size) before it is loaded, from the descriptor
 * that was checked, and one that fails is removed and built again; a FIFO is never opened
 * blocking; a compiler runs under a time limit, in a process group of its own that dies with
 * the kernel; temporary files have names of their own process (pid and a random number) and are
 * removed once that process is gone; and the folder is kept under a size cap, the units used
 * least recently removed first. */
#include "lib/jit/cache.h"

#include "minitorch/minitorch.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PATH_SIZE 4096
/* the size cap and the compiler's time limit when the environment sets none */
#define DEFAULT_MAX_BYTES (512ull << 20)
#define DEFAULT_TIMEOUT_S 120.0
/* a temporary file older than this is removed whatever its process */
#define STALE_S (24 * 3600)

struct jit_folder {
    int fd; /* -1: not open */
    dev_t dev;
    ino_t ino;
    char path[PATH_SIZE];
};

/* What the process shares: the folder the environment names, the process's own folder where
 * that one is refused, the last refusal noted, the libraries loaded (below) and
 * the units loaded, which the size cap keeps. Compiles run on the interpreter's thread; the lock
 * keeps the state whole should two sessions compile on two threads. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct jit_folder named = {.fd = -1}, own = {.fd = -1};
static pid_t own_pid;
static char refused[3 * PATH_SIZE]; /* the folder last refused with a note, and why */
static uint64_t *kept;
static size_t nkept, kept_size;

/* ---- small helpers ---------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 8 hex digits no other process will guess, for the names of temporary files. */
static void random_hex(char out[9])
{
    uint32_t r = 0;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        static uint32_t count;
        r = (uint32_t)(now_s() * 1e9) ^ (uint32_t)getpid() * 2654435761u ^ ++count;
    }
    snprintf(out, 9, "%08x", r);
}

/* The unit's hash in a name "<16 hex digits>..." into *h: whether the name starts so. */
static bool name_stem(const char *name, uint64_t *h)
{
    uint64_t v = 0;
    for (int i = 0; i < 16; i++) {
        char c = name[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) return false;
        v = v << 4 | (uint64_t)d;
    }
    *h = v;
    return true;
}

/* A temporary file's name, "<stem>.<pid>.<8 hex>.<what>": its process into *pid. */
static bool temp_name(const char *name, pid_t *pid)
{
    uint64_t h;
    if (!name_stem(name, &h) || name[16] != '.') return false;
    const char *p = name + 17;
    long v = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9' && digits < 10; p++, digits++) v = v * 10 + (*p - '0');
    if (!digits || *p != '.') return false;
    p++;
    for (int i = 0; i < 8; i++)
        if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f'))) return false;
    if (p[8] != '.' || !p[9]) return false;
    *pid = (pid_t)v;
    return true;
}

/* The size cap, $MT_JIT_CACHE_MAX: bytes, or with a K, M or G after them (powers of 1024). */
static unsigned long long cache_max(void)
{
    const char *s = getenv("MT_JIT_CACHE_MAX");
    if (!s || !*s) return DEFAULT_MAX_BYTES;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *s == '-') return DEFAULT_MAX_BYTES;
    int shift = *end == 'K' || *end == 'k'   ? 10
                : *end == 'M' || *end == 'm' ? 20
                : *end == 'G' || *end == 'g' ? 30
                                             : 0;
    if (shift) end++;
    if (*end || (shift && v > (~0ull >> shift))) return DEFAULT_MAX_BYTES;
    return v << shift;
}

/* The compiler's time limit, $MT_JIT_CC_TIMEOUT seconds. */
static double cc_timeout(void)
{
    const char *s = getenv("MT_JIT_CC_TIMEOUT");
    char *end;
    double v = s && *s ? strtod(s, &end) : 0;
    return s && *s && !*end && v > 0 ? v : DEFAULT_TIMEOUT_S;
}

/* ---- the folder ------------------------------------------------------------------------- */

/* Whether users other than this one may make and remove entries in a folder: others' write
 * permission, or the group's where the group is not this user's own. */
static bool others_write(const struct stat *st)
{
    return (st->st_mode & S_IWOTH) || ((st->st_mode & S_IWGRP) && st->st_gid != getegid());
}

/* Whether the link name in folder fd (whose status is dir) may be followed on the way to the
 * cache (~/.cache as a link to a larger disk): a link of this user's or root's, which no one
 * else could have put there. */
static bool link_ok(int fd, const struct stat *dir, const char *name)
{
    struct stat st;
    return fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) &&
           (st.st_uid == geteuid() || st.st_uid == 0) &&
           (!others_write(dir) || (dir->st_mode & S_ISVTX));
}

/* Opens folder path as the cache, made where missing: its descriptor, or -1 with the reason in
 * reason. The walk opens each part from the one before with O_NOFOLLOW; a folder on the way that
 * others may write must have the sticky bit (as /tmp does), and what is in it must then be this
 * user's (or root's); the folder itself must be this user's, a folder and not a link, and loses
 * any access of others. */
static int open_private(const char *path, char *reason, size_t size)
{
    if (path[0] != '/') {
        snprintf(reason, size, "%s is not an absolute path", path);
        return -1;
    }
    uid_t me = geteuid();
    int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat dir;
    if (fd < 0 || fstat(fd, &dir) != 0) {
        snprintf(reason, size, "cannot open /: %s", strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    const char *p = path;
    for (;;) {
        while (*p == '/') p++;
        if (!*p) break;
        size_t len = strcspn(p, "/");
        int upto = (int)(p - path + (ptrdiff_t)len); /* the path so far, for messages */
        char part[256];
        if (len >= sizeof part) {
            snprintf(reason, size, "%.*s: a name too long", upto, path);
            goto fail;
        }
        memcpy(part, p, len);
        part[len] = 0;
        p += len;
        while (*p == '/') p++;
        bool leaf = !*p;
        if (strcmp(part, ".") == 0 || strcmp(part, "..") == 0) {
            snprintf(reason, size, "%s has . or .. in it", path);
            goto fail;
        }
        const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
        int next = openat(fd, part, flags);
        if (next < 0 && errno == ENOENT) {
            if (mkdirat(fd, part, 0700) != 0 && errno != EEXIST) {
                snprintf(reason, size, "cannot make %.*s: %s", upto, path, strerror(errno));
                goto fail;
            }
            next = openat(fd, part, flags);
        }
        if (next < 0 && (errno == ELOOP || errno == ENOTDIR) && !leaf && link_ok(fd, &dir, part))
            next = openat(fd, part, flags & ~O_NOFOLLOW);
        struct stat lst;
        if (next < 0) {
            if (fstatat(fd, part, &lst, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(lst.st_mode))
                snprintf(reason, size, "%.*s is a symbolic link", upto, path);
            else
                snprintf(reason, size, "cannot open %.*s: %s", upto, path, strerror(errno));
            goto fail;
        }
        struct stat st;
        if (fstat(next, &st) != 0) {
            snprintf(reason, size, "cannot read %.*s: %s", upto, path, strerror(errno));
            close(next);
            goto fail;
        }
        if (others_write(&dir) && !(dir.st_mode & S_ISVTX)) {
            snprintf(reason, size,
                     "others may write in the folder that holds %.*s, which lacks the sticky bit",
                     upto, path);
            close(next);
            goto fail;
        }
        if (others_write(&dir) && st.st_uid != me && st.st_uid != 0) {
            snprintf(reason, size, "%.*s belongs to uid %u, in a folder others may write", upto,
                     path, (unsigned)st.st_uid);
            close(next);
            goto fail;
        }
        close(fd);
        fd = next;
        dir = st;
    }
    if (dir.st_uid != me) {
        snprintf(reason, size, "%s belongs to uid %u, not to this user (uid %u)", path,
                 (unsigned)dir.st_uid, (unsigned)me);
        goto fail;
    }
    if ((dir.st_mode & 077) && fchmod(fd, 0700) != 0) {
        snprintf(reason, size, "cannot make %s private: %s", path, strerror(errno));
        goto fail;
    }
    return fd;
fail:
    close(fd);
    return -1;
}

/* The names in folder fd, one call of each per name (a DIR of its own). */
static void each_name(int fd, void (*fn)(int fd, const char *name, void *arg), void *arg)
{
    int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        if (dup_fd >= 0) close(dup_fd);
        return;
    }
    rewinddir(d); /* a duplicate shares its offset with every other descriptor of the folder */
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') fn(fd, e->d_name, arg);
    closedir(d);
}

/* Removes a temporary file whose process no longer runs, or that is older than any compile. */
static void remove_stale(int fd, const char *name, void *arg)
{
    (void)arg;
    pid_t pid;
    struct stat st;
    if (!temp_name(name, &pid) || fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return;
    bool gone = pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH;
    if (gone || time(NULL) - st.st_mtime > STALE_S) unlinkat(fd, name, 0);
}

static void remove_any(int fd, const char *name, void *arg)
{
    (void)arg;
    unlinkat(fd, name, 0);
}

/* At exit: the process's own folder goes, with what it holds. */
static void remove_own(void)
{
    if (own.fd < 0 || own_pid != getpid()) return;
    each_name(own.fd, remove_any, NULL);
    close(own.fd);
    own.fd = -1;
    rmdir(own.path);
}

/* Makes the process's own folder (in $TMPDIR, else /tmp; a random name that no other user can
 * take first): 0, or -1 with the reason. */
static int make_own(char *reason, size_t size)
{
    const char *t = getenv("TMPDIR");
    char path[PATH_SIZE];
    snprintf(path, sizeof path, "%s/minitorch-kernel-XXXXXX", t && *t == '/' ? t : "/tmp");
    if (!mkdtemp(path)) {
        snprintf(reason, size, "cannot make a folder in %s: %s", t && *t == '/' ? t : "/tmp",
                 strerror(errno));
        return -1;
    }
    int fd = open_private(path, reason, size);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0) close(fd);
        rmdir(path);
        return -1;
    }
    static bool registered;
    if (!registered) registered = atexit(remove_own) == 0;
    own.fd = fd;
    own.dev = st.st_dev;
    own.ino = st.st_ino;
    snprintf(own.path, sizeof own.path, "%s", path);
    own_pid = getpid();
    return 0;
}

static bool is_root_dir(const char *p)
{
    while (*p == '/') p++;
    return !*p;
}

int jit_cache_default_path(char *buf, size_t size)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/') { /* the XDG spec: a relative path is ignored */
        n = snprintf(buf, size, "%s/minitorch-kernel/jit", xdg);
        return n > 0 && (size_t)n < size ? 0 : -1;
    }
    struct stat st;
    if (home && home[0] == '/' && !is_root_dir(home) && stat(home, &st) == 0 &&
        S_ISDIR(st.st_mode) && st.st_uid == geteuid()) {
        n = snprintf(buf, size, "%s/.cache/minitorch-kernel/jit", home);
        return n > 0 && (size_t)n < size ? 0 : -1;
    }
    /* HOME unset, empty, "/" (docker run --user) or another user's: the password database's */
    struct passwd pw, *res = NULL;
    char pbuf[4096];
    if (getpwuid_r(geteuid(), &pw, pbuf, sizeof pbuf, &res) != 0 || !res || !res->pw_dir ||
        res->pw_dir[0] != '/' || is_root_dir(res->pw_dir))
        return -1;
    n = snprintf(buf, size, "%s/.cache/minitorch-kernel/jit", res->pw_dir);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

struct jit_folder *jit_cache_open(char **note, char **why)
{
    if (note) *note = NULL;
    *why = NULL;
    char want[PATH_SIZE], reason[PATH_SIZE + 200] = "";
    bool home = jit_cache_default_path(want, sizeof want) == 0;
    if (!home) snprintf(want, sizeof want, "(no home folder)");
    struct jit_folder *f = NULL;
    pthread_mutex_lock(&lock);
    int fd = home ? open_private(want, reason, sizeof reason) : -1;
    if (!home)
        snprintf(reason, sizeof reason,
                 "there is no home folder (HOME and the password database name none)");
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0) {
        if (named.fd >= 0 && named.dev == st.st_dev && named.ino == st.st_ino) {
            close(fd);
        } else { /* a folder new to this process */
            if (named.fd >= 0) close(named.fd);
            named.fd = fd;
            named.dev = st.st_dev;
            named.ino = st.st_ino;
            snprintf(named.path, sizeof named.path, "%s", want);
            each_name(fd, remove_stale, NULL);
        }
        f = &named;
        goto done;
    }
    if (fd >= 0) close(fd);
    char own_why[PATH_SIZE + 200];
    if ((own.fd < 0 || own_pid != getpid()) && make_own(own_why, sizeof own_why) != 0) {
        if (asprintf(why, "%s; %s", reason, own_why) < 0) *why = NULL;
        goto done;
    }
    f = &own;
    char said[sizeof refused];
    snprintf(said, sizeof said, "%s\n%s", want, reason);
    if (note && strcmp(refused, said) != 0) {
        if (asprintf(note,
                     "minitorch-kernel: compiled code is not cached in %s: %s; this session "
                     "compiles into %s, removed when it ends\n",
                     want, reason, own.path) < 0)
            *note = NULL;
        memcpy(refused, said, sizeof refused);
    }
done:
    pthread_mutex_unlock(&lock);
    return f;
}

char *jit_cache_path(const struct jit_folder *dir, const char *name)
{
    char *p = NULL;
    if (asprintf(&p, "%s/%s", dir->path, name) < 0) p = NULL;
    return p;
}

void jit_cache_remove(const struct jit_folder *dir, const char *name)
{
    unlinkat(dir->fd, name, 0);
}

/* ---- units' names ----------------------------------------------------------------------- */

static uint64_t fnv(const char *s, uint64_t h)
{
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* With AVX-512's masked gathers and scatters gcc vectorises a kernel's index math, which it does
 * not with AVX2 alone (bench/results/jit-*). As this process sees the processor (valgrind shows
 * fewer). */
size_t jit_cache_isa(const char **out)
{
    size_t n = 0;
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")) {
        out[n++] = "-mavx2", out[n++] = "-mfma", out[n++] = "-mbmi", out[n++] = "-mbmi2";
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
            __builtin_cpu_supports("avx512cd")) {
            out[n++] = "-mavx512f", out[n++] = "-mavx512bw", out[n++] = "-mavx512vl";
            out[n++] = "-mavx512dq", out[n++] = "-mavx512cd";
        }
    }
#else
    (void)out;
#endif
    return n;
}

void jit_unit_names(const char *text, const char *const *flags, size_t nflags, struct jit_unit *u)
{
    uint64_t h = fnv(text, 1469598103934665603ull);
    const char *isa[JIT_MAX_ISA];
    size_t nisa = jit_cache_isa(isa);
    for (size_t i = 0; i < nflags; i++) h = fnv(flags[i], h);
    for (size_t i = 0; i < nisa; i++) h = fnv(isa[i], h);
    snprintf(u->so, sizeof u->so, "%016llx.so", (unsigned long long)h);
    snprintf(u->c, sizeof u->c, "%016llx.c", (unsigned long long)h);
}

/* ---- loading ---------------------------------------------------------------------------- */

/* The ELF header of this process's own program, as loaded: what a shared object must match. */
static const ElfW(Ehdr) * self_header(void)
{
    Dl_info info;
    if (!dladdr((const void *)&lock, &info) || !info.dli_fbase) return NULL;
    const ElfW(Ehdr) *h = info.dli_fbase;
    return memcmp(h->e_ident, ELFMAG, SELFMAG) == 0 ? h : NULL;
}

/* Whether a + b <= size, without overflow. */
static bool inside(uint64_t a, uint64_t b, uint64_t size) { return a <= size && b <= size - a; }

/* Checks the ELF headers of the file fd of size bytes: NULL when it is a shared object for this
 * machine whose headers and segments lie inside it, else what is wrong. */
static const char *elf_problem(int fd, uint64_t size)
{
    ElfW(Ehdr) h;
    if (size < sizeof h || pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h)
        return "is shorter than an ELF header";
    if (memcmp(h.e_ident, ELFMAG, SELFMAG) != 0) return "is not an ELF file";
    const ElfW(Ehdr) *self = self_header();
    if (self && (h.e_ident[EI_CLASS] != self->e_ident[EI_CLASS] ||
                 h.e_ident[EI_DATA] != self->e_ident[EI_DATA] || h.e_machine != self->e_machine))
        return "is an ELF file for another machine";
    if (h.e_type != ET_DYN) return "is not an ELF shared object";
    if (h.e_version != EV_CURRENT || h.e_ehsize != sizeof h ||
        h.e_phentsize != sizeof(ElfW(Phdr)) || h.e_phnum == 0)
        return "has a corrupt ELF header";
    if (!inside(h.e_phoff, (uint64_t)h.e_phnum * sizeof(ElfW(Phdr)), size))
        return "is truncated: its program headers end past its end";
    if ((h.e_shoff || h.e_shnum) &&
        (h.e_shentsize != sizeof(ElfW(Shdr)) ||
         !inside(h.e_shoff, (uint64_t)h.e_shnum * sizeof(ElfW(Shdr)), size)))
        return "is truncated: its section headers end past its end";
    bool load = false, dynamic = false;
    for (unsigned i = 0; i < h.e_phnum; i++) {
        ElfW(Phdr) ph;
        if (pread(fd, &ph, sizeof ph, (off_t)(h.e_phoff + i * sizeof ph)) != (ssize_t)sizeof ph)
            return "cannot be read";
        if (ph.p_type != PT_LOAD && ph.p_type != PT_DYNAMIC) continue;
        if (!inside(ph.p_offset, ph.p_filesz, size))
            return "is truncated: a segment ends past its end";
        load |= ph.p_type == PT_LOAD;
        dynamic |= ph.p_type == PT_DYNAMIC;
    }
    return load && dynamic ? NULL : "has no loadable code";
}

/* The libraries loaded, one per file: each is loaded through /proc/self/fd/N of its checked
 * descriptor, which stays open while it is loaded. The loader knows a library by the names it
 * was opened by, so a number N closed while its library stayed loaded would make the next file
 * that gets descriptor N the old library; and a file already loaded is not loaded again. */
struct lib {
    void *dl;
    dev_t dev;
    ino_t ino;
    int fd;
    int refs;
};
static struct lib *loaded;
static size_t nloaded, loaded_size;

static void keep_unit(const char *name)
{
    uint64_t h;
    if (!name_stem(name, &h) || strcmp(name + 16, ".so") != 0) return;
    for (size_t i = 0; i < nkept; i++)
        if (kept[i] == h) return;
    if (nkept == kept_size) {
        size_t n = kept_size ? 2 * kept_size : 16;
        uint64_t *k = realloc(kept, n * sizeof *k);
        if (!k) return;
        kept = k;
        kept_size = n;
    }
    kept[nkept++] = h;
}

static bool is_kept(uint64_t h)
{
    for (size_t i = 0; i < nkept; i++)
        if (kept[i] == h) return true;
    return false;
}

/* Loads checked file fd (status st) or finds it loaded: the handle, or NULL with the reason in
 * err. It closes fd, or keeps it while the library is loaded. */
static void *lib_open(int fd, const struct stat *st, char *err, size_t size)
{
    pthread_mutex_lock(&lock);
    void *dl = NULL;
    for (size_t i = 0; i < nloaded && !dl; i++)
        if (loaded[i].dev == st->st_dev && loaded[i].ino == st->st_ino) {
            loaded[i].refs++;
            dl = loaded[i].dl;
        }
    if (dl) {
        close(fd);
        goto done;
    }
    if (nloaded == loaded_size) {
        size_t n = loaded_size ? 2 * loaded_size : 16;
        struct lib *l = realloc(loaded, n * sizeof *l);
        if (!l) {
            snprintf(err, size, "out of memory");
            close(fd);
            goto done;
        }
        loaded = l;
        loaded_size = n;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        const char *e = dlerror();
        snprintf(err, size, "cannot be loaded: %s", e ? e : "the loader refuses it");
        close(fd);
        goto done;
    }
    loaded[nloaded++] = (struct lib){dl, st->st_dev, st->st_ino, fd, 1};
done:
    pthread_mutex_unlock(&lock);
    return dl;
}

void jit_cache_unload(void *dl)
{
    if (!dl) return;
    pthread_mutex_lock(&lock);
    size_t i = 0;
    while (i < nloaded && loaded[i].dl != dl) i++;
    if (i == nloaded) {
        dlclose(dl);
    } else if (--loaded[i].refs == 0) {
        dlclose(dl);
        char path[64];
        snprintf(path, sizeof path, "/proc/self/fd/%d", loaded[i].fd);
        void *still = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
        if (still) /* kept loaded (by the loader's own rules): its number must not be reused */
            dlclose(still);
        else
            close(loaded[i].fd);
        loaded[i] = loaded[--nloaded];
    }
    pthread_mutex_unlock(&lock);
}

/* Opens name in folder dirfd to read, when it is a regular file of this user's that no one else
 * may write, not empty: never through a link, never blocking on a FIFO. The descriptor, with its
 * status in *st; -1 with errno ENOENT where there is no such name; else -1 with what is wrong in
 * reason. */
static int open_own(int dirfd, const char *name, struct stat *st, char *reason, size_t size)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        snprintf(reason, size, "%s", err == ELOOP ? "is a symbolic link" : strerror(err));
        errno = err;
        return -1;
    }
    const char *problem = NULL;
    if (fstat(fd, st) != 0)
        problem = strerror(errno);
    else if (S_ISFIFO(st->st_mode))
        problem = "is a FIFO";
    else if (!S_ISREG(st->st_mode))
        problem = "is not a regular file";
    else if (st->st_uid != geteuid())
        problem = "belongs to another user";
    else if (st->st_mode & (S_IWGRP | S_IWOTH))
        problem = "may be written by other users";
    else if (st->st_size == 0)
        problem = "is empty";
    if (!problem) return fd;
    snprintf(reason, size, "%s", problem);
    close(fd);
    errno = EINVAL;
    return -1;
}

/* Removes name from folder dirfd, a folder at that name too. */
static void remove_unfit(int dirfd, const char *name)
{
    if (unlinkat(dirfd, name, 0) != 0 && errno == EISDIR) unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* Loads name in folder fd (at path, for messages), as jit_cache_load says. */
static int load_at(int dirfd, const char *dirpath, const char *name, const char *sym, void **dl,
                   void **fn, char **why)
{
    *dl = *fn = NULL;
    char reason[700];
    struct stat st;
    int fd = open_own(dirfd, name, &st, reason, sizeof reason);
    if (fd < 0) {
        if (errno == ENOENT) return 1;
        goto bad;
    }
    const char *problem = elf_problem(fd, (uint64_t)st.st_size);
    if (problem) {
        snprintf(reason, sizeof reason, "%s", problem);
        close(fd);
        goto bad;
    }
    futimens(fd, NULL); /* used now: the last the size cap removes */
    void *h = lib_open(fd, &st, reason, sizeof reason);
    if (!h) goto bad;
    void *p = dlsym(h, sym);
    if (!p) {
        jit_cache_unload(h);
        snprintf(reason, sizeof reason, "has no %s", sym);
        goto bad;
    }
    pthread_mutex_lock(&lock);
    keep_unit(name);
    pthread_mutex_unlock(&lock);
    *dl = h;
    *fn = p;
    return 0;
bad:
    remove_unfit(dirfd, name);
    if (asprintf(why, "%s/%s %s", dirpath, name, reason) < 0) *why = NULL;
    return -1;
}

int jit_cache_load(const struct jit_folder *dir, const char *name, const char *sym, void **dl,
                   void **fn, char **why)
{
    return load_at(dir->fd, dir->path, name, sym, dl, fn, why);
}

/* Writes text whole to fd: false, with errno, when a write failed. */
static bool write_all(int fd, const char *text)
{
    for (size_t n = strlen(text), done = 0; done < n;) {
        ssize_t w = write(fd, text + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        done += (size_t)w;
    }
    return true;
}

int jit_cache_write(const struct jit_folder *dir, const char *text, const struct jit_unit *u,
                    char own_name[JIT_NAME_MAX], char **why)
{
    char r[9];
    random_hex(r);
    snprintf(own_name, JIT_NAME_MAX, "%.16s.%ld.%s.c", u->so, (long)getpid(), r);
    int fd = openat(dir->fd, own_name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    bool ok = fd >= 0 && write_all(fd, text);
    int err = errno;
    if (fd >= 0 && close(fd) != 0 && ok) ok = false, err = errno;
    if (ok) return 0;
    if (fd >= 0) unlinkat(dir->fd, own_name, 0);
    if (asprintf(why, "cannot write %s/%s: %s", dir->path, own_name, strerror(err)) < 0)
        *why = NULL;
    return -1;
}

/* ---- notes ------------------------------------------------------------------------------ */

long jit_cache_read_note(const struct jit_folder *dir, const char *name, char *buf, size_t size)
{
    char reason[200];
    struct stat st;
    int fd = open_own(dir->fd, name, &st, reason, sizeof reason);
    if (fd < 0) {
        if (errno != ENOENT) remove_unfit(dir->fd, name);
        return -1;
    }
    size_t n = 0;
    bool ok = size > 0 && (unsigned long long)st.st_size < size;
    while (ok && n + 1 < size) {
        ssize_t r = read(fd, buf + n, size - 1 - n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            ok = r == 0;
            break;
        }
        n += (size_t)r;
    }
    close(fd);
    if (!ok) {
        remove_unfit(dir->fd, name);
        return -1;
    }
    buf[n] = '\0';
    return (long)n;
}

int jit_cache_write_note(const struct jit_folder *dir, const char *name, const char *text)
{
    /* a temporary name of this process's own, as a unit's (a stem of zeros, never a unit's
     * hash's), so that a process killed before the rename leaves a file the next opening
     * removes; the rename replaces the note whole, so that no reader sees half of it */
    char own_name[JIT_NAME_MAX], r[9];
    random_hex(r);
    snprintf(own_name, sizeof own_name, "0000000000000000.%ld.%s.note", (long)getpid(), r);
    int fd = openat(dir->fd, own_name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    bool ok = fd >= 0 && write_all(fd, text);
    if (fd >= 0 && close(fd) != 0) ok = false;
    if (ok && renameat(dir->fd, own_name, dir->fd, name) == 0) return 0;
    if (fd >= 0) unlinkat(dir->fd, own_name, 0);
    return -1;
}

/* ---- the size cap ----------------------------------------------------------------------- */

struct entry {
    uint64_t h;
    unsigned long long bytes;
    struct timespec used; /* the shared object's time (touched when loaded), else the C's */
    bool has_so;
};

struct entries {
    struct entry *e;
    size_t n, size;
    unsigned long long total;
};

static void add_entry(int fd, const char *name, void *arg)
{
    struct entries *es = arg;
    uint64_t h;
    bool so = name_stem(name, &h) && strcmp(name + 16, ".so") == 0;
    if (!so && !(name_stem(name, &h) && strcmp(name + 16, ".c") == 0)) return;
    struct stat st;
    if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) return;
    size_t i = 0;
    while (i < es->n && es->e[i].h != h) i++;
    if (i == es->n) {
        if (es->n == es->size) {
            size_t n = es->size ? 2 * es->size : 64;
            struct entry *e = realloc(es->e, n * sizeof *e);
            if (!e) return;
            es->e = e;
            es->size = n;
        }
        es->e[es->n++] = (struct entry){.h = h};
    }
    struct entry *e = &es->e[i];
    e->bytes += (unsigned long long)st.st_size;
    es->total += (unsigned long long)st.st_size;
    if (so || !e->has_so) e->used = st.st_mtim;
    e->has_so |= so;
}

static int by_use(const void *a, const void *b)
{
    const struct timespec *x = &((const struct entry *)a)->used,
                          *y = &((const struct entry *)b)->used;
    if (x->tv_sec != y->tv_sec) return x->tv_sec < y->tv_sec ? -1 : 1;
    return x->tv_nsec < y->tv_nsec ? -1 : x->tv_nsec > y->tv_nsec;
}

/* Keeps folder fd under the size cap: the units used least recently go first, never one this
 * process has loaded nor the one just built (built). */
static void trim(int fd, const char *built)
{
    unsigned long long cap = cache_max();
    struct entries es = {0};
    each_name(fd, add_entry, &es);
    if (es.total > cap) {
        uint64_t just = 0;
        name_stem(built, &just);
        qsort(es.e, es.n, sizeof *es.e, by_use);
        pthread_mutex_lock(&lock);
        for (size_t i = 0; i < es.n && es.total > cap; i++) {
            if (es.e[i].h == just || is_kept(es.e[i].h)) continue;
            char name[JIT_NAME_MAX];
            snprintf(name, sizeof name, "%016llx.so", (unsigned long long)es.e[i].h);
            unlinkat(fd, name, 0);
            snprintf(name, sizeof name, "%016llx.c", (unsigned long long)es.e[i].h);
            unlinkat(fd, name, 0);
            es.total -= es.e[i].bytes;
        }
        pthread_mutex_unlock(&lock);
    }
    free(es.e);
}

/* ---- compiler jobs ---------------------------------------------------------------------- */

/* One run of a compiler on a unit's C. Its files are named relative to its folder, which is the
 * compiler's working folder. gcc's builds run in two steps where they can (link_libs): the
 * compiler makes an object (obj), then ld links it. */
struct jit_job {
    pid_t pid;    /* the supervisor (spawn), leader of the job's process group; 0: none */
    int dir, log; /* the folder (a descriptor of the job's own) and the compiler's output */
    bool quick;   /* tcc's build: one step, a temporary shared object (out) */
    bool linking; /* the second step runs */
    int result;   /* jit_job_finish's once the job has ended; 1 before */
    double start; /* when it started (now_s), and how long it may run */
    double limit;
    char src[JIT_NAME_MAX];  /* its input */
    char keep[JIT_NAME_MAX]; /* where src is renamed to when it succeeds ("": src is left alone) */
    char out[JIT_NAME_MAX];  /* the shared object, renamed there from tmp when it succeeds */
    char tmp[JIT_NAME_MAX], logname[JIT_NAME_MAX];
    char obj[JIT_NAME_MAX];  /* the object file the compiler makes ("": one step) */
    char path[PATH_SIZE];    /* the folder's */
    char cc[PATH_SIZE];      /* the compiler (found on PATH): it links where ld cannot be run */
    char ld[256];            /* ld, or the one $MT_LD names */
    char libs[2][PATH_SIZE]; /* what ld links it with */
};

/* The files of the OpenMP runtime and of libm that this process has loaded, into libs: gcc's
 * builds are then linked by ld against them alone, not through the compiler's driver, which
 * links the C library's start files and every library a program may need, in twice ld's time
 * (bench/results/jit-*). The two are named so that the unit's references carry their
 * versions: an unversioned exp or pow binds to the C library's oldest one, a slower wrapper
 * kept for old programs. 0, or -1 where either is not in a library of its own (then the driver
 * links). */
static int link_libs(char libs[2][PATH_SIZE])
{
    static const char *const sym[2] = {"GOMP_parallel", "exp"};
    Dl_info self, lib;
    if (!dladdr((const void *)sym, &self) || !self.dli_fname) return -1;
    for (int i = 0; i < 2; i++) {
        void *p = dlsym(RTLD_DEFAULT, sym[i]);
        if (!p || !dladdr(p, &lib) || !lib.dli_fname || *lib.dli_fname != '/' ||
            strcmp(lib.dli_fname, self.dli_fname) == 0 ||
            snprintf(libs[i], PATH_SIZE, "%s", lib.dli_fname) >= PATH_SIZE)
            return -1;
    }
    return 0;
}

/* The program name runs as (as execvp would find it), into out: a compiler runs in the cache
 * folder, so a relative path becomes absolute. Whether there is one. */
static bool find_program(const char *name, char *out, size_t size)
{
    char cwd[PATH_SIZE];
    if (strchr(name, '/')) {
        int n = name[0] == '/'            ? snprintf(out, size, "%s", name)
                : getcwd(cwd, sizeof cwd) ? snprintf(out, size, "%s/%s", cwd, name)
                                          : -1;
        return n > 0 && (size_t)n < size && access(out, X_OK) == 0;
    }
    const char *path = getenv("PATH");
    if (!path || !*path) path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;; p++) {
        size_t len = strcspn(p, ":");
        int n; /* "" or a relative entry: from the working folder */
        if (len == 0 || p[0] != '/')
            n = getcwd(cwd, sizeof cwd) ? snprintf(out, size, "%s/%.*s/%s", cwd, (int)len, p, name)
                                        : -1;
        else
            n = snprintf(out, size, "%.*s/%s", (int)len, p, name);
        struct stat st;
        if (n > 0 && (size_t)n < size && stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
            access(out, X_OK) == 0)
            return true;
        p += len;
        if (!*p) return false;
    }
}

/* The supervisor's answer to its parent's death: the job's whole group goes. */
static void on_parent_death(int sig)
{
    (void)sig;
    kill(0, SIGKILL);
}

/* The supervisor, a child of the kernel's: it leads the job's process group, runs the compiler
 * in it (argv, program prog) in the folder dir, its output into log, and ends with its status.
 * Its parent's death sends it SIGTERM (PR_SET_PDEATHSIG), on which it kills the group: the
 * compiler's driver, cc1, as and ld alike, which a death signal on the driver alone would leave
 * running. The death signal comes when the thread that forked it ends: the interpreter's, which
 * lives as long as the kernel. Between fork and exit it only makes calls that are safe in the
 * child of a process with threads; it shares the kernel's memory copy-on-write and writes none
 * of it, and the compiler itself is started with vfork, which copies nothing. */
static _Noreturn void supervise(int dir, int log, int in, pid_t parent, const char *prog,
                                char *const *argv)
{
    setpgid(0, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_parent_death;
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = SIG_DFL; /* its own child must be waited for */
    sigaction(SIGCHLD, &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) kill(0, SIGKILL); /* the kernel ended before the line above */
    if (fchdir(dir) != 0 || dup2(in, 0) < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0) _exit(126);
    umask(077); /* what the compiler writes is the user's alone */
    pid_t c = vfork();
    if (c == 0) {
#ifdef SYS_close_range
        syscall(SYS_close_range, 3u, ~0u, 0u); /* none of the kernel's sockets and files */
#endif
        execv(prog, argv);
        static const char msg[] = "cannot run the compiler\n";
        if (write(2, msg, sizeof msg - 1) < 0) {}
        _exit(127);
    }
    int status = 0;
    while (c > 0 && waitpid(c, &status, 0) < 0)
        if (errno != EINTR) _exit(126);
    if (c < 0) _exit(126);
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/* Starts argv (program prog) for job j under a supervisor: 0, or an errno. */
static int spawn(struct jit_job *j, const char *prog, char *const *argv)
{
    pid_t parent = getpid();
    int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (in < 0) return errno;
    pid_t pid = fork();
    if (pid == 0) supervise(j->dir, j->log, in, parent, prog, argv);
    int err = errno;
    close(in);
    if (pid < 0) return err;
    setpgid(pid, pid); /* as the child does: the group exists whichever runs first */
    j->pid = pid;
    return 0;
}

static void remove_files(struct jit_job *j)
{
    unlinkat(j->dir, j->tmp, 0);
    unlinkat(j->dir, j->logname, 0);
    if (*j->obj) unlinkat(j->dir, j->obj, 0);
    if (*j->keep) unlinkat(j->dir, j->src, 0);
}

/* Kills job j's processes, if any run, and waits for its supervisor. */
static void kill_job(struct jit_job *j)
{
    if (j->pid <= 0) return;
    kill(-j->pid, SIGKILL);
    while (waitpid(j->pid, NULL, 0) < 0 && errno == EINTR) {}
    j->pid = 0;
}

static void job_close(struct jit_job *j)
{
    if (j->log >= 0) close(j->log);
    if (j->dir >= 0) close(j->dir);
    free(j);
}

struct jit_job *jit_job_start(const struct jit_folder *dir, const char *cc, bool quick,
                              const char *const *flags, size_t nflags, const char *src,
                              const struct jit_unit *u, char **why)
{
    struct jit_job *j = calloc(1, sizeof *j);
    if (!j) {
        *why = strdup("out of memory");
        return NULL;
    }
    j->log = -1;
    j->result = 1;
    j->dir = fcntl(dir->fd, F_DUPFD_CLOEXEC, 3);
    j->quick = quick;
    snprintf(j->path, sizeof j->path, "%s", dir->path);
    char r[9];
    random_hex(r);
    long pid = (long)getpid();
    snprintf(j->src, sizeof j->src, "%s", src);
    snprintf(j->tmp, sizeof j->tmp, "%.16s.%ld.%s.%s", u->so, pid, r, quick ? "quick.so" : "tmp");
    snprintf(j->logname, sizeof j->logname, "%.16s.%ld.%s.log", u->so, pid, r);
    snprintf(j->out, sizeof j->out, "%s", quick ? j->tmp : u->so);
    snprintf(j->keep, sizeof j->keep, "%s", quick ? "" : u->c);
    if (!find_program(cc, j->cc, sizeof j->cc)) {
        if (asprintf(why, "no C compiler: %s: %s (set MT_CC to one)", cc, strerror(ENOENT)) < 0)
            *why = NULL;
        job_close(j);
        return NULL;
    }
    const char *ld = getenv("MT_LD");
    bool split = !quick && link_libs(j->libs) == 0 &&
                 snprintf(j->ld, sizeof j->ld, "%s", ld && *ld ? ld : "ld") < (int)sizeof j->ld;
    if (split) snprintf(j->obj, sizeof j->obj, "%.16s.%ld.%s.o", u->so, pid, r);
    char *argv[48];
    const char *isa[JIT_MAX_ISA];
    size_t na = 0, nisa = quick ? 0 : jit_cache_isa(isa);
    argv[na++] = j->cc;
    for (size_t i = 0; i < nflags && na < 32; i++) { /* -shared is ld's part when it links */
        if (split && strcmp(flags[i], "-shared") == 0) continue;
        argv[na++] = (char *)flags[i];
    }
    for (size_t i = 0; i < nisa; i++) argv[na++] = (char *)isa[i];
    if (split) argv[na++] = "-c";
    argv[na++] = "-o";
    argv[na++] = split ? j->obj : j->tmp;
    argv[na++] = j->src;
    if (!split) argv[na++] = "-lm";
    argv[na] = NULL;
    j->log = j->dir < 0
                 ? -1
                 : openat(j->dir, j->logname,
                          O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int err = j->log < 0 ? errno : spawn(j, j->cc, argv);
    if (err != 0) {
        if (asprintf(why, "cannot start the C compiler %s: %s", cc, strerror(err)) < 0) *why = NULL;
        if (j->log >= 0) unlinkat(j->dir, j->logname, 0);
        job_close(j);
        return NULL;
    }
    j->start = now_s();
    j->limit = cc_timeout();
    return j;
}

/* The second step of gcc's build: ld links the object, or where ld cannot be run the compiler's
 * driver does. 0 when one started. */
static int link_step(struct jit_job *j)
{
    char ld[PATH_SIZE];
    char *ld_argv[] = {ld,         "-shared",  "-o", j->tmp, j->obj, "--as-needed",
                       j->libs[0], j->libs[1], NULL};
    char *driver[] = {j->cc, "-fopenmp", "-shared", "-o", j->tmp, j->obj, "-lm", NULL};
    if (find_program(j->ld, ld, sizeof ld) && spawn(j, ld, ld_argv) == 0) return 0;
    return spawn(j, j->cc, driver);
}

int jit_job_finish(struct jit_job *j, bool wait, char **why)
{
    if (j->result != 1) return j->result;
    int status = 0;
    while (j->pid > 0) {
        pid_t r = waitpid(j->pid, &status, WNOHANG);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) { /* reaped elsewhere: its file says how it went */
            const char *made = *j->obj && !j->linking ? j->obj : j->tmp;
            status = faccessat(j->dir, made, R_OK, 0) == 0 ? 0 : 1 << 8;
            r = j->pid;
        }
        if (r == j->pid) {
            j->pid = 0;
            if (*j->obj && !j->linking && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
                j->linking = true; /* the object is made: ld links it */
                if (link_step(j) == 0) continue;
                status = 1 << 8;
            }
            break;
        }
        if (now_s() - j->start > j->limit) {
            kill_job(j);
            remove_files(j);
            if (asprintf(why,
                         "the C compiler (%s) did not finish within %g s, and was stopped "
                         "(MT_JIT_CC_TIMEOUT sets the limit)",
                         j->cc, j->limit) < 0)
                *why = NULL;
            return j->result = -1;
        }
        if (!wait || mt_cancel_requested()) return 1;
        struct timespec ms = {0, 200000};
        nanosleep(&ms, NULL);
    }
    if (*j->obj) unlinkat(j->dir, j->obj, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
        (j->quick || renameat(j->dir, j->tmp, j->dir, j->out) == 0)) {
        unlinkat(j->dir, j->logname, 0);
        if (*j->keep && renameat(j->dir, j->src, j->dir, j->keep) != 0) unlinkat(j->dir, j->src, 0);
        if (!j->quick) trim(j->dir, j->out);
        return j->result = 0;
    }
    char msg[600] = "";
    ssize_t k = j->log >= 0 ? pread(j->log, msg, sizeof msg - 1, 0) : -1;
    msg[k > 0 ? k : 0] = 0;
    remove_files(j);
    if (asprintf(why, "the C compiler failed on the kernel's C (%s/%s): %s", j->path, j->src, msg) <
        0)
        *why = NULL;
    return j->result = -1;
}

int jit_job_load(struct jit_job *j, const char *sym, void **dl, void **fn, char **why)
{
    return load_at(j->dir, j->path, j->out, sym, dl, fn, why);
}

char *jit_job_path(const struct jit_job *j)
{
    char *p = NULL;
    if (asprintf(&p, "%s/%s", j->path, j->out) < 0) p = NULL;
    return p;
}

void jit_job_free(struct jit_job *j)
{
    if (!j) return;
    if (j->pid > 0) {
        jit_job_stop(j);
        return;
    }
    if (j->quick) unlinkat(j->dir, j->out, 0); /* loaded, or of no use */
    job_close(j);
}

void jit_job_stop(struct jit_job *j)
{
    if (!j) return;
    kill_job(j);
    remove_files(j);
    job_close(j);
}

void jit_job_drop(struct jit_job *j)
{
    if (!j) return;
    char *why = NULL;
    if (jit_job_finish(j, true, &why) == 1)
        jit_job_stop(j);
    else
        jit_job_free(j);
    free(why);
}
