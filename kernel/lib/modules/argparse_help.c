/* argparse_help.c — argparse's help and usage text, as CPython 3.11's HelpFormatter writes it:
 * the usage line (wrapped past WIDTH columns as CPython wraps it), each argument's invocation
 * and help (its %(default)s and the like expanded, wrapped beside the help column), the
 * description and epilog. Apart from parsing, which calls it only for -h, errors' usage line
 * and version, since the layout rules are a body of their own: every column and line break
 * here is CPython's, for output that matches a script run by python3. */
#include "lib/modules/argparse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends text's lines as textwrap.wrap makes them of at most `width` columns (whitespace
 * collapsed; a word split after a hyphen between letters, a word longer than a line cut), the
 * first started by `first` spaces, the others by `rest`, each ended by '\n'. */
void ap_wrap(struct render_buf *b, const char *text, size_t width, size_t first, size_t rest)
{
    /* the chunks: words (or their hyphenated parts) and the single spaces between them */
    size_t cap = strlen(text) + 1, n = 0;
    struct chunk {
        const char *s;
        size_t len;
    } *c = malloc(cap * sizeof *c);
    if (!c) {
        b->nomem = true;
        return;
    }
    const char *s = text;
    while (isspace((unsigned char)*s)) s++;
    while (*s) {
        if (isspace((unsigned char)*s)) {
            while (isspace((unsigned char)*s)) s++;
            if (*s) c[n++] = (struct chunk){" ", 1};
            continue;
        }
        size_t len = 0;
        while (s[len] && !isspace((unsigned char)s[len])) {
            len++;
            if (s[len - 1] == '-' && len >= 3 && isalpha((unsigned char)s[len - 2]) &&
                isalpha((unsigned char)s[len - 3]) && isalpha((unsigned char)s[len]) &&
                isalpha((unsigned char)s[len + 1]))
                break;
        }
        c[n++] = (struct chunk){s, len};
        s += len;
    }
    size_t i = 0;
    bool first_line = true;
    while (i < n) {
        size_t indent = first_line ? first : rest;
        if (!first_line && c[i].s[0] == ' ' && c[i].len == 1) i++; /* no space starts a line */
        if (i == n) break;
        size_t line = i, used = 0;
        while (i < n && used + c[i].len <= width) used += c[i++].len;
        size_t cut = 0; /* a word too long for any line fills this one, up to a hyphen in it */
        if (i < n && c[i].len > width && used < width) {
            cut = width - used;
            for (size_t h = cut - 1; h > 0; h--)
                if (c[i].s[h] == '-' && strspn(c[i].s, "-") < h) {
                    cut = h + 1;
                    break;
                }
        }
        size_t end = i;
        while (end > line && !cut && c[end - 1].s[0] == ' ' && c[end - 1].len == 1) end--;
        render_buf_printf(b, "%*s", (int)indent, "");
        for (size_t k = line; k < end; k++) render_buf_printf(b, "%.*s", (int)c[k].len, c[k].s);
        if (cut) {
            render_buf_printf(b, "%.*s", (int)cut, c[i].s);
            c[i].s += cut;
            c[i].len -= cut;
        }
        render_buf_putc(b, '\n');
        first_line = false;
    }
    free(c);
}

/* `text % params`, CPython's printf-style formatting by name, as help strings and usage are
 * expanded: %(name)s (str), %(name)r (repr), %(name)d, %%. The names are a's attributes (a
 * class or function by its __name__, choices joined by ", ") and prog. */
int ap_expand(struct dsl_interp *in, struct render_buf *b, const char *text, const struct act *a,
              const char *prog)
{
    for (const char *s = text; *s; s++) {
        if (*s != '%') {
            render_buf_putc(b, *s);
            continue;
        }
        if (s[1] == '%') {
            render_buf_putc(b, '%');
            s++;
            continue;
        }
        if (s[1] != '(') {
            if (!s[1]) return dsl_raise(in, "ValueError", "incomplete format");
            return dsl_raise(in, "ValueError",
                             "unsupported format character '%c' (0x%x) at index %zu", s[1],
                             (unsigned char)s[1], (size_t)(s + 1 - text));
        }
        const char *name = s + 2, *close = strchr(name, ')');
        if (!close) return dsl_raise(in, "ValueError", "incomplete format key");
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(close - name), name);
        const char *spec = close + 1;
        while (*spec && strchr("-+ #0123456789.", *spec)) spec++; /* flags and width: ignored */
        char conv = *spec;
        if (!conv) return dsl_raise(in, "ValueError", "incomplete format");
        if (!strchr("rsdi", conv))
            return dsl_raise(in, "ValueError",
                             "unsupported format character '%c' (0x%x) at index %zu", conv,
                             (unsigned char)conv, (size_t)(spec - text));
        bool is_prog = strcmp(key, "prog") == 0;
        size_t at = 0;
        while (a && at < NATTRS && strcmp(ap_action_attrs[at], key) != 0) at++;
        struct dsl_value v = a && at < NATTRS ? get(a->v, key) : dsl_none();
        if (!is_prog && (!a || at == NATTRS || is_suppress(v))) {
            char rs[128];
            return dsl_raise(in, "KeyError", "%s", ap_repr_of(key, rs, sizeof rs));
        }
        /* the parameter, as CPython's _expand_help makes it: a name for what has one, the
         * choices joined by ", " */
        struct render_buf t;
        render_buf_init(&t, DSL_MAX_REPR_BYTES);
        bool named = true, made = false;
        int st = DSL_V_OK;
        if (is_prog) {
            render_buf_puts(&t, prog);
        } else if (v.kind == DSL_CLASS || v.kind == DSL_FUNCTION || v.kind == DSL_BUILTIN) {
            ap_type_name(&t, v);
        } else if (strcmp(key, "choices") == 0 && v.kind != DSL_NONE) {
            struct dsl_iter it;
            if (dsl_iter_init(in, v, &it) != 0) {
                render_buf_free(&t);
                return -1;
            }
            struct dsl_value item;
            int got = 0, k = 0;
            while (st == DSL_V_OK && (got = dsl_iter_next(in, &it, &item)) == 1) {
                if (k++) render_buf_puts(&t, ", ");
                st = dsl_value_str(&t, item);
                dsl_value_release(item);
            }
            dsl_iter_end(&it);
            if (st == DSL_V_OK && got < 0) st = DSL_V_RAISED;
        } else {
            named = false;
        }
        struct dsl_value param = v;
        if (st == DSL_V_OK && named) {
            st = dsl_str_value(render_buf_str(&t), t.len, &param);
            made = st == DSL_V_OK;
        }
        render_buf_free(&t);
        if (st == DSL_V_RAISED) return -1;
        if (st == DSL_V_OK && (conv == 'd' || conv == 'i') && !dsl_is_number(param)) {
            if (made) dsl_value_release(param);
            return dsl_raise(in, "TypeError", "%%%c format: a real number is required, not %s",
                             conv, dsl_type_name(param));
        }
        if (st == DSL_V_OK && conv == 'r')
            st = dsl_value_repr(b, param);
        else if (st == DSL_V_OK && conv == 's')
            st = dsl_value_str(b, param);
        else if (st == DSL_V_OK)
            render_buf_printf(b, "%lld", (long long)dsl_as_double(param));
        if (made) dsl_value_release(param);
        if (st != DSL_V_OK) return dsl_raise_status(in, st);
        s = spec;
    }
    return buf_check(in, b);
}

/* The strings of a's metavar for `count` values: its own (a string, or a tuple of them), else
 * {choice,...}, else dflt. A tuple of the wrong length is CPython's ValueError. */
static int metavars(struct dsl_interp *in, const struct act *a, const char *dflt, size_t count,
                    struct render_buf *one, const char **parts)
{
    if (dsl_is_tuple(a->metavar)) {
        const struct dsl_list *t = a->metavar.as.l;
        if (t->len != count)
            return dsl_raise(in, "ValueError", "length of metavar tuple does not match nargs");
        for (size_t i = 0; i < count; i++) {
            if (t->items[i].kind != DSL_STR)
                return dsl_raise(in, "TypeError", "a metavar is a string or a tuple of strings");
            parts[i] = t->items[i].as.s->data;
        }
        return 0;
    }
    if (cstr(a->metavar)) {
        render_buf_puts(one, cstr(a->metavar));
    } else if (a->choices.kind != DSL_NONE) {
        struct dsl_iter it;
        if (dsl_iter_init(in, a->choices, &it) != 0) return -1;
        struct dsl_value item;
        int got = 0, k = 0, st = DSL_V_OK;
        render_buf_putc(one, '{');
        while (st == DSL_V_OK && (got = dsl_iter_next(in, &it, &item)) == 1) {
            if (k++) render_buf_putc(one, ',');
            st = dsl_value_str(one, item);
            dsl_value_release(item);
        }
        dsl_iter_end(&it);
        if (st != DSL_V_OK) return dsl_raise_status(in, st);
        if (got < 0) return -1;
        render_buf_putc(one, '}');
    } else {
        render_buf_puts(one, dflt);
    }
    if (buf_check(in, one) != 0) return -1;
    for (size_t i = 0; i < count; i++) parts[i] = render_buf_str(one);
    return 0;
}

/* CPython's _format_args: how the values of a show in usage and help (X, [X], [X ...],
 * X [X ...], X X). */
int ap_format_args(struct dsl_interp *in, struct render_buf *b, const struct act *a,
                   const char *dflt)
{
    const char *s = cstr(a->nargs);
    size_t count = a->nargs.kind == DSL_INT   ? (size_t)a->nargs.as.i
                   : s && strcmp(s, "+") == 0 ? 2
                                              : 1;
    if (s && strcmp(s, "*") == 0 && dsl_is_tuple(a->metavar) && a->metavar.as.l->len == 2)
        count = 2;
    const char **parts = calloc(count, sizeof *parts);
    if (!parts) return dsl_raise_status(in, DSL_V_NOMEM);
    struct render_buf one;
    render_buf_init(&one, DSL_MAX_REPR_BYTES);
    int r = metavars(in, a, dflt, count, &one, parts);
    if (r == 0) {
        if (a->nargs.kind == DSL_NONE)
            render_buf_puts(b, parts[0]);
        else if (s && strcmp(s, "?") == 0)
            render_buf_printf(b, "[%s]", parts[0]);
        else if (s && strcmp(s, "*") == 0 && count == 2)
            render_buf_printf(b, "[%s [%s ...]]", parts[0], parts[1]);
        else if (s && strcmp(s, "*") == 0)
            render_buf_printf(b, "[%s ...]", parts[0]);
        else if (s && strcmp(s, "+") == 0)
            render_buf_printf(b, "%s [%s ...]", parts[0], parts[1]);
        else
            for (size_t i = 0; i < count; i++) render_buf_printf(b, "%s%s", i ? " " : "", parts[i]);
    }
    render_buf_free(&one);
    free(parts);
    return r;
}

/* The metavar CPython makes of dest for an option: DEST upper-cased. */
int ap_format_option_args(struct dsl_interp *in, struct render_buf *b, const struct act *a)
{
    char *upper = strdup(a->dest);
    if (!upper) return dsl_raise_status(in, DSL_V_NOMEM);
    for (char *c = upper; *c; c++) *c = (char)toupper((unsigned char)*c);
    int r = ap_format_args(in, b, a, upper);
    free(upper);
    return r;
}

/* How help names an argument: dest (or metavar) for a positional; `-s ARGS, --long ARGS`, or
 * `-s, --long` for an option that takes no value. */
static int invocation(struct dsl_interp *in, struct render_buf *b, const struct act *a)
{
    if (!a->opts->len) {
        const char *m = cstr(a->metavar);
        if (dsl_is_tuple(a->metavar))
            return dsl_raise(in, "ValueError", "too many values to unpack (expected 1)");
        if (m) {
            render_buf_puts(b, m);
        } else if (a->choices.kind != DSL_NONE) {
            if (ap_format_args(in, b,
                               &(struct act){.v = a->v,
                                             .opts = a->opts,
                                             .choices = a->choices,
                                             .nargs = dsl_none(),
                                             .metavar = dsl_none()},
                               a->dest) != 0)
                return -1;
        } else {
            render_buf_puts(b, a->dest);
        }
        return 0;
    }
    for (size_t i = 0; i < a->opts->len; i++) {
        if (i) render_buf_puts(b, ", ");
        render_buf_puts(b, opt_at(a, i));
        if (a->hi == 0) continue;
        render_buf_putc(b, ' ');
        if (ap_format_option_args(in, b, a) != 0) return -1;
    }
    return 0;
}

static bool shown(const struct act *a) { return !is_suppress(a->help); }

/* One argument's piece of the usage line: `pos`, `[--opt OPT]`, `--flag`. */
static int usage_piece(struct dsl_interp *in, struct render_buf *b, const struct act *a)
{
    if (!a->opts->len) return ap_format_args(in, b, a, a->dest);
    if (!a->required) render_buf_putc(b, '[');
    render_buf_puts(b, opt_at(a, 0));
    if (a->hi > 0) {
        render_buf_putc(b, ' ');
        if (ap_format_option_args(in, b, a) != 0) return -1;
    }
    if (!a->required) render_buf_putc(b, ']');
    return 0;
}

/* The usage of the options (positionals false) or of the positionals, pieces joined by spaces. */
static int usage_of(struct dsl_interp *in, struct render_buf *b, const struct parser *p,
                    bool positionals)
{
    for (size_t i = 0; i < p->n; i++) {
        const struct act *a = &p->acts[i];
        if (!shown(a) || (a->opts->len == 0) != positionals) continue;
        if (b->len) render_buf_putc(b, ' ');
        if (usage_piece(in, b, a) != 0) return -1;
    }
    return 0;
}

/* The parts usage wraps at, as CPython's regular expression finds them: a bracketed group up
 * to a closing bracket that ends a word, or a word. */
static size_t split_parts(const char *text, const char **part, size_t *len)
{
    size_t n = 0;
    for (const char *s = text; *s;) {
        if (*s == ' ') {
            s++;
            continue;
        }
        size_t l = 0;
        if (*s == '[' || *s == '(') {
            char close = *s == '[' ? ']' : ')';
            for (const char *e = s + 1; *e && !l; e++) {
                if (*e != close) continue;
                const char *after = e;
                while (*after == close) after++;
                if (*after == ' ' || !*after) l = (size_t)(after - s);
            }
        }
        if (!l)
            while (s[l] && s[l] != ' ') l++;
        part[n] = s;
        len[n++] = l;
        s += l;
    }
    return n;
}

/* CPython's get_lines: the parts filled into lines of WIDTH columns, each started by `indent`
 * spaces and ended by '\n'; when `prefix` (its columns) is not 0, the first line goes on after
 * it, without the indent. */
static void get_lines(struct render_buf *b, const char **part, const size_t *len, size_t n,
                      size_t indent, size_t prefix)
{
    size_t line_len = (prefix ? prefix : indent) - 1, count = 0;
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (line_len + 1 + len[i] > WIDTH && count) {
            render_buf_putc(b, '\n');
            line_len = indent - 1;
            count = 0;
            first = false;
        }
        if (count == 0 && !(first && prefix))
            render_buf_printf(b, "%*s", (int)indent, "");
        else if (count)
            render_buf_putc(b, ' ');
        render_buf_printf(b, "%.*s", (int)len[i], part[i]);
        line_len += len[i] + 1;
        count++;
    }
    if (count) render_buf_putc(b, '\n');
}

/* The usage past WIDTH, wrapped as CPython wraps it: a short prog with the options' parts then
 * the positionals' beside it, a long one on a line of its own. part[0] is prog, then nopt
 * parts of the options and npos of the positionals. Lines end with '\n'. */
static void wrap_usage(struct render_buf *b, const char **part, const size_t *len, size_t nopt,
                       size_t npos, size_t plen)
{
    const char **opt = part + 1, **pos = part + 1 + nopt;
    const size_t *optlen = len + 1, *poslen = len + 1 + nopt;
    if (4 * (plen + len[0]) <= 3 * WIDTH) {
        size_t indent = plen + len[0] + 1;
        if (nopt) {
            get_lines(b, part, len, 1 + nopt, indent, plen);
            get_lines(b, pos, poslen, npos, indent, 0);
        } else {
            get_lines(b, part, len, 1 + npos, indent, plen);
        }
        return;
    }
    render_buf_printf(b, "%s\n", part[0]);
    struct render_buf probe;
    render_buf_init(&probe, DSL_MAX_REPR_BYTES);
    get_lines(&probe, opt, optlen, nopt + npos, plen, 0);
    const char *t = render_buf_str(&probe);
    const char *nl = strchr(t, '\n');
    if (nl && nl[1]) { /* more than one line: the options' and the positionals' apart */
        get_lines(b, opt, optlen, nopt, plen, 0);
        get_lines(b, pos, poslen, npos, plen, 0);
    } else {
        render_buf_puts(b, t);
    }
    render_buf_free(&probe);
}

/* "usage: PROG [-h] ...\n", wrapped past WIDTH. */
int ap_format_usage(struct dsl_interp *in, struct render_buf *b, const struct parser *p)
{
    static const char prefix[] = "usage: ";
    const size_t plen = sizeof prefix - 1;
    render_buf_puts(b, prefix);
    struct dsl_value usage = get(p->self, "usage");
    if (cstr(usage)) {
        if (ap_expand(in, b, cstr(usage), NULL, p->prog) != 0) return -1;
        render_buf_putc(b, '\n');
        return 0;
    }
    struct render_buf opt, pos;
    render_buf_init(&opt, DSL_MAX_REPR_BYTES);
    render_buf_init(&pos, DSL_MAX_REPR_BYTES);
    int r = usage_of(in, &opt, p, false);
    if (r == 0) r = usage_of(in, &pos, p, true);
    if (r == 0) r = buf_check(in, &opt);
    if (r == 0) r = buf_check(in, &pos);
    size_t full = strlen(p->prog) + (opt.len ? opt.len + 1 : 0) + (pos.len ? pos.len + 1 : 0);
    if (r == 0 && plen + full <= WIDTH) {
        render_buf_puts(b, p->prog);
        if (opt.len) render_buf_printf(b, " %s", render_buf_str(&opt));
        if (pos.len) render_buf_printf(b, " %s", render_buf_str(&pos));
        render_buf_putc(b, '\n');
    } else if (r == 0) {
        size_t cap = opt.len + pos.len + 2;
        const char **part = malloc(cap * sizeof *part);
        size_t *len = malloc(cap * sizeof *len);
        if (part && len) {
            part[0] = p->prog;
            len[0] = strlen(p->prog);
            size_t nopt = split_parts(render_buf_str(&opt), part + 1, len + 1);
            size_t npos = split_parts(render_buf_str(&pos), part + 1 + nopt, len + 1 + nopt);
            wrap_usage(b, part, len, nopt, npos, plen);
        } else {
            r = dsl_raise_status(in, DSL_V_NOMEM);
        }
        free(part);
        free(len);
    }
    render_buf_free(&opt);
    render_buf_free(&pos);
    return r;
}

/* One argument's lines of help: its invocation, then its help text wrapped beside it (or
 * under it, past the help column). */
static int format_action(struct dsl_interp *in, struct render_buf *b, const struct parser *p,
                         const struct act *a, size_t help_position)
{
    const size_t indent = 2;
    size_t help_width = WIDTH > help_position + 11 ? WIDTH - help_position : 11;
    size_t action_width = help_position - indent - 2;
    struct render_buf head;
    render_buf_init(&head, DSL_MAX_REPR_BYTES);
    if (invocation(in, &head, a) != 0 || buf_check(in, &head) != 0) {
        render_buf_free(&head);
        return -1;
    }
    const char *help = cstr(a->help);
    size_t indent_first = 0;
    bool newline = false;
    if (!help || !*help) {
        render_buf_printf(b, "%*s%s\n", (int)indent, "", render_buf_str(&head));
        newline = true;
    } else if (head.len <= action_width) {
        render_buf_printf(b, "%*s%-*s  ", (int)indent, "", (int)action_width,
                          render_buf_str(&head));
    } else {
        render_buf_printf(b, "%*s%s\n", (int)indent, "", render_buf_str(&head));
        indent_first = help_position;
        newline = true;
    }
    render_buf_free(&head);
    bool blank = true;
    for (const char *c = help; c && *c && blank; c++) blank = isspace((unsigned char)*c);
    if (help && !blank) {
        struct render_buf text;
        render_buf_init(&text, DSL_MAX_REPR_BYTES);
        if (ap_expand(in, &text, help, a, p->prog) != 0) {
            render_buf_free(&text);
            return -1;
        }
        ap_wrap(b, render_buf_str(&text), help_width, indent_first, help_position);
        render_buf_free(&text);
    } else if (!newline) {
        render_buf_putc(b, '\n');
    }
    return 0;
}

/* CPython's format_help: usage, description, the positionals' and the options' sections,
 * epilog; runs of blank lines made one, no blank line at either end. */
int ap_format_help(struct dsl_interp *in, struct render_buf *out, const struct parser *p)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int r = ap_format_usage(in, &b, p);
    render_buf_putc(&b, '\n');
    const char *texts[2] = {cstr(get(p->self, "description")), cstr(get(p->self, "epilog"))};
    size_t max_len = 0;
    for (size_t i = 0; i < p->n && r == 0; i++) {
        if (!shown(&p->acts[i])) continue;
        struct render_buf head;
        render_buf_init(&head, DSL_MAX_REPR_BYTES);
        r = invocation(in, &head, &p->acts[i]);
        if (head.len + 2 > max_len) max_len = head.len + 2;
        render_buf_free(&head);
    }
    size_t help_position = max_len + 2 < MAX_HELP_POSITION ? max_len + 2 : MAX_HELP_POSITION;
    for (int part = 0; part < 4 && r == 0; part++) {
        if (part == 0 || part == 3) { /* description, epilog */
            const char *text = texts[part == 3];
            if (!text) continue;
            struct render_buf t;
            render_buf_init(&t, DSL_MAX_REPR_BYTES);
            r = ap_expand(in, &t, text, NULL, p->prog);
            if (r == 0) ap_wrap(&b, render_buf_str(&t), WIDTH, 0, 0);
            render_buf_free(&t);
            render_buf_putc(&b, '\n');
            continue;
        }
        bool positionals = part == 1, any = false;
        for (size_t i = 0; i < p->n && r == 0; i++) {
            const struct act *a = &p->acts[i];
            if (!shown(a) || (a->opts->len == 0) != positionals) continue;
            if (!any)
                render_buf_puts(&b, positionals ? "\npositional arguments:\n" : "\noptions:\n");
            any = true;
            r = format_action(in, &b, p, a, help_position);
        }
        if (any) render_buf_putc(&b, '\n');
    }
    if (r == 0) r = buf_check(in, &b);
    if (r == 0) {
        const char *s = render_buf_str(&b);
        while (*s == '\n') s++;
        size_t end = strlen(s);
        while (end && s[end - 1] == '\n') end--;
        for (size_t i = 0; i < end; i++) {
            if (s[i] == '\n' && i + 2 < end && s[i + 1] == '\n' && s[i + 2] == '\n') continue;
            render_buf_putc(out, s[i]);
        }
        render_buf_putc(out, '\n');
    }
    render_buf_free(&b);
    return r;
}
