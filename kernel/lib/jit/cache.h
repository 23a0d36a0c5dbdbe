/* jit/cache.h — where the code njit and cuda.jit compile is kept, and how it is built and loaded
 * (jit/cache.c; internal to kernel/lib, used by the compiler in jit/, and for its notes by
 * diagnostics.c): the user's private cache folder, a unit's names in it, compiler jobs, shared
 * objects loaded only after they are checked, the cap on the folder's size, and small notes.
 *
 * Every file operation is relative to the folder's descriptor, which was opened by a walk that
 * follows no link at its end and checked to be this user's alone: another user can neither
 * plant code the kernel loads nor make it write through a link. */
#ifndef KERNEL_LIB_JIT_CACHE_H
#define KERNEL_LIB_JIT_CACHE_H

#include <stdbool.h>
#include <stddef.h>

/* The longest name of a file in the folder, with its terminating 0. */
#define JIT_NAME_MAX 64

/* An open cache folder. */
struct jit_folder;

/* The folder the environment names into buf: $XDG_CACHE_HOME/minitorch-kernel/jit, else
 * $HOME/.cache/minitorch-kernel/jit, where HOME, when it is unset, empty, "/" or not this user's
 * folder, is the user's home from the password database. 0, or -1 when there is no home (or buf
 * is too small): only a folder of the process's own can then be used. */
int jit_cache_default_path(char *buf, size_t size);

/* Opens the folder the environment names (again when it changes), made where missing: the
 * folder, or NULL with the reason in *why (malloc'ed). Where that folder is not the user's alone
 * (another user's, a link, in a folder others may write without the sticky bit) or there is no
 * home, a folder of this process's own is used instead, removed when the process exits, and
 * *note (when note is not NULL) says so, once per refused folder; else *note is NULL. Temporary
 * files of processes no longer running are removed when a folder is first opened. */
struct jit_folder *jit_cache_open(char **note, char **why);

/* "<folder>/<name>" (malloc'ed), to show or to hand to a tool that reads it. */
char *jit_cache_path(const struct jit_folder *dir, const char *name);

/* Removes the folder's file name. */
void jit_cache_remove(const struct jit_folder *dir, const char *name);

/* A unit's names in the folder: its shared object and its C, by a hash of its C text, the
 * compiler's flags and the processor's options gcc is given (jit_cache_isa). */
struct jit_unit {
    char so[JIT_NAME_MAX], c[JIT_NAME_MAX];
};
void jit_unit_names(const char *text, const char *const *flags, size_t nflags, struct jit_unit *u);

/* The options for this processor's instruction sets that gcc's builds are given (the code runs
 * where it is compiled): how many, into out (at most JIT_MAX_ISA). */
#define JIT_MAX_ISA 9
size_t jit_cache_isa(const char **out);

/* Loads the folder's shared object name, after checking it: a regular file of this user's that
 * no one else may write, not empty, an ELF shared object for this machine whose headers lie
 * inside it; loaded from the descriptor that was checked, never by its name again. 0 with the
 * handle in *dl and the address of symbol sym in *fn; 1 when there is no such file; -1 when the
 * file is unfit (a link, a FIFO, another user's, truncated, corrupt, or the loader refuses it or
 * it lacks sym): it is removed, and *why says what was wrong. Never blocks on a FIFO. A unit
 * loaded is touched (its time is the cache's order of use) and kept by the size cap for the rest
 * of the process. */
int jit_cache_load(const struct jit_folder *dir, const char *name, const char *sym, void **dl,
                   void **fn, char **why);
/* Releases a handle jit_cache_load or jit_job_load gave (NULL: nothing). */
void jit_cache_unload(void *dl);

/* Writes text into a new file of the folder, of this process's own (the unit's hash, the
 * process and a random number; made with O_EXCL, never through a link), its name into own: 0,
 * or -1 with the reason in *why. */
int jit_cache_write(const struct jit_folder *dir, const char *text, const struct jit_unit *u,
                    char own[JIT_NAME_MAX], char **why);

/* A note: a small text file of the folder other than a unit's, which the size cap leaves alone
 * (the machine's peaks, lib/diagnostics.c). jit_cache_read_note reads the folder's file name,
 * checked as jit_cache_load checks a unit (a regular file of this user's that no one else may
 * write, not empty, never through a link or blocking on a FIFO) and shorter than size, into buf
 * with a terminating 0: its length, or -1 when there is none or it is unfit (then removed).
 * jit_cache_write_note replaces the file name by text whole (a rename of a file of this process's
 * own): 0, or -1. */
long jit_cache_read_note(const struct jit_folder *dir, const char *name, char *buf, size_t size);
int jit_cache_write_note(const struct jit_folder *dir, const char *name, const char *text);

/* A compiler's run on a unit's C: the compiler in a process group of its own, which is killed
 * when it runs past $MT_JIT_CC_TIMEOUT seconds (120 by default), when it is stopped, and when
 * the kernel's process ends, however it ends. */
struct jit_job;

/* Starts compiler cc (a program on PATH, or a path) with flags on the folder's file src (a
 * jit_cache_write). A full build (quick false: gcc's) adds the processor's options, is linked by
 * ld where it can be (else by cc), and when it succeeds becomes the unit's shared object, src its
 * C; the folder is then trimmed to $MT_JIT_CACHE_MAX bytes (512 MiB by default), the units used
 * least recently going first, never one this process has loaded. A quick build (tcc's) makes a
 * temporary shared object, removed when the job is freed, and leaves src alone. The job, or NULL
 * with the reason in *why. */
struct jit_job *jit_job_start(const struct jit_folder *dir, const char *cc, bool quick,
                              const char *const *flags, size_t nflags, const char *src,
                              const struct jit_unit *u, char **why);
/* Collects job j: 0 when it succeeded, -1 when it failed or ran past its time (it is then
 * stopped; *why says so, malloc'ed), 1 while it runs: when wait is false, or when an interrupt
 * (mt_cancel_requested) stopped the wait, after which the caller stops it (jit_job_stop). */
int jit_job_finish(struct jit_job *j, bool wait, char **why);
/* Loads what job j built (after jit_job_finish gave 0), as jit_cache_load does. */
int jit_job_load(struct jit_job *j, const char *sym, void **dl, void **fn, char **why);
/* The path of what job j builds (malloc'ed). */
char *jit_job_path(const struct jit_job *j);
/* Frees job j once jit_job_finish gave 0 or -1. */
void jit_job_free(struct jit_job *j);
/* Stops job j: its processes killed, its files removed; frees it. */
void jit_job_stop(struct jit_job *j);
/* Waits for job j, so that what it builds is cached (unless an interrupt stops the wait, or its
 * time runs out: then it is stopped), and frees it. NULL: nothing. */
void jit_job_drop(struct jit_job *j);

#endif
