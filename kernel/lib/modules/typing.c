/* typing.c — typing, typing_extensions and numpy.typing: the names MiniTorch's files import for
 * their annotations (`from typing import Callable, Optional`, `class MapProto(Protocol)`,
 * `Storage: TypeAlias = npt.NDArray[np.float64]`), as values that behave as CPython 3.11's do
 * wherever a program looks at them: subscripts give an object whose repr is CPython's
 * (`typing.Tuple[float, ...]`, `typing.Optional[int]`), `TypeVar("T")` is `~T`, `cast(T, x)` is
 * x, `TYPE_CHECKING` is False, and Protocol or Generic[T] as a class's base is no base at all.
 *
 * Nothing here checks a type. A subscripted form keeps only its text (and, for a Union, the
 * text of each member, so that unions nest and flatten as CPython's do): engine objects hold
 * no language values. Each unsubscripted form is one static object, as CPython's are
 * singletons (`Optional is Optional`). */
#include "lib/modules/module.h"

#include "lang/ast.h"
#include "lang/classes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How a form takes a subscript. */
enum how {
    H_NONE,     /* not subscriptable: Any, TypeAlias */
    H_COUNT,    /* a generic alias of `count` parameters: List[int], Dict[str, int] */
    H_TUPLE,    /* any number, () shown as such: Tuple[int, ...], Tuple[()] */
    H_SINGLE,   /* one type: ClassVar[int], Final[int] */
    H_UNION,    /* Union[a, b], flattened, without repeats, None as NoneType */
    H_OPTIONAL, /* Optional[a]: Union[a, None] */
    H_CALLABLE, /* Callable[[args], result], Callable[..., result] */
    H_LITERAL,  /* Literal['a', 1]: the values' reprs */
    H_TYPEVARS, /* Generic[T], Protocol[T]: type variables only */
    H_NDARRAY,  /* numpy.typing.NDArray[dtype] */
};

struct form {
    struct dsl_object obj; /* the form as a value: its state is this row */
    const char *repr;      /* typing.Tuple, <class 'typing.Generic'> */
    const char *name;      /* what a subscript writes before '[': typing.Tuple */
    enum how how;
    int count; /* H_COUNT: the parameters */
};

/* A subscripted form: its text, and for a union each member's (to flatten a union inside
 * another). Equal subscripts share one (see `aliases`). */
struct alias {
    size_t refs; /* the objects holding it */
    struct alias *next;
    const struct form *origin;
    char *repr;
    char **args; /* H_UNION and H_OPTIONAL: the members' texts */
    bool *is_none;
    size_t nargs;
    bool typevars; /* some argument is a type variable */
};

/* A TypeVar: only its text, ~T (+T covariant, -T contravariant). */
struct typevar {
    char *repr;
};

/* The subscripts alive, so that writing one twice gives equal values (`Tuple[int] ==
 * Tuple[int]`, as CPython's): values compare equal when their class and state are the same
 * (values.c), and objects hold no language values to compare. The language runs on one thread,
 * as the account of values' memory does. */
static struct alias *aliases;

static void free_nothing(void *state) { (void)state; }

static void alias_destroy(struct alias *a)
{
    for (size_t i = 0; i < a->nargs; i++) free(a->args[i]);
    free(a->args);
    free(a->is_none);
    free(a->repr);
    free(a);
}

static void alias_free(void *state)
{
    struct alias *a = state;
    if (--a->refs > 0) return;
    for (struct alias **p = &aliases; *p; p = &(*p)->next)
        if (*p == a) {
            *p = a->next;
            break;
        }
    alias_destroy(a);
}

static void typevar_free(void *state)
{
    struct typevar *t = state;
    free(t->repr);
    free(t);
}

static int put_text(struct render_buf *b, const char *s)
{
    render_buf_puts(b, s);
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

static int form_repr(struct render_buf *b, const void *state)
{
    return put_text(b, ((const struct form *)state)->repr);
}

static int alias_repr(struct render_buf *b, const void *state)
{
    return put_text(b, ((const struct alias *)state)->repr);
}

static int typevar_repr(struct render_buf *b, const void *state)
{
    return put_text(b, ((const struct typevar *)state)->repr);
}

static int form_getitem(struct dsl_interp *in, struct dsl_value self, struct dsl_value key,
                        struct dsl_value *out);
static int alias_getitem(struct dsl_interp *in, struct dsl_value self, struct dsl_value key,
                         struct dsl_value *out);

#define FORM_DOC                                                                                   \
    "A name of typing, for annotations: subscript it (Tuple[float, ...], Optional[int]) to "       \
    "write a type. Nothing checks types: annotations are never evaluated."

static const struct dsl_object_class form_class = {
    .name = "_SpecialForm",
    .doc = FORM_DOC,
    .free = free_nothing,
    .repr = form_repr,
    .getitem = form_getitem,
};

/* Generic and Protocol: as a class's base they are no base (values.h, erased_base). */
static const struct dsl_object_class base_form_class = {
    .name = "type",
    .doc = "typing's Generic or Protocol: a class derives from it (class MapProto(Protocol):, "
           "class MathTest(Generic[A]):) only to tell a type checker about itself; the class "
           "gets no base from it.",
    .free = free_nothing,
    .repr = form_repr,
    .getitem = form_getitem,
    .erased_base = true,
};

static const struct dsl_object_class alias_class = {
    .name = "_GenericAlias",
    .doc = "A subscripted name of typing (Tuple[float, ...]): a type written for annotations.",
    .free = alias_free,
    .repr = alias_repr,
    .getitem = alias_getitem,
};

static const struct dsl_object_class base_alias_class = {
    .name = "_GenericAlias",
    .doc = "Generic[T] or Protocol[T]: as a class's base, no base at all.",
    .free = alias_free,
    .repr = alias_repr,
    .getitem = alias_getitem,
    .erased_base = true,
};

static const struct dsl_object_class typevar_class = {
    .name = "TypeVar",
    .doc = "A type variable, T = TypeVar(\"T\"): a name for annotations (def f(x: T) -> T).",
    .free = typevar_free,
    .repr = typevar_repr,
};

static bool is_alias(struct dsl_value v)
{
    return v.kind == DSL_OBJECT &&
           (v.as.obj->cls == &alias_class || v.as.obj->cls == &base_alias_class);
}
static bool is_typevar(struct dsl_value v)
{
    return v.kind == DSL_OBJECT && v.as.obj->cls == &typevar_class;
}

/* ---- the forms -------------------------------------------------------------------------- */

/* Half the range, as for Ellipsis (ast.c): the count never reaches zero, the rows are never
 * freed. */
#define FOREVER (SIZE_MAX / 2)

enum {
    F_ANY,
    F_ABSTRACTSET,
    F_CALLABLE,
    F_CLASSVAR,
    F_COLLECTION,
    F_CONTAINER,
    F_COUNTER,
    F_DEFAULTDICT,
    F_DEQUE,
    F_DICT,
    F_FINAL,
    F_FROZENSET,
    F_GENERATOR,
    F_GENERIC,
    F_HASHABLE,
    F_ITERABLE,
    F_ITERATOR,
    F_LIST,
    F_LITERAL,
    F_MAPPING,
    F_MUTABLEMAPPING,
    F_MUTABLESEQUENCE,
    F_NEVER,
    F_NORETURN,
    F_OPTIONAL,
    F_ORDEREDDICT,
    F_PROTOCOL,
    F_PROTOCOL_EXT, /* typing_extensions.Protocol, a class of its own there */
    F_SELF,
    F_SEQUENCE,
    F_SET,
    F_SIZED,
    F_TUPLE,
    F_TYPE,
    F_TYPEALIAS,
    F_UNION,
    F_ARRAYLIKE,
    F_NDARRAY,
    F_COUNT
};

#define FORM(id, class_, repr_, name_, how_, count_)                                               \
    [id] = {                                                                                       \
        .obj = {.refs = FOREVER, .cls = &class_, .state = &forms[id]},                             \
        .repr = repr_,                                                                             \
        .name = name_,                                                                             \
        .how = how_,                                                                               \
        .count = count_,                                                                           \
    }
#define PLAIN(id, name_) FORM(id, form_class, "typing." name_, "typing." name_, H_NONE, 0)
#define GENERIC(id, name_, n) FORM(id, form_class, "typing." name_, "typing." name_, H_COUNT, n)
#define SPECIAL(id, name_, how_) FORM(id, form_class, "typing." name_, "typing." name_, how_, 0)

static struct form forms[F_COUNT] = {
    PLAIN(F_ANY, "Any"),
    GENERIC(F_ABSTRACTSET, "AbstractSet", 1),
    SPECIAL(F_CALLABLE, "Callable", H_CALLABLE),
    SPECIAL(F_CLASSVAR, "ClassVar", H_SINGLE),
    GENERIC(F_COLLECTION, "Collection", 1),
    GENERIC(F_CONTAINER, "Container", 1),
    GENERIC(F_COUNTER, "Counter", 1),
    GENERIC(F_DEFAULTDICT, "DefaultDict", 2),
    GENERIC(F_DEQUE, "Deque", 1),
    GENERIC(F_DICT, "Dict", 2),
    SPECIAL(F_FINAL, "Final", H_SINGLE),
    GENERIC(F_FROZENSET, "FrozenSet", 1),
    GENERIC(F_GENERATOR, "Generator", 3),
    FORM(F_GENERIC, base_form_class, "<class 'typing.Generic'>", "typing.Generic", H_TYPEVARS, 0),
    PLAIN(F_HASHABLE, "Hashable"),
    GENERIC(F_ITERABLE, "Iterable", 1),
    GENERIC(F_ITERATOR, "Iterator", 1),
    GENERIC(F_LIST, "List", 1),
    SPECIAL(F_LITERAL, "Literal", H_LITERAL),
    GENERIC(F_MAPPING, "Mapping", 2),
    GENERIC(F_MUTABLEMAPPING, "MutableMapping", 2),
    GENERIC(F_MUTABLESEQUENCE, "MutableSequence", 1),
    PLAIN(F_NEVER, "Never"),
    PLAIN(F_NORETURN, "NoReturn"),
    SPECIAL(F_OPTIONAL, "Optional", H_OPTIONAL),
    GENERIC(F_ORDEREDDICT, "OrderedDict", 2),
    FORM(F_PROTOCOL, base_form_class, "<class 'typing.Protocol'>", "typing.Protocol", H_TYPEVARS,
         0),
    FORM(F_PROTOCOL_EXT, base_form_class, "<class 'typing_extensions.Protocol'>",
         "typing_extensions.Protocol", H_TYPEVARS, 0),
    PLAIN(F_SELF, "Self"),
    GENERIC(F_SEQUENCE, "Sequence", 1),
    GENERIC(F_SET, "Set", 1),
    PLAIN(F_SIZED, "Sized"),
    SPECIAL(F_TUPLE, "Tuple", H_TUPLE),
    GENERIC(F_TYPE, "Type", 1),
    PLAIN(F_TYPEALIAS, "TypeAlias"),
    SPECIAL(F_UNION, "Union", H_UNION),
    /* numpy 2.4's texts (older numpys write them otherwise); ArrayLike's is a long Union there */
    FORM(F_ARRAYLIKE, form_class, "numpy.typing.ArrayLike", "numpy.typing.ArrayLike", H_NONE, 0),
    FORM(F_NDARRAY, form_class, "numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[~_ScalarT]]",
         "numpy.ndarray", H_NDARRAY, 1),
};

static struct dsl_value form_value(int id)
{
    return dsl_value_retain((struct dsl_value){.kind = DSL_OBJECT, .as.obj = &forms[id].obj});
}

/* ---- the text of a type ----------------------------------------------------------------- */

/* CPython's typing._type_repr: a class by its name (__main__.Name for a class of the cell's),
 * None as NoneType, ... as itself, a list (Callable's parameters) item by item, a string as the
 * ForwardRef it stands for; anything else by its repr. */
static int type_text(struct render_buf *b, struct dsl_value v)
{
    if (v.kind == DSL_CLASS) {
        render_buf_printf(b, "%s%s", v.as.cls->builtin ? "" : "__main__.", v.as.cls->name);
    } else if (v.kind == DSL_NONE) {
        render_buf_puts(b, "NoneType");
    } else if (dsl_is_ellipsis(v)) {
        render_buf_puts(b, "...");
    } else if (v.kind == DSL_LIST && !dsl_is_tuple(v)) {
        render_buf_putc(b, '[');
        for (size_t i = 0; i < v.as.l->len; i++) {
            if (i) render_buf_puts(b, ", ");
            int st = type_text(b, v.as.l->items[i]);
            if (st != DSL_V_OK) return st;
        }
        render_buf_putc(b, ']');
    } else if (v.kind == DSL_STR) {
        render_buf_puts(b, "ForwardRef(");
        int st = dsl_value_repr(b, v);
        if (st != DSL_V_OK) return st;
        render_buf_putc(b, ')');
    } else {
        return dsl_value_repr(b, v);
    }
    return b->nomem ? DSL_V_NOMEM : DSL_V_OK;
}

/* The arguments of form[key]: the items of a tuple, else key alone (borrowed). */
static const struct dsl_value *args_of(const struct dsl_value *key, size_t *n)
{
    if (dsl_is_tuple(*key)) {
        *n = key->as.l->len;
        return key->as.l->items;
    }
    *n = 1;
    return key;
}

/* A new alias object of origin with text b (taken over) and, for a union, the members. */
static int make_alias(struct dsl_interp *in, const struct form *origin, struct render_buf *b,
                      struct alias *a, struct dsl_value *out)
{
    a->origin = origin;
    a->repr = b->nomem ? NULL : strdup(render_buf_str(b));
    render_buf_free(b);
    if (!a->repr) {
        alias_destroy(a);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    for (struct alias *same = aliases; same; same = same->next)
        if (same->origin == origin && strcmp(same->repr, a->repr) == 0) {
            alias_destroy(a);
            a = same;
            break;
        }
    if (a->refs++ == 0) {
        a->next = aliases;
        aliases = a;
    }
    const struct dsl_object_class *cls =
        origin->obj.cls == &base_form_class ? &base_alias_class : &alias_class;
    int st = dsl_object_value(cls, a, out); /* frees a (one reference) on failure */
    return st ? dsl_raise_status(in, st) : 0;
}

/* `name[a, b, ...]` with each argument's text (Literal: its repr). */
static int subscript_text(struct dsl_interp *in, const struct form *f, const struct dsl_value *args,
                          size_t n, struct render_buf *b, bool *typevars)
{
    render_buf_printf(b, "%s[", f->name);
    if (n == 0) render_buf_puts(b, "()"); /* Tuple[()] */
    for (size_t i = 0; i < n; i++) {
        if (i) render_buf_puts(b, ", ");
        int st = f->how == H_LITERAL ? dsl_value_repr(b, args[i]) : type_text(b, args[i]);
        if (st != DSL_V_OK) return dsl_raise_status(in, st);
        *typevars = *typevars || is_typevar(args[i]);
    }
    render_buf_putc(b, ']');
    return 0;
}

/* Union[...] (Optional[x] is Union[x, None]): members of a union argument taken in, repeats
 * dropped, one member left being that member itself; its text is Optional[x] when the members
 * are x and None, as CPython 3.11 writes it. */
static int make_union(struct dsl_interp *in, const struct dsl_value *args, size_t n,
                      struct dsl_value *out)
{
    struct alias *a = calloc(1, sizeof *a);
    size_t cap = n;
    for (size_t i = 0; i < n; i++)
        if (is_alias(args[i])) cap += ((const struct alias *)args[i].as.obj->state)->nargs;
    if (a && cap) {
        a->args = calloc(cap, sizeof *a->args);
        a->is_none = calloc(cap, sizeof *a->is_none);
    }
    if (!a || (cap && (!a->args || !a->is_none))) {
        if (a) alias_destroy(a);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    size_t single = 0; /* the argument the one member left came from */
    for (size_t i = 0; i < n; i++) {
        const struct alias *inner = is_alias(args[i]) ? args[i].as.obj->state : NULL;
        bool nested = inner && (inner->origin->how == H_UNION || inner->origin->how == H_OPTIONAL);
        size_t parts = nested ? inner->nargs : 1;
        for (size_t k = 0; k < parts; k++) {
            char *text = NULL;
            bool none = false;
            if (nested) {
                text = strdup(inner->args[k]);
                none = inner->is_none[k];
            } else {
                struct render_buf t;
                render_buf_init(&t, DSL_MAX_REPR_BYTES);
                int st = type_text(&t, args[i]);
                if (st != DSL_V_OK) {
                    render_buf_free(&t);
                    alias_destroy(a);
                    return dsl_raise_status(in, st);
                }
                text = strdup(render_buf_str(&t));
                render_buf_free(&t);
                none = args[i].kind == DSL_NONE || strcmp(text, "NoneType") == 0;
            }
            if (!text) {
                alias_destroy(a);
                return dsl_raise_status(in, DSL_V_NOMEM);
            }
            bool seen = false;
            for (size_t j = 0; j < a->nargs && !seen; j++) seen = strcmp(a->args[j], text) == 0;
            if (seen) {
                free(text);
                continue;
            }
            if (a->nargs == 0) single = i;
            a->is_none[a->nargs] = none;
            a->args[a->nargs++] = text;
        }
    }
    if (a->nargs == 0) {
        alias_destroy(a);
        return dsl_raise(in, "TypeError", "Cannot take a Union of no types.");
    }
    if (a->nargs == 1) { /* Union[int] is int, Union[None] NoneType */
        alias_destroy(a);
        *out = args[single].kind == DSL_NONE ? dsl_type_of(args[single])
                                             : dsl_value_retain(args[single]);
        return 0;
    }
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    if (a->nargs == 2 && a->is_none[0] != a->is_none[1]) {
        render_buf_printf(&b, "typing.Optional[%s]", a->args[a->is_none[0] ? 1 : 0]);
    } else {
        render_buf_puts(&b, "typing.Union[");
        for (size_t j = 0; j < a->nargs; j++)
            render_buf_printf(&b, "%s%s", j ? ", " : "", a->args[j]);
        render_buf_putc(&b, ']');
    }
    return make_alias(in, &forms[F_UNION], &b, a, out);
}

/* The text CPython's error gives the arguments: the tuple's repr, or the one value's. */
static int raise_with_args(struct dsl_interp *in, struct dsl_value key, const char *before,
                           const char *after)
{
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int st = dsl_value_repr(&b, key);
    if (st == DSL_V_OK) dsl_raise(in, "TypeError", "%s%s%s", before, render_buf_str(&b), after);
    render_buf_free(&b);
    return st == DSL_V_OK ? -1 : dsl_raise_status(in, st);
}

static int form_getitem(struct dsl_interp *in, struct dsl_value self, struct dsl_value key,
                        struct dsl_value *out)
{
    const struct form *f = self.as.obj->state;
    size_t n;
    const struct dsl_value *args = args_of(&key, &n);
    switch (f->how) {
    case H_NONE:
        if (f == &forms[F_ANY])
            return dsl_raise(in, "TypeError", "type 'Any' is not subscriptable");
        return dsl_raise(in, "TypeError", "%s is not subscriptable", f->repr);
    case H_COUNT:
    case H_NDARRAY:
        if (n != (size_t)f->count)
            return dsl_raise(in, "TypeError", "Too %s arguments for %s; actual %zu, expected %d",
                             n > (size_t)f->count ? "many" : "few",
                             f->how == H_NDARRAY ? f->repr : f->name, n, f->count);
        break;
    case H_SINGLE:
        if (n != 1) {
            char before[64];
            snprintf(before, sizeof before, "%s accepts only single type. Got ", f->name);
            return raise_with_args(in, key, before, ".");
        }
        break;
    case H_OPTIONAL:
        if (n != 1)
            return raise_with_args(in, key, "typing.Optional requires a single type. Got ", ".");
        return make_union(in, (const struct dsl_value[]){args[0], dsl_none()}, 2, out);
    case H_UNION: return make_union(in, args, n, out);
    case H_TYPEVARS: {
        const char *which = f == &forms[F_GENERIC] ? "Generic" : "Protocol";
        if (n == 0)
            return dsl_raise(in, "TypeError", "Parameter list to %s[...] cannot be empty", which);
        for (size_t i = 0; i < n; i++)
            if (!is_typevar(args[i]))
                return dsl_raise(in, "TypeError",
                                 "Parameters to %s[...] must all be type variables or parameter "
                                 "specification variables.",
                                 which);
        break;
    }
    case H_CALLABLE:
        if (n != 2)
            return dsl_raise(in, "TypeError",
                             "Callable must be used as Callable[[arg, ...], result].");
        break;
    case H_TUPLE:
    case H_LITERAL: break;
    }
    struct alias *a = calloc(1, sizeof *a);
    if (!a) return dsl_raise_status(in, DSL_V_NOMEM);
    struct render_buf b;
    render_buf_init(&b, DSL_MAX_REPR_BYTES);
    int r = 0;
    if (f->how == H_CALLABLE) { /* its parameters: a list, ..., or one type (as [type]) */
        bool list = args[0].kind == DSL_LIST && !dsl_is_tuple(args[0]);
        render_buf_printf(&b, "%s[%s", f->name, list || dsl_is_ellipsis(args[0]) ? "" : "[");
        int st = type_text(&b, args[0]);
        if (st == DSL_V_OK) {
            render_buf_puts(&b, list || dsl_is_ellipsis(args[0]) ? ", " : "], ");
            st = type_text(&b, args[1]);
        }
        render_buf_putc(&b, ']');
        if (st != DSL_V_OK) r = dsl_raise_status(in, st);
    } else if (f->how == H_NDARRAY) { /* numpy's dtypes are their names here: np.float64 */
        render_buf_printf(&b, "%s[tuple[typing.Any, ...], numpy.dtype[", f->name);
        int st = DSL_V_OK;
        if (args[0].kind == DSL_STR)
            render_buf_printf(&b, "numpy.%s", args[0].as.s->data);
        else
            st = type_text(&b, args[0]);
        render_buf_puts(&b, "]]");
        if (st != DSL_V_OK) r = dsl_raise_status(in, st);
    } else {
        r = subscript_text(in, f, args, n, &b, &a->typevars);
    }
    if (r != 0) {
        render_buf_free(&b);
        alias_destroy(a);
        return -1;
    }
    return make_alias(in, f, &b, a, out);
}

static int alias_getitem(struct dsl_interp *in, struct dsl_value self, struct dsl_value key,
                         struct dsl_value *out)
{
    (void)key, (void)out;
    const struct alias *a = self.as.obj->state;
    if (a->typevars)
        return dsl_raise(in, "NotImplementedError",
                         "substituting the type variables of %s is not supported in the "
                         "MiniTorch language: write the type out",
                         a->repr);
    return dsl_raise(in, "TypeError", "%s is not a generic class", a->repr);
}

/* ---- functions -------------------------------------------------------------------------- */

/* TypeVar(name, *constraints, bound=None, covariant=False, contravariant=False). */
static int t_typevar(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    if (a->nrest == 0)
        return dsl_raise(in, "TypeError", "TypeVar() missing required argument 'name' (pos 1)");
    struct dsl_value name = a->rest[0];
    if (name.kind != DSL_STR)
        return dsl_raise(in, "TypeError", "TypeVar() argument 'name' must be str, not %s",
                         dsl_type_name(name));
    if (a->nrest == 2) return dsl_raise(in, "TypeError", "A single constraint is not allowed");
    if (a->nrest > 2 && a->has[0] && a->slot[0].kind != DSL_NONE)
        return dsl_raise(in, "TypeError", "Constraints cannot be combined with bound=...");
    bool co = a->has[1] && dsl_value_truthy(a->slot[1]),
         contra = a->has[2] && dsl_value_truthy(a->slot[2]);
    if (co && contra) return dsl_raise(in, "ValueError", "Bivariant types are not supported.");
    struct typevar *t = calloc(1, sizeof *t);
    size_t len = name.as.s->len;
    if (t) t->repr = malloc(len + 2);
    if (!t || !t->repr) {
        free(t);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    t->repr[0] = co ? '+' : contra ? '-' : '~';
    memcpy(t->repr + 1, name.as.s->data, len + 1);
    int st = dsl_object_value(&typevar_class, t, ret);
    return st ? dsl_raise_status(in, st) : 0;
}

/* cast(typ, val) is val; the decorators give back what they decorate. */
static int t_second(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_value_retain(a->slot[1]);
    return 0;
}

static int t_first(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)in;
    *ret = dsl_value_retain(a->slot[0]);
    return 0;
}

static int t_false(struct dsl_interp *in, struct dsl_value *out)
{
    (void)in;
    *out = dsl_bool(false);
    return 0;
}

#define FORM_FN(id)                                                                                \
    static int v_##id(struct dsl_interp *in, struct dsl_value *out)                                \
    {                                                                                              \
        (void)in;                                                                                  \
        *out = form_value(id);                                                                     \
        return 0;                                                                                  \
    }
FORM_FN(F_ANY)
FORM_FN(F_ABSTRACTSET)
FORM_FN(F_CALLABLE)
FORM_FN(F_CLASSVAR)
FORM_FN(F_COLLECTION)
FORM_FN(F_CONTAINER)
FORM_FN(F_COUNTER)
FORM_FN(F_DEFAULTDICT)
FORM_FN(F_DEQUE)
FORM_FN(F_DICT)
FORM_FN(F_FINAL)
FORM_FN(F_FROZENSET)
FORM_FN(F_GENERATOR)
FORM_FN(F_GENERIC)
FORM_FN(F_HASHABLE)
FORM_FN(F_ITERABLE)
FORM_FN(F_ITERATOR)
FORM_FN(F_LIST)
FORM_FN(F_LITERAL)
FORM_FN(F_MAPPING)
FORM_FN(F_MUTABLEMAPPING)
FORM_FN(F_MUTABLESEQUENCE)
FORM_FN(F_NEVER)
FORM_FN(F_NORETURN)
FORM_FN(F_OPTIONAL)
FORM_FN(F_ORDEREDDICT)
FORM_FN(F_PROTOCOL)
FORM_FN(F_PROTOCOL_EXT)
FORM_FN(F_SELF)
FORM_FN(F_SEQUENCE)
FORM_FN(F_SET)
FORM_FN(F_SIZED)
FORM_FN(F_TUPLE)
FORM_FN(F_TYPE)
FORM_FN(F_TYPEALIAS)
FORM_FN(F_UNION)
FORM_FN(F_ARRAYLIKE)
FORM_FN(F_NDARRAY)

static const char *const cast_params[] = {"typ", "val", NULL};
static const char *const fn_params[] = {"func", NULL};
static const char *const cls_params[] = {"cls", NULL};
static const char *const typevar_params[] = {"bound", "covariant", "contravariant", NULL};

#define F(name_, id, doc_) VALUE(name_, "typing." name_, v_##id, doc_)

/* The rows typing and typing_extensions share, sorted by name, with `protocol` their Protocol
 * (each module's own class in CPython). */
#define TYPING_MEMBERS(protocol_id)                                                                \
    F("AbstractSet", F_ABSTRACTSET, "A set type: AbstractSet[int]."),                              \
        F("Any", F_ANY, "Any type at all."),                                                       \
        F("Callable", F_CALLABLE, "A function type: Callable[[float, float], float]."),            \
        F("ClassVar", F_CLASSVAR, "A class variable's type: ClassVar[int]."),                      \
        F("Collection", F_COLLECTION, "A sized iterable container: Collection[int]."),             \
        F("Container", F_CONTAINER, "A type with `in`: Container[int]."),                          \
        F("Counter", F_COUNTER, "collections.Counter's type: Counter[str]."),                      \
        F("DefaultDict", F_DEFAULTDICT, "collections.defaultdict's type: DefaultDict[str, int]."), \
        F("Deque", F_DEQUE, "collections.deque's type: Deque[int]."),                              \
        F("Dict", F_DICT, "A dict type: Dict[str, int]."),                                         \
        F("Final", F_FINAL, "A name never reassigned: Final[int]."),                               \
        F("FrozenSet", F_FROZENSET, "A frozenset type: FrozenSet[int]."),                          \
        F("Generator", F_GENERATOR, "A generator type: Generator[yield, send, return]."),          \
        F("Generic", F_GENERIC,                                                                    \
          "The base of a generic class, class MathTest(Generic[A]): no base here."),               \
        F("Hashable", F_HASHABLE, "A type whose values hash."),                                    \
        F("Iterable", F_ITERABLE, "An iterable type: Iterable[float]."),                           \
        F("Iterator", F_ITERATOR, "An iterator type: Iterator[int]."),                             \
        F("List", F_LIST, "A list type: List[float]."),                                            \
        F("Literal", F_LITERAL, "Exactly these values: Literal['sum', 'mean']."),                  \
        F("Mapping", F_MAPPING, "A read-only dict type: Mapping[str, int]."),                      \
        F("MutableMapping", F_MUTABLEMAPPING, "A dict type: MutableMapping[str, int]."),           \
        F("MutableSequence", F_MUTABLESEQUENCE, "A list type: MutableSequence[int]."),             \
        F("Never", F_NEVER, "The type with no values."),                                           \
        F("NoReturn", F_NORETURN, "What a function that never returns returns."),                  \
        F("Optional", F_OPTIONAL, "The type or None: Optional[Tensor] is Union[Tensor, None]."),   \
        F("OrderedDict", F_ORDEREDDICT, "collections.OrderedDict's type."),                        \
        VALUE("Protocol", "typing.Protocol", v_##protocol_id,                                      \
              "The base of a structural type, class MapProto(Protocol): no base here."),           \
        F("Self", F_SELF, "The type of self."),                                                    \
        F("Sequence", F_SEQUENCE, "A sequence type (list, tuple): Sequence[int]."),                \
        F("Set", F_SET, "A set type: Set[int]."), F("Sized", F_SIZED, "A type with len()."),       \
        VALUE("TYPE_CHECKING", "typing.TYPE_CHECKING", t_false,                                    \
              "False: true only for a type checker, so `if TYPE_CHECKING:` blocks do not run."),   \
        F("Tuple", F_TUPLE, "A tuple type: Tuple[int, int], Tuple[float, ...]."),                  \
        F("Type", F_TYPE, "A class as a value: Type[TensorOps]."),                                 \
        F("TypeAlias", F_TYPEALIAS, "Marks a type alias: Storage: TypeAlias = ..."),               \
        FN("TypeVar",                                                                              \
           "TypeVar(name, *constraints, bound=None, covariant=False, "                             \
           "contravariant=False)",                                                                 \
           1, -1, typevar_params, t_typevar,                                                       \
           "A type variable for annotations: T = TypeVar(\"T\"); its repr is ~T."),                \
        F("Union", F_UNION, "One of these types: Union[int, float]."),                             \
        FN("cast", "cast(typ, val)", 2, 2, cast_params, t_second,                                  \
           "Returns val: it only tells a type checker val's type."),                               \
        FN("final", "final(f)", 1, 1, fn_params, t_first,                                          \
           "Returns f: it only tells a type checker f is not overridden."),                        \
        FN("no_type_check", "no_type_check(func)", 1, 1, fn_params, t_first,                       \
           "Returns func: it only tells a type checker to skip it."),                              \
        FN("overload", "overload(func)", 1, 1, fn_params, t_first,                                 \
           "Returns func: the def without @overload that follows is the one that runs."),          \
        FN("runtime_checkable", "runtime_checkable(cls)", 1, 1, cls_params, t_first,               \
           "Returns cls: a Protocol class marked for isinstance checks.")

static const struct member typing_members[] = {TYPING_MEMBERS(F_PROTOCOL)};
static const struct member typing_ext_members[] = {TYPING_MEMBERS(F_PROTOCOL_EXT)};

const struct module mod_typing = {
    .cls = MODULE_CLASS("module: typing's names for annotations (Any, Callable, Optional, Tuple, "
                        "TypeVar, Generic, Protocol, TYPE_CHECKING...), as CPython's values; "
                        "nothing checks types."),
    .name = "typing",
    .members = MEMBERS(typing_members),
};

const struct module mod_typing_extensions = {
    .cls = MODULE_CLASS("module: typing_extensions, the same names as typing (its Protocol is a "
                        "class of its own)."),
    .name = "typing_extensions",
    .members = MEMBERS(typing_ext_members),
};

static const struct member numpy_typing_members[] = {
    VALUE("ArrayLike", "numpy.typing.ArrayLike", v_F_ARRAYLIKE,
          "What numpy.array takes: an annotation only."),
    VALUE("NDArray", "numpy.typing.NDArray", v_F_NDARRAY,
          "An array type: NDArray[np.float64], as MiniTorch's Storage."),
};

const struct module mod_numpy_typing = {
    .cls = MODULE_CLASS("module: numpy.typing's NDArray and ArrayLike, for annotations."),
    .name = "numpy.typing",
    .members = MEMBERS(numpy_typing_members),
};
