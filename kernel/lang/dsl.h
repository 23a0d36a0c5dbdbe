/* dsl.h — the public API of the MiniTorch language (kernel/lang).
 *
 * The language is Python-like (docs/ARCHITECTURE.md). This layer knows nothing about sockets:
 * it reads source text and reports what a cell produced through a `struct dsl_output` sink that
 * the caller provides (the Jupyter server publishes to IOPub; `minitorch-kernel run` prints to
 * the terminal; tests collect into arrays). Rich values travel as Jansson mime bundles
 * (`{"text/plain": "...", ...}`), the only Jansson objects that cross this boundary.
 *
 *     struct dsl_session *s = dsl_session_new();
 *     json_t *result = NULL;
 *     struct dsl_error err = {0};
 *     if (dsl_execute(s, "x = 6\nx * 7", &sink, &result, &err) == 0) { ... result ... }
 *     else { ... err.ename, err.evalue, err.traceback ...; dsl_error_clear(&err); }
 *     json_decref(result);
 *     dsl_session_free(s);
 *
 * Positions (cursor, start, end) are byte offsets into UTF-8 source; the Jupyter layer converts
 * them from and to the protocol's code-point offsets.
 *
 * Tensors: a session owns one engine context (`struct mt_ctx`: default backend, threads,
 * memory limit, random generator) that every tensor of the session is made with; engine
 * errors become exceptions named by mt_status_ename (ShapeError, ...). A line starting with
 * `%` is a magic (%backend, %threads).
 *
 * Cancellation: every loop, every wait (sleep, input) and every tensor op polls
 * mt_cancel_requested() and ends the cell with a KeyboardInterrupt error. The caller clears the
 * flag before a request.
 */
#ifndef KERNEL_LANG_DSL_H
#define KERNEL_LANG_DSL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Where a running cell sends its side output. Every callback may be NULL: that output is then
 * dropped (input then fails with a StdinNotImplementedError). Callbacks borrow their arguments. */
struct dsl_output {
    void *ctx; /* handed back to every callback */
    /* name is "stdout" or "stderr"; text is UTF-8 and may hold several lines */
    void (*stream)(void *ctx, const char *name, const char *text);
    /* data: a mime bundle; display_id: NULL or the transient display id; update: true for
     * update_display_data (a display that replaces the one shown under display_id) */
    void (*display)(void *ctx, json_t *data, const char *display_id, bool update);
    /* clears the cell's output; wait: clear only when the next output arrives */
    void (*clear_output)(void *ctx, bool wait);
    /* a pager payload (help(...)): data is a mime bundle */
    void (*page)(void *ctx, json_t *data);
    /* Reads one line typed by the user. Returns 0 and a malloc'd *line (caller frees), or -1
     * when no input can be had, with *why set to a static message (stdin not allowed, or the
     * request was interrupted: then mt_cancel_requested() is true). */
    int (*input)(void *ctx, const char *prompt, bool password, char **line, const char **why);
    /* Sends any output the sink buffered. Called before the cell blocks (sleep, input) so that
     * what it printed reaches the user before the wait, and every 50 ms from inside loops. */
    void (*flush)(void *ctx);
    /* The user ran %reset: the frontend layer forgets what it keeps of past cells (the
     * kernel's input history) as IPython's %reset clears In and Out. */
    void (*reset)(void *ctx);
};

/* A user-level error: what Jupyter's `error` message carries. All fields owned by the struct. */
struct dsl_error {
    char *ename;       /* "SyntaxError", "NameError", "TypeError", "KeyboardInterrupt", ... */
    char *evalue;      /* the message, one line */
    json_t *traceback; /* array of strings, one line each; the last is "ename: evalue" */
};

struct dsl_session; /* variables and interpreter state of one kernel; opaque */

/* A new, empty session. Returns NULL only when memory is exhausted. Free with dsl_session_free. */
struct dsl_session *dsl_session_new(void);
void dsl_session_free(struct dsl_session *s);

/* The execution count (Jupyter's In[n]) of the cells run from now on. Tracebacks then name
 * cells as IPython does, "Cell In[n], line L" (and a function's frame names the cell that
 * defined it, however long ago); with 0, the default, they say "Cell line L". */
void dsl_session_set_execution_count(struct dsl_session *s, long n);

/* Forgets every user variable and function (%reset), releasing the tensors they held; builtins
 * and the engine settings (backend, threads, random generator) stay. */
void dsl_session_reset(struct dsl_session *s);

/* Runs a cell. Returns 0 on success and sets *result to a new mime bundle for the value of the
 * cell's last expression statement, or NULL when there is none (no expression last, a trailing
 * ';', or the value is none). Returns -1 on an error and fills *err (free with
 * dsl_error_clear); variables assigned before the error keep their values.
 * A cell whose text starts with DSL_SKIP_CELL is another kernel's and is not run (0, no
 * output): the course notebooks' first cell is Python that sets the kernel up in Google Colab,
 * whose runtime runs it before this kernel is installed. */
#define DSL_SKIP_CELL "# minitorch: skip-cell"
int dsl_execute(struct dsl_session *s, const char *code, const struct dsl_output *out,
                json_t **result, struct dsl_error *err);

/* Evaluates one expression (user_expressions) without output. 0 and a new mime bundle in
 * *result, or -1 and *err. */
int dsl_evaluate(struct dsl_session *s, const char *expr, json_t **result, struct dsl_error *err);

/* Whether `code` is a whole cell: returns "complete", "incomplete" (an open bracket, string or
 * block header; *indent then points to a static string with the indentation for the next line)
 * or "invalid" (a lexical error). Never runs anything. */
const char *dsl_is_complete(const char *code, const char **indent);

/* Completion at byte offset `cursor`: returns a new array of candidate strings (sorted, no
 * duplicates; empty when nothing fits) and sets [*start, *end) to the byte range they replace. */
json_t *dsl_complete(struct dsl_session *s, const char *code, size_t cursor, size_t *start,
                     size_t *end);

/* Documentation of the name under or just before byte offset `cursor`: a new mime bundle
 * ("text/plain" at least), or NULL when that name is unknown. detail_level 0 or 1. */
json_t *dsl_inspect(struct dsl_session *s, const char *code, size_t cursor, int detail_level);

/* Frees the fields of *err and zeroes it; safe on a zeroed struct. */
void dsl_error_clear(struct dsl_error *err);

#endif
