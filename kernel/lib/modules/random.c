/* random.c — Python's random module, drawing from the session's one generator (the engine
 * context's MT19937, seeded as Python's random.seed), the one seed(), rand() and dataset() draw
 * from. It draws as CPython's random does (random() 53 bits, _randbelow by getrandbits for
 * randint, choice and shuffle), so that `random.seed(1); random.shuffle(xs)` gives CPython's
 * order. */
#include "lib/modules/module.h"

#include "lib/tensor_methods.h"

#include <stdlib.h>
#include <time.h>

static int r_random(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)a;
    *ret = dsl_float(mt_random(ctx_of(in)));
    return 0;
}

static int r_seed(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    *ret = dsl_none();
    if (a->has[0] && a->slot[0].kind != DSL_NONE)
        return dsl_seed_value(in, a->slot[0], "seed", "a");
    /* seed() or seed(None): from the clock, as CPython seeds from the system's randomness */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    mt_seed(ctx_of(in), (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
    return 0;
}

static int r_uniform(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    double lo, hi;
    if (mod_real_arg(in, a->slot[0], &lo) != 0 || mod_real_arg(in, a->slot[1], &hi) != 0) return -1;
    *ret = dsl_float(lo + (hi - lo) * mt_random(ctx_of(in)));
    return 0;
}

/* CPython's randrange(start, stop) for stop > start: start + _randbelow(stop - start). */
static int below(struct dsl_interp *in, int64_t lo, int64_t hi_excl, const char *fn,
                 struct dsl_value *ret)
{
    if (hi_excl <= lo)
        return dsl_raise(in, "ValueError", "empty range for %s (%lld, %lld, %lld)", fn,
                         (long long)lo, (long long)hi_excl, (long long)(hi_excl - lo));
    uint64_t width = (uint64_t)hi_excl - (uint64_t)lo;
    if (width > ((uint64_t)1 << 63))
        return dsl_raise(in, "OverflowError", "%s: the range is wider than 2**63", fn);
    *ret = dsl_int((int64_t)((uint64_t)lo + mt_random_below(ctx_of(in), width)));
    return 0;
}

static int r_randint(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t lo, hi;
    if (mod_int_arg(in, a->slot[0], &lo) != 0 || mod_int_arg(in, a->slot[1], &hi) != 0) return -1;
    if (hi == INT64_MAX) return dsl_raise(in, "OverflowError", "randint(): b is too large");
    return below(in, lo, hi + 1, "randrange()", ret);
}

static int r_randrange(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    int64_t lo = 0, hi;
    if (mod_int_arg(in, a->slot[0], &hi) != 0) return -1;
    if (a->has[1] && a->slot[1].kind != DSL_NONE) {
        lo = hi;
        if (mod_int_arg(in, a->slot[1], &hi) != 0) return -1;
    } else if (hi <= 0) {
        return dsl_raise(in, "ValueError", "empty range for randrange()");
    }
    return below(in, lo, hi, "randrange()", ret);
}

static int r_choice(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value seq = a->slot[0];
    int64_t n;
    if (seq.kind == DSL_LIST)
        n = (int64_t)seq.as.l->len;
    else if (seq.kind == DSL_RANGE)
        n = dsl_range_len(seq.as.rng->r);
    else if (seq.kind == DSL_STR)
        n = (int64_t)render_utf8_count(seq.as.s->data, seq.as.s->len);
    else
        return dsl_raise(in, "TypeError", "object of type '%s' has no len()", dsl_type_name(seq));
    if (n == 0) return dsl_raise(in, "IndexError", "Cannot choose from an empty sequence");
    int64_t k = (int64_t)mt_random_below(ctx_of(in), (uint64_t)n);
    struct dsl_iter it;
    if (dsl_iter_init(in, seq, &it) != 0) return -1;
    for (int64_t i = 0;; i++) { /* strings step by character; lists and ranges could index */
        struct dsl_value v;
        int r = dsl_iter_next(in, &it, &v);
        if (r > 0 && i == k) *ret = v;
        if (r <= 0 || i == k) {
            dsl_iter_end(&it);
            if (r > 0) return 0;
            return r < 0 ? -1 : dsl_raise(in, "IndexError", "choice(): index out of range");
        }
        dsl_value_release(v);
    }
}

static int r_shuffle(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value xs = a->slot[0];
    if (xs.kind != DSL_LIST || xs.as.l->style == DSL_LIST_TUPLE)
        return dsl_raise(in, "TypeError", "'%s' object does not support item assignment",
                         dsl_type_name(xs));
    struct dsl_list *l = xs.as.l;
    int64_t n = (int64_t)l->len;
    int64_t *perm = malloc((size_t)(n ? n : 1) * sizeof *perm);
    struct dsl_value *old = malloc((size_t)(n ? n : 1) * sizeof *old);
    if (!perm || !old) {
        free(perm);
        free(old);
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    for (int64_t i = 0; i < n; i++) perm[i] = i, old[i] = l->items[i];
    /* the same swaps on the positions as CPython makes on the items */
    mt_shuffle(ctx_of(in), perm, n);
    for (int64_t i = 0; i < n; i++) l->items[i] = old[perm[i]];
    free(perm);
    free(old);
    *ret = dsl_none();
    return 0;
}

static const char *const seed_params[] = {"a", NULL};
/* random.getstate(): CPython's (3, (word 0, ..., word 623, position), None), the same tuple as
 * CPython's after the same seed and draws */
static int r_getstate(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    (void)a;
    uint32_t words[MT_RANDOM_WORDS];
    int pos;
    mt_random_state(ctx_of(in), words, &pos);
    struct dsl_list *inner = dsl_list_new(MT_RANDOM_WORDS + 1), *outer = dsl_list_new(3);
    if (!inner || !outer) {
        if (inner) dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = inner});
        if (outer) dsl_value_release((struct dsl_value){.kind = DSL_LIST, .as.l = outer});
        return dsl_raise_status(in, DSL_V_NOMEM);
    }
    for (int i = 0; i < MT_RANDOM_WORDS; i++) inner->items[inner->len++] = dsl_int(words[i]);
    inner->items[inner->len++] = dsl_int(pos);
    inner->style = outer->style = DSL_LIST_TUPLE;
    outer->items[outer->len++] = dsl_int(3);
    outer->items[outer->len++] = (struct dsl_value){.kind = DSL_LIST, .as.l = inner};
    outer->items[outer->len++] = dsl_none();
    *ret = (struct dsl_value){.kind = DSL_LIST, .as.l = outer};
    return 0;
}

/* random.setstate(state): a state getstate() gave, with CPython's errors for others */
static int r_setstate(struct dsl_interp *in, const struct dsl_args *a, struct dsl_value *ret)
{
    struct dsl_value st = a->slot[0];
    if (st.kind != DSL_LIST || st.as.l->style != DSL_LIST_TUPLE)
        return dsl_raise(in, "TypeError", "setstate() takes the tuple getstate() gave, not %s",
                         dsl_type_name(st));
    const struct dsl_list *t = st.as.l;
    if (t->len != 3)
        return dsl_raise(in, "ValueError", "%s values to unpack (expected 3, got %zu)",
                         t->len < 3 ? "not enough" : "too many", t->len);
    if (t->items[0].kind != DSL_INT || t->items[0].as.i != 3)
        return dsl_raise(in, "ValueError",
                         "setstate() takes a state of version 3, as getstate() gives");
    const struct dsl_value w = t->items[1];
    if (w.kind != DSL_LIST || w.as.l->len != MT_RANDOM_WORDS + 1)
        return dsl_raise(in, "ValueError", "state vector is the wrong size");
    uint32_t words[MT_RANDOM_WORDS];
    for (int i = 0; i <= MT_RANDOM_WORDS; i++) {
        struct dsl_value v = w.as.l->items[i];
        if (!dsl_is_intlike(v))
            return dsl_raise(in, "TypeError", "the state's words are ints, not %s",
                             dsl_type_name(v));
        if (dsl_as_int(v) < 0)
            return dsl_raise(in, "OverflowError", "can't convert negative value to unsigned int");
        if (i < MT_RANDOM_WORDS) words[i] = (uint32_t)dsl_as_int(v);
    }
    int64_t pos = dsl_as_int(w.as.l->items[MT_RANDOM_WORDS]);
    if (pos > MT_RANDOM_WORDS || mt_random_set_state(ctx_of(in), words, (int)pos) != MT_OK)
        return dsl_raise(in, "ValueError", "invalid state");
    *ret = dsl_none();
    return 0;
}

static const char *const ab_params[] = {"a", "b", NULL};
static const char *const seq_params[] = {"seq", NULL};
static const char *const shuffle_params[] = {"x", NULL};
static const char *const state_params[] = {"state", NULL};
static const char *const randrange_params[] = {"start", "stop", NULL};

static const struct member random_members[] = {
    FN("choice", "random.choice(seq)", 1, 1, seq_params, r_choice,
       "An item of the non-empty sequence seq, chosen as CPython chooses it."),
    FN("getstate", "random.getstate()", 0, 0, NULL, r_getstate,
       "The generator's state, CPython's tuple: setstate() of it draws the same numbers again."),
    FN("randint", "random.randint(a, b)", 2, 2, ab_params, r_randint,
       "An integer N with a <= N <= b, drawn as CPython draws it."),
    FN("random", "random.random()", 0, 0, NULL, r_random,
       "The next float in [0, 1) from the session's generator: CPython's numbers for the same "
       "seed. seed(), rand() and dataset() draw from the same generator."),
    FN("randrange", "random.randrange(start, stop=None)", 1, 2, randrange_params, r_randrange,
       "An integer in range(start, stop) (or range(start) with one argument)."),
    FN("seed", "random.seed(a=None)", 0, 1, seed_params, r_seed,
       "Seeds the session's generator as CPython's random.seed(a) does for an integer a (the "
       "same as the kernel's seed(a)); without a, from the clock."),
    FN("setstate", "random.setstate(state)", 1, 1, state_params, r_setstate,
       "Puts back a state getstate() gave."),
    FN("shuffle", "random.shuffle(x)", 1, 1, shuffle_params, r_shuffle,
       "Shuffles the list x in place, in CPython's order for the same seed (so MiniTorch's "
       "`random.shuffle(c)` of its training loop draws the same batches)."),
    FN("uniform", "random.uniform(a, b)", 2, 2, ab_params, r_uniform,
       "a + (b - a) * random(): a float between a and b."),
};

const struct module mod_random = {
    .cls = MODULE_CLASS("module: Python's random, drawing from the session's one generator "
                        "(CPython's Mersenne Twister: the same numbers for the same seed)."),
    .name = "random",
    .members = MEMBERS(random_members),
};
