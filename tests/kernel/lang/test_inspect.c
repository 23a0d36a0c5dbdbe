/* test_inspect.c — dsl_inspect: every builtin, tensor method and property, and magic has a
 * docstring that inspect finds from the same row that defines it (list methods too); variables show
 * their type, value and (tensors) layout and autodiff state; functions their signature, docstring
 * and, at detail level 1, their source; an unknown name under the cursor falls back to the call
 * around it; nothing is found in comments, for keywords or numbers. */
#include "kernel/dsl_helpers.h"
#include "lang/library.h"
#include "lang/list.h"
#include "lib/magics.h"
#include "lib/tensor_methods.h"
#include "test.h"

/* The text/plain that inspect gives at byte `cursor` ("(null)" when not found); static. */
static const char *inspect_at(struct dsl_session *s, const char *code, size_t cursor, int level)
{
    static char buf[1 << 15];
    json_t *b = dsl_inspect(s, code, cursor, level);
    if (!b) return "(null)";
    const char *t = json_string_value(json_object_get(b, "text/plain"));
    snprintf(buf, sizeof buf, "%s", t ? t : "(no text/plain)");
    CHECK_INT(json_object_size(b), 1);
    json_decref(b);
    return buf;
}

static const char *inspect_end(struct dsl_session *s, const char *code, int level)
{
    return inspect_at(s, code, strlen(code), level);
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* "SIGNATURE\n\nDOC" exactly, as help() shows a row. */
static void check_row_help(const char *got, const char *signature, const char *doc)
{
    char want[4096];
    snprintf(want, sizeof want, "%s\n\n%s", signature, doc);
    CHECK_STR(got, want);
}

/* A real docstring: a sentence or more, not a placeholder. */
static void check_docstring(const char *what, const char *name, const char *doc)
{
    size_t n = doc ? strlen(doc) : 0;
    if (n < 15 || (doc[n - 1] != '.' && doc[n - 1] != ')')) {
        fprintf(stderr, "%s %s: docstring missing or not a sentence: \"%s\"\n", what, name,
                doc ? doc : "(null)");
        test_checks_failed++;
    }
}

static void test_every_builtin(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK(dsl_builtin_count > 20);
    for (size_t i = 0; i < dsl_builtin_count; i++) {
        const struct dsl_builtin *fn = &dsl_builtins[i];
        check_docstring("builtin", fn->name, fn->doc);
        CHECK(starts_with(fn->signature, fn->name));
        check_row_help(inspect_end(s, fn->name, 0), fn->signature, fn->doc);
        check_row_help(inspect_end(s, fn->name, 1), fn->signature, fn->doc);
        /* the cursor on the first letter, or inside the call's parentheses */
        check_row_help(inspect_at(s, fn->name, 0, 0), fn->signature, fn->doc);
        char call[64];
        snprintf(call, sizeof call, "x = %s(1, ", fn->name);
        check_row_help(inspect_end(s, call, 0), fn->signature, fn->doc);
    }
    dsl_session_free(s);
}

static void test_every_tensor_attribute(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "t = ones(2)").rc, 0);
    CHECK(dsl_tensor_method_count > 20 && dsl_tensor_prop_count >= 7);
    char code[64];
    for (size_t i = 0; i < dsl_tensor_method_count; i++) {
        const struct dsl_builtin *m = &dsl_tensor_methods[i];
        check_docstring("method", m->name, m->doc);
        snprintf(code, sizeof code, "t.%s", m->name);
        check_row_help(inspect_end(s, code, 0), m->signature, m->doc);
        snprintf(code, sizeof code, "(t + t).%s(", m->name); /* inside its call */
        check_row_help(inspect_end(s, code, 0), m->signature, m->doc);
    }
    for (size_t i = 0; i < dsl_tensor_prop_count; i++) {
        const struct dsl_builtin *p = &dsl_tensor_props[i];
        check_docstring("property", p->name, p->doc);
        snprintf(code, sizeof code, "t.%s", p->name);
        check_row_help(inspect_end(s, code, 0), p->signature, p->doc);
    }
    /* a list's methods (a tuple-style list has count and index only); an attribute of a
     * value without attributes, or one that does not exist */
    run_cell(s, "xs = [1]\nsh = t.shape\nn = 1");
    for (size_t i = 0; i < dsl_list_method_count; i++) {
        const struct dsl_builtin *m = &dsl_list_methods[i];
        check_docstring("list method", m->name, m->doc);
        snprintf(code, sizeof code, "xs.%s", m->name);
        check_row_help(inspect_end(s, code, 0), m->signature, m->doc);
    }
    CHECK(starts_with(inspect_end(s, "sh.count", 0), "xs.count(x)"));
    CHECK_STR(inspect_end(s, "sh.append", 0), "(null)");
    CHECK_STR(inspect_end(s, "xs.sum", 0), "(null)");
    CHECK_STR(inspect_end(s, "n.real", 0), "(null)");
    CHECK_STR(inspect_end(s, "t.nosuch", 0), "(null)");
    dsl_session_free(s);
}

static void test_every_magic(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK(dsl_magic_count >= 10);
    char code[64];
    for (size_t i = 0; i < dsl_magic_count; i++) {
        const struct dsl_magic *m = &dsl_magics[i];
        check_docstring("magic", m->name, m->doc);
        snprintf(code, sizeof code, "%%%s", m->name);
        check_row_help(inspect_end(s, code, 0), m->usage, m->doc);
        snprintf(code, sizeof code, "x = 1\n  %%%s 2", m->name); /* cursor on its name */
        check_row_help(inspect_at(s, code, 9, 1), m->usage, m->doc);
    }
    CHECK_STR(inspect_end(s, "%nosuch", 0), "(null)");
    dsl_session_free(s);
}

static void test_variables(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "w = tensor([[1, 2, 3], [4, 5, 6]], requires_grad=true)\n"
                          "v = w.permute(1, 0)\n(w * w).sum().backward()\n"
                          "n = 3\nf = 2.5\nname = 'Ada'\nok = true\nnothing = none\n"
                          "r = range(1, 5)\nxs = [1, 'a']\nlen = 'shadowed'")
                  .rc,
              0);
    CHECK_STR(inspect_end(s, "w", 0),
              "w: tensor = tensor([[1., 2., 3.],\n"
              "        [4., 5., 6.]], shape=(2, 3), backend=fast, requires_grad=True)\n\n"
              "shape (2, 3), strides (3, 1), dtype float32, backend fast, requires_grad True, "
              "grad set");
    /* a view: its own strides; no grad of its own */
    const char *t = inspect_end(s, "v", 0);
    CHECK(strstr(t, "\n\nshape (3, 2), strides (1, 3), dtype float32, backend fast, "
                    "requires_grad True, grad None") != NULL);
    /* detail level 1 adds the tensor type's documentation and its methods */
    t = inspect_end(s, "w", 1);
    CHECK(strstr(t, "grad set\n\ntensor: ") != NULL);
    CHECK(strstr(t, "\n  tensor.backward(grad=none)\n") != NULL);
    CHECK(strstr(t, "\n  tensor.shape ") != NULL);
    CHECK_STR(inspect_end(s, "n", 0), "n: int = 3");
    CHECK_STR(inspect_end(s, "f", 0), "f: float = 2.5");
    CHECK_STR(inspect_end(s, "name", 0), "name: str = 'Ada'");
    CHECK_STR(inspect_end(s, "ok", 0), "ok: bool = True");
    CHECK_STR(inspect_end(s, "nothing", 0), "nothing: NoneType = None");
    CHECK_STR(inspect_end(s, "r", 0), "r: range = range(1, 5)");
    CHECK_STR(inspect_end(s, "xs", 0), "xs: list = [1, 'a']");
    /* a variable hides the builtin of the same name, as in Python */
    CHECK_STR(inspect_end(s, "len", 0), "len: str = 'shadowed'");
    /* detail level 1: the type's documentation after the value */
    t = inspect_end(s, "xs", 1);
    CHECK(starts_with(t, "xs: list = [1, 'a']\n\nlist: "));
    /* the cursor anywhere in the name, or at its end in a longer line */
    CHECK(starts_with(inspect_at(s, "print(name, n)", 8, 0), "name: str"));
    CHECK(starts_with(inspect_at(s, "print(name, n)", 10, 0), "name: str"));
    CHECK(starts_with(inspect_at(s, "print(name, n)", 13, 0), "n: int"));
    dsl_session_free(s);
}

static void test_functions(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "x = 1\nif x:\n    def scale(v,\n              k=2):\n"
                          "        \"multiplies v by k\"\n        y = v * k\n\n        return y\n"
                          "    z = 3\ndef one(a): return a\n")
                  .rc,
              0);
    const char *help = "scale(v, k=...)\n\nmultiplies v by k\n\nA function defined with def "
                       "in this session.";
    CHECK_STR(inspect_end(s, "scale", 0), help);
    /* level 1: the def's own lines, with the blank line inside kept, the next statement not */
    char want[1024];
    snprintf(want, sizeof want,
             "%s\n\nSource:\n    def scale(v,\n              k=2):\n        \"multiplies v by "
             "k\"\n        y = v * k\n\n        return y",
             help);
    CHECK_STR(inspect_end(s, "scale", 1), want);
    CHECK_STR(inspect_end(s, "one", 1), "one(a)\n\nA function defined with def in this session."
                                        "\n\nSource:\ndef one(a): return a");
    /* in a later cell, the source is still the defining cell's */
    run_cell(s, "print(1)");
    CHECK_STR(inspect_end(s, "one", 1), "one(a)\n\nA function defined with def in this session."
                                        "\n\nSource:\ndef one(a): return a");
    /* inside the call, on a keyword argument's name */
    CHECK_STR(inspect_end(s, "scale(1, k", 0), help);
    dsl_session_free(s);
}

/* Shift-Tab on a class, an instance and their attributes */
static void test_classes(void)
{
    struct dsl_session *s = dsl_session_new();
    CHECK_INT(run_cell(s, "class Layer:\n    \"A layer.\"\n    def forward(self, x):\n"
                          "        \"Scales x.\"\n        return x\nclass Big(Layer):\n"
                          "    def __init__(self):\n        self.n = 4\nb = Big()")
                  .rc,
              0);
    CHECK_STR(inspect_end(s, "Layer", 0),
              "class Layer\n\nA layer.\n\nDefined here:\n  forward(self, x)\n");
    CHECK_STR(inspect_end(s, "Big", 0),
              "class Big(Layer)\n\nDefined here:\n  __init__(self)\n\nFrom Layer:\n"
              "  forward(self, x)\n");
    CHECK_STR(inspect_end(s, "b.forward", 0),
              "forward(self, x)\n\nScales x.\n\nA function defined with def in this session.");
    CHECK_STR(inspect_end(s, "b.n", 0), "n: int = 4");
    CHECK(starts_with(inspect_end(s, "b", 0), "b: Big = <__main__.Big object at 0x"));
    CHECK_STR(inspect_end(s, "b.nothing", 0), "(null)");
    dsl_session_free(s);
}

static void test_fallbacks_and_misses(void)
{
    struct dsl_session *s = dsl_session_new();
    /* unknown words inside a call's parentheses: the call */
    CHECK(starts_with(inspect_end(s, "zeros(2, requires_grad", 0), "zeros(*shape"));
    CHECK(starts_with(inspect_end(s, "print(\"abc", 0), "print(*args"));
    CHECK(starts_with(inspect_end(s, "y = rand(2,\n         3, backend", 0), "rand(*shape"));
    /* nothing to find */
    CHECK_STR(inspect_end(s, "", 0), "(null)");
    CHECK_STR(inspect_end(s, "undefined_name", 0), "(null)");
    CHECK_STR(inspect_end(s, "if", 0), "(null)");
    CHECK_STR(inspect_end(s, "12345", 0), "(null)");
    CHECK_STR(inspect_end(s, "x = 1  # print", 0), "(null)");
    CHECK_STR(inspect_end(s, "s = 'print", 0), "(null)");
    CHECK_STR(dsl_inspect(s, NULL, 0, 0) == NULL ? "(null)" : "found", "(null)");
    /* a cursor past the end is clamped */
    CHECK(starts_with(inspect_at(s, "len", 99, 0), "len(x)"));
    dsl_session_free(s);
}

int main(void)
{
    RUN_TEST(test_every_builtin);
    RUN_TEST(test_every_tensor_attribute);
    RUN_TEST(test_every_magic);
    RUN_TEST(test_variables);
    RUN_TEST(test_functions);
    RUN_TEST(test_classes);
    RUN_TEST(test_fallbacks_and_misses);
    return TEST_SUMMARY();
}
