/* ast.h — the syntax tree the parser builds and the evaluator walks (internal to kernel/lang).
 *
 * One node struct for every kind keeps construction, freeing and the evaluator's dispatch
 * tables simple; each kind documents which fields it uses. Every node records the byte offset
 * that an error about it points at (the operator of a binary expression, the name of a call,
 * the keyword of a statement) and its height, which the parser bounds so that evaluating or
 * freeing a tree never recurses deeper than DSL_MAX_AST_HEIGHT.
 *
 * Ownership: a node owns its children, names and constant value; dsl_node_free frees the
 * whole tree. */
#ifndef KERNEL_LANG_AST_H
#define KERNEL_LANG_AST_H

#include "lang/lexer.h"
#include "lang/values.h"

#include <stdbool.h>
#include <stddef.h>

#define DSL_MAX_AST_HEIGHT 1000

enum dsl_node_kind {
    /* expressions */
    DSL_N_CONST,   /* value (`...` too: Ellipsis) */
    DSL_N_NAME,    /* name */
    DSL_N_LIST,    /* kids: items */
    DSL_N_TUPLE,   /* kids: items: (a, b), (a,), (), a bare `a, b`; as a target, unpacking */
    DSL_N_UNARY,   /* op (DSL_T_MINUS, DSL_T_PLUS, DSL_T_TILDE), a */
    DSL_N_NOT,     /* a */
    DSL_N_BINARY,  /* op, a, b */
    DSL_N_AND,     /* a, b */
    DSL_N_OR,      /* a, b */
    DSL_N_COMPARE, /* kids: operands (n >= 2), ops: n-1 operators (DSL_T_IN / DSL_T_NOT = not in,
                    * DSL_T_IS / DSL_T_IS_NOT), op: the first; flag: it is `x is None` or
                    * `x is not None` */
    DSL_N_CALL,    /* a: callee, kids: positional args, kwnames + kwvals: keyword args; flag: a
                    * STAR among the kids (f(*xs) or f(**d)) */
    DSL_N_INDEX,   /* a: the indexed value, kids: the indices */
    DSL_N_ATTR,    /* a: the object, name */
    DSL_N_COND,    /* a if kids[0] else b */
    /* statements */
    DSL_N_BLOCK,    /* kids: statements */
    DSL_N_EXPR,     /* a; flag: followed by ';' */
    DSL_N_ASSIGN,   /* kids: targets (x = y = value), a: value; scope_def, scope_slot: its one
                     * target's, when that is a local's name (a copy the evaluator fills) */
    DSL_N_AUG,      /* op (the binary operator), a: target, b: value */
    DSL_N_IF,       /* kids: cond, block, cond, block, ...; b: else block or NULL */
    DSL_N_WHILE,    /* a: cond, b: body */
    DSL_N_FOR,      /* name (one variable) or kids[0] (a TUPLE target: for i, x in ...),
                     * a: iterable, b: body */
    DSL_N_BREAK,    /* - */
    DSL_N_CONTINUE, /* - */
    DSL_N_PASS,     /* - */
    DSL_N_MAGIC,    /* name: the magic's name, value: its argument text (a string) */
    DSL_N_DEF,      /* name; kwnames: the parameters, kwvals: their defaults (NULL: none), nkw,
                     * split by nargs, star and dstar (below); b: the body; value: the docstring
                     * (a string) or none; kids: the decorators, outermost first; flag: its
                     * body yields (a generator). As an expression, a lambda: name "<lambda>",
                     * b: a block of one RETURN */
    DSL_N_RETURN,   /* a: the value, or NULL for a bare return */
    DSL_N_ASSERT,   /* a: the condition, b: the message or NULL */
    DSL_N_CLASS,    /* name; a: the base class expression or NULL; b: the body; value: the
                     * docstring (a string) or none */
    DSL_N_NONLOCAL, /* kwnames: the names (kwvals NULL), nkw */
    DSL_N_GLOBAL,   /* kwnames: the names (kwvals NULL), nkw */
    /* expressions */
    DSL_N_DICT,     /* kids: key, value, key, value, ... */
    DSL_N_SET,      /* {a, b}: kids: the items (never none: {} is a dict) */
    DSL_N_SLICE,    /* only as a subscript, start:stop:step: a: start, b: stop (NULL: omitted);
                     * kids: the step, when given */
    DSL_N_LISTCOMP, /* [a for ... if ...]: a: the item; kids: the clauses, a COMP_FOR first */
    DSL_N_DICTCOMP, /* {a: b for ...}: a: the key, b: the value; kids: the clauses */
    DSL_N_SETCOMP,  /* {a for ...}: as LISTCOMP, into a set */
    DSL_N_GENEXP,   /* (a for ...), f(a for ...): as LISTCOMP, evaluated at once into a list */
    DSL_N_COMP_FOR, /* a comprehension's `for T in a`: kids[0]: the target (a NAME or TUPLE) */
    DSL_N_COMP_IF,  /* a comprehension's `if a` */
    DSL_N_FSTRING,  /* f"...": kids: the parts, CONST strings and FIELDs, in order */
    DSL_N_FIELD,    /* an f-string's {a!c:spec}: value: the conversion letter (an int) or none;
                     * b: the format spec (an FSTRING) or NULL */
    /* statements */
    DSL_N_TRY,    /* a: the body; kids: the except clauses (DSL_N_EXCEPT), then the else
                   * block (a DSL_N_BLOCK) if there is one; b: the finally block or NULL */
    DSL_N_EXCEPT, /* a: the class (or tuple of classes) to catch, NULL for a bare except;
                   * name: the `as` name or NULL; b: the handler block. Inside TRY only */
    DSL_N_RAISE,  /* a: the exception, NULL for a bare raise; b: the `from` cause or NULL */
    DSL_N_DEL,    /* a: the target: a name, an item, an attribute, or a tuple or list of
                   * targets (`del a, b`), deleted left to right */
    DSL_N_IMPORT, /* `import m.n as x, ...` (flag false): kwnames the dotted module names;
                   * `from m import a as x, ...` (flag true): name the module, kwnames the
                   * members. kwvals: a NAME node each, at the imported name, naming the
                   * variable bound (flag: given by `as`) */
    /* expressions */
    DSL_N_STAR,  /* a: the value; op: DSL_T_STAR (*xs) or DSL_T_DSTAR (**d), in a call's kids */
    DSL_N_YIELD, /* a statement: a: the value (NULL: None); flag: `yield from a`. The def it is
                  * in (directly) has flag set: a generator */
    DSL_N_WITH,  /* `with a as kids[0]: b` (no kids without `as`); `with x, y:` is a WITH whose b
                  * is a block of one WITH */
    DSL_N_COUNT
};

/* The fields are ordered by how often evaluating reads them, in 64-byte lines (a node is
 * allocated on a line's start, dsl_node_new): line 0 is all that a read of a local or of an own
 * attribute, a call or an operator reads; line 1 holds the caches of a global name or of a
 * method call, and a constant; then the rest. A tree-walker's nodes are its code, and a node's
 * every line the evaluation reads is a line of the cache taken. Caches that only one kind of
 * node fills share their room with another kind's (unions; a cache zeroed is empty). */
struct dsl_node {
    /* line 0 */
    enum dsl_node_kind kind;
    bool flag;              /* EXPR: followed by ';' */
    bool star, dstar;       /* DEF: see nargs */
    bool doc;               /* DEF: its body starts with its docstring (value), no statement */
    struct dsl_node *a, *b; /* operands, see the kinds */
    struct dsl_node **kids; /* owned array of owned nodes */
    unsigned nkids;
    unsigned nkw;    /* how many kwnames (and kwvals) */
    enum dsl_tok op; /* operator of UNARY, BINARY, AUG; COMPARE: its first */
    /* NAME, FOR (and ASSIGN, see there): the local slot its name had in the last call of the
     * function `scope_def` (every call of one def has the same locals), so that a name is
     * looked up once per def, not once per evaluation. A cache the evaluator fills; it changes
     * no meaning. */
    int scope_slot;
    union {
        const struct dsl_node *scope_def;
        /* ATTR read or called of an instance's own attribute: where the last one found it
         * among the instance's attributes (position + 1; 0: none yet), tried first
         * (dsl_instance_own_attr, dsl_instance_callee_at). A cache: the attribute's name at
         * that position is checked each time. An ATTR has no scope_def. */
        size_t attr_pos;
    };
    const char *iname; /* NAME, ATTR: name interned when parsed (a reference), or NULL */
    /* line 1: the caches of a name or an attribute. A NAME's and an ATTR's share their room,
     * as no node is both (a cache zeroed is empty for either) */
    size_t hash; /* NAME, ATTR: dsl_name_hash(name), taken once when parsed (0: not taken, for a
                  * node made elsewhere: dsl_node_hash takes it) */
    union {
        /* NAME read as a global: the table of names it was last looked up in (a module's
         * attributes, or the session's variables), that table's version then, and the slot it
         * found there (NULL: none, so a builtin's or an error). A cache, good while the table
         * and its version are the same: only a name coming or going moves or makes a slot. */
        struct {
            const void *global_table;
            size_t global_version;
            struct dsl_value *global_slot;
        };
        /* ATTR called as a method of an instance or a classmethod of a class: the class (by
         * its serial) the last call looked the name up from, the largest dsl_table_version of
         * the classes on the way then, and the slot found (in the last of them); mc_depth (below)
         * how many bases up the name was found. A cache, good while the class and that largest
         * version are the same (a name coming or going anywhere on the way gives a larger one;
         * the slot's value is read each time); mc_serial 0: none yet (classes.c). */
        struct {
            size_t mc_serial, mc_max;
            struct dsl_value *mc_slot;
        };
    };
    union {
        /* NAME: what the name means as one of the builtins (a row, or a built-in class) once
         * dsl_eval_name found it so (none before): a cache, as the builtins' table never
         * changes, read only when no variable has the name */
        struct dsl_value builtin;
        struct {
            /* ATTR called as a method of a list, tuple, dict, set or frozenset: the method row
             * the last such call found, the sort of receiver it was found for (row_key,
             * calls.c; 0: none yet), and whether the row is one a call runs with no row's
             * arguments (row_hot, calls.c; 0: not one). A cache, as the method tables never
             * change. */
            const struct dsl_builtin *row;
            short row_key;
            unsigned char row_hot;
            unsigned mc_depth; /* see mc_serial */
        };
    };
    struct dsl_value value; /* CONST: owned reference */
    /* line 2 */
    enum dsl_tok *ops;        /* COMPARE: nkids - 1 operators */
    int height;               /* 1 + the tallest child */
    unsigned capkids;         /* kids' room */
    size_t pos;               /* byte offset errors about this node point at */
    char *name;               /* NAME, ATTR, FOR: owned */
    char **kwnames;           /* CALL: keyword names, owned */
    struct dsl_node **kwvals; /* CALL: keyword values, owned */
    /* DEF: how kwnames splits. The first nargs are positional parameters, of which the first
     * nposonly are positional-only (before a `/`); then, when star, the *args parameter; then
     * the keyword-only ones (after *args or a bare *); then, when dstar, the **kwargs
     * parameter. */
    size_t nargs, nposonly;
};

/* Ellipsis, the value of `...`: one object for the whole process, as Python's singleton, so
 * that `x is ...` holds. Its references are counted as any object's but never reach zero. */
struct dsl_value dsl_ellipsis(void);
/* Whether v is Ellipsis. */
bool dsl_is_ellipsis(struct dsl_value v);

/* A parsed cell and its source text, reference counted: a function defined in the cell keeps
 * both alive after the cell has run, for its body and for the error locations inside it. */
struct dsl_code {
    size_t refs;
    char *src; /* owned copy, NUL-terminated */
    size_t len;
    long cell_no;         /* the execution count it ran under (In[n]); 0: unnumbered */
    struct dsl_node *ast; /* owned; the cell's DSL_N_BLOCK */
    /* owned: the module whose file this is (a package's file, lang/packages.c), whose
     * attributes are the global variables of its code; none for a cell, whose globals are the
     * session's */
    struct dsl_value module;
    /* the name of the kernel's own file of the package it is ("scalar.py", static;
     * dsl_package_load), or NULL: while check() grades, such code refuses to run */
    const char *kernel_file;
};

/* The hash of NAME or ATTR node n's name: the parser's, or taken now for a node it did not make. */
static inline size_t dsl_node_hash(const struct dsl_node *n)
{
    return n->hash ? n->hash : dsl_name_hash(n->name);
}

/* The text of NAME or ATTR node n's name to look up: interned when the parser interned it, so
 * that attribute tables find it by its pointer. */
static inline const char *dsl_node_name(const struct dsl_node *n)
{
    return n->iname ? n->iname : n->name;
}

/* Parses src[0..len) into a new code object (one reference). NULL with *err filled on a syntax
 * error (or MemoryError). */
struct dsl_code *dsl_code_parse(const char *src, size_t len, struct dsl_syntax_error *err);
struct dsl_code *dsl_code_retain(struct dsl_code *c);
void dsl_code_release(struct dsl_code *c);

/* A new node of `kind` at `pos`, zeroed otherwise. NULL when out of memory. */
struct dsl_node *dsl_node_new(enum dsl_node_kind kind, size_t pos);
/* Appends `kid` (ownership passes to `n` even on failure). Returns 0 or -1 (out of memory). */
int dsl_node_push(struct dsl_node *n, struct dsl_node *kid);
/* Recomputes n->height from its children. */
void dsl_node_update_height(struct dsl_node *n);
/* Frees n and everything it owns; NULL is fine. */
void dsl_node_free(struct dsl_node *n);

/* Parses a cell into a DSL_N_BLOCK. NULL with *err filled on a syntax error. */
struct dsl_node *dsl_parse_cell(const char *src, size_t len, struct dsl_syntax_error *err);
/* Parses one expression (optionally surrounded by blank lines); anything else is a
 * SyntaxError. */
struct dsl_node *dsl_parse_expression(const char *src, size_t len, struct dsl_syntax_error *err);

#endif
