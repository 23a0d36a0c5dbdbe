/* ast.c — construction and destruction of syntax tree nodes (see ast.h).
 *
 * Nodes are freed recursively; the parser keeps trees no taller than DSL_MAX_AST_HEIGHT, so
 * the recursion is bounded. */
#include "lang/ast.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The node's lines, as struct dsl_node orders its fields. */
#define NODE_LINE 64
_Static_assert(offsetof(struct dsl_node, iname) + sizeof(char *) <= NODE_LINE,
               "a local's read, a call's, an operator's and an own attribute's fit the first line");
_Static_assert(offsetof(struct dsl_node, value) + sizeof(struct dsl_value) <= 2 * NODE_LINE,
               "a constant's, a global's and a method call's reads fit the second line");
_Static_assert(sizeof(struct dsl_node) <= 3 * NODE_LINE, "a node takes three lines");
#define NODE_BYTES ((sizeof(struct dsl_node) + NODE_LINE - 1) / NODE_LINE * NODE_LINE)

struct dsl_node *dsl_node_new(enum dsl_node_kind kind, size_t pos)
{
    struct dsl_node *n = aligned_alloc(NODE_LINE, NODE_BYTES);
    if (!n) return NULL;
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->pos = pos;
    n->height = 1;
    n->value = dsl_none();
    return n;
}

int dsl_node_push(struct dsl_node *n, struct dsl_node *kid)
{
    if (n->nkids == n->capkids) {
        size_t cap = n->capkids ? (size_t)n->capkids * 2 : 4;
        struct dsl_node **p = cap <= UINT_MAX ? realloc(n->kids, cap * sizeof *p) : NULL;
        if (!p) { /* out of memory (or of the counts' room: as much) */
            dsl_node_free(kid);
            return -1;
        }
        n->kids = p;
        n->capkids = (unsigned)cap;
    }
    n->kids[n->nkids++] = kid;
    if (kid && kid->height + 1 > n->height) n->height = kid->height + 1;
    return 0;
}

static int height_of(const struct dsl_node *n) { return n ? n->height : 0; }

void dsl_node_update_height(struct dsl_node *n)
{
    int h = 0;
    if (height_of(n->a) > h) h = height_of(n->a);
    if (height_of(n->b) > h) h = height_of(n->b);
    for (size_t i = 0; i < n->nkids; i++)
        if (height_of(n->kids[i]) > h) h = height_of(n->kids[i]);
    for (size_t i = 0; i < n->nkw; i++)
        if (height_of(n->kwvals[i]) > h) h = height_of(n->kwvals[i]);
    n->height = h + 1;
}

void dsl_node_free(struct dsl_node *n)
{
    if (!n) return;
    dsl_value_release(n->value);
    free(n->name);
    dsl_name_release(n->iname);
    dsl_node_free(n->a);
    dsl_node_free(n->b);
    for (size_t i = 0; i < n->nkids; i++) dsl_node_free(n->kids[i]);
    free(n->kids);
    free(n->ops);
    for (size_t i = 0; i < n->nkw; i++) {
        free(n->kwnames[i]);
        dsl_node_free(n->kwvals[i]);
    }
    free(n->kwnames);
    free(n->kwvals);
    free(n);
}

struct dsl_code *dsl_code_parse(const char *src, size_t len, struct dsl_syntax_error *err)
{
    struct dsl_code *c = calloc(1, sizeof *c);
    char *copy = malloc(len + 1);
    if (!c || !copy) {
        free(c);
        free(copy);
        dsl_syntax_error_set(err, "MemoryError", 0, "out of memory");
        return NULL;
    }
    memcpy(copy, src, len);
    copy[len] = '\0';
    c->refs = 1;
    c->src = copy;
    c->len = len;
    c->ast = dsl_parse_cell(copy, len, err);
    if (!c->ast) {
        free(copy);
        free(c);
        return NULL;
    }
    return c;
}

struct dsl_code *dsl_code_retain(struct dsl_code *c)
{
    if (c) c->refs++;
    return c;
}

void dsl_code_release(struct dsl_code *c)
{
    if (!c || --c->refs > 0) return;
    dsl_node_free(c->ast);
    free(c->src);
    dsl_value_release(c->module);
    free(c);
}

/* ---- Ellipsis ----------------------------------------------------------------------------- */

static void ellipsis_free(void *state) { (void)state; }

static int ellipsis_repr(struct render_buf *b, const void *state)
{
    (void)state;
    render_buf_puts(b, "Ellipsis");
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static const struct dsl_object_class ellipsis_class = {
    .name = "ellipsis",
    .doc = "Ellipsis, written `...`: a placeholder, as in a body that is not written yet "
           "(`def f(): ...`), a default meaning \"not given\" or `Tuple[float, ...]`.",
    .free = ellipsis_free,
    .repr = ellipsis_repr,
};

/* Half the range: no program holds that many references, so the count never reaches zero and
 * the static object is never freed. */
static struct dsl_object ellipsis_object = {
    .refs = SIZE_MAX / 2,
    .cls = &ellipsis_class,
};

struct dsl_value dsl_ellipsis(void)
{
    return dsl_value_retain((struct dsl_value){.kind = DSL_OBJECT, .as.obj = &ellipsis_object});
}

bool dsl_is_ellipsis(struct dsl_value v)
{
    return v.kind == DSL_OBJECT && v.as.obj == &ellipsis_object;
}
