/* sequences.c — + and * on strings and lists: concatenation and repetition, within the
 * language's size limits (DSL_MAX_STR_BYTES, DSL_MAX_LIST_LEN) checked before allocating (see
 * operators.h). */
#include "lang/operators.h"

#include "lang/interp.h"

#include <stdint.h>
#include <string.h>

int dsl_seq_concat(struct dsl_interp *in, struct dsl_value a, struct dsl_value b,
                   struct dsl_value *out)
{
    if (a.kind == DSL_STR) {
        size_t n = a.as.s->len + b.as.s->len;
        if (n > DSL_MAX_STR_BYTES) return dsl_raise_size(in, "string", n);
        struct dsl_str *s = dsl_str_alloc(n);
        if (!s) return dsl_raise_status(in, DSL_V_NOMEM);
        memcpy(s->data, a.as.s->data, a.as.s->len);
        memcpy(s->data + a.as.s->len, b.as.s->data, b.as.s->len);
        out->kind = DSL_STR;
        out->as.s = s;
        return 0;
    }
    size_t n = a.as.l->len + b.as.l->len;
    if (n > DSL_MAX_LIST_LEN) return dsl_raise_size(in, "list", n);
    struct dsl_list *l = dsl_list_new(n);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    for (size_t i = 0; i < a.as.l->len; i++) dsl_list_push(l, dsl_value_retain(a.as.l->items[i]));
    for (size_t i = 0; i < b.as.l->len; i++) dsl_list_push(l, dsl_value_retain(b.as.l->items[i]));
    if (dsl_is_tuple(a)) l->style = DSL_LIST_TUPLE; /* tuple + tuple; list + list is a list */
    out->kind = DSL_LIST;
    out->as.l = l;
    return 0;
}

/* n copies of len items or bytes, for the message of a repetition over the limit (saturated:
 * it only has to say "too many") */
static uint64_t times(uint64_t len, int64_t n)
{
    uint64_t r;
    return __builtin_mul_overflow(len, (uint64_t)n, &r) ? UINT64_MAX : r;
}

int dsl_seq_repeat(struct dsl_interp *in, struct dsl_value seq, int64_t n, struct dsl_value *out)
{
    /* empty times anything is empty at once: "" * 10**12 must not loop 10**12 times (found by
     * the language fuzzer, a 15-byte input that hung it) */
    if (n < 0 || (seq.kind == DSL_STR ? seq.as.s->len : seq.as.l->len) == 0) n = 0;
    if (seq.kind == DSL_STR) {
        size_t len = seq.as.s->len;
        /* checked before allocating: "x" * 10**10 asks for 10 GB and must not try */
        if (len && (uint64_t)n > DSL_MAX_STR_BYTES / len)
            return dsl_raise_size(in, "string", times(len, n));
        struct dsl_str *s = dsl_str_alloc(len * (size_t)n);
        if (!s) return dsl_raise_status(in, DSL_V_NOMEM);
        for (int64_t i = 0; i < n; i++) memcpy(s->data + (size_t)i * len, seq.as.s->data, len);
        out->kind = DSL_STR;
        out->as.s = s;
        return 0;
    }
    size_t len = seq.as.l->len;
    if (len && (uint64_t)n > DSL_MAX_LIST_LEN / len)
        return dsl_raise_size(in, "list", times(len, n));
    struct dsl_list *l = dsl_list_new(len * (size_t)n);
    if (!l) return dsl_raise_status(in, DSL_V_NOMEM);
    for (int64_t i = 0; i < n; i++)
        for (size_t j = 0; j < len; j++) dsl_list_push(l, dsl_value_retain(seq.as.l->items[j]));
    if (dsl_is_tuple(seq)) l->style = DSL_LIST_TUPLE;
    out->kind = DSL_LIST;
    out->as.l = l;
    return 0;
}
