/* gc.c — the cycle collector.
 *
 * Reference counting frees a value the moment nothing holds it, but never a cycle: an instance
 * that holds itself (`self.me = self`), a nested function in a cell of its own (a closure that
 * calls itself), a class whose methods' owner is the class. Python's answer, used here too, is
 * trial deletion over the containers: every container is on one list; a collection subtracts
 * from each container's count the references other containers hold to it. What is left counts
 * references from outside (variables, frames, C code holding a value), so a container with a
 * count above zero, and everything it reaches, is alive; the rest is held only by cycles of
 * garbage, and is cleared (breaking the cycles) and freed. No roots need listing, so C code
 * never registers what it holds, and a collection is safe wherever a release would be.
 *
 * Containers are made and freed by one thread at a time (the kernel runs one cell at a time),
 * so the list needs no lock. */
#include "lang/values.h"

#include "lang/dict.h"
#include "lang/exceptions.h"

#include <stddef.h>

enum { GC_ALIVE = 0, GC_TENTATIVE = 1 };

static struct dsl_gc all = {&all, &all, 0, 0, 0};
static size_t tracked;        /* containers on the list */
static size_t made_since;     /* containers made since the last collection */
static size_t live_after = 0; /* containers left by the last collection */

static void link_tail(struct dsl_gc *list, struct dsl_gc *g)
{
    g->prev = list->prev;
    g->next = list;
    list->prev->next = g;
    list->prev = g;
}

static void unlink_gc(struct dsl_gc *g)
{
    g->prev->next = g->next;
    g->next->prev = g->prev;
}

void dsl_gc_track(struct dsl_gc *g, enum dsl_kind kind)
{
    g->kind = (unsigned char)kind;
    g->state = GC_ALIVE;
    link_tail(&all, g);
    tracked++;
    made_since++;
}

void dsl_gc_untrack(struct dsl_gc *g)
{
    if (!g->prev) return;
    unlink_gc(g);
    g->prev = g->next = NULL;
    tracked--;
}

/* The container a list entry belongs to. */
static struct dsl_value value_of(struct dsl_gc *g)
{
#define OWNER(type, field) ((type *)(void *)((char *)g - offsetof(type, gc)))
    struct dsl_value v = {.kind = (enum dsl_kind)g->kind};
    switch (v.kind) {
    case DSL_LIST: v.as.l = OWNER(struct dsl_list, gc); break;
    case DSL_METHOD: v.as.m = OWNER(struct dsl_method, gc); break;
    case DSL_FUNCTION: v.as.fn_user = OWNER(struct dsl_function, gc); break;
    case DSL_CELL: v.as.cell = OWNER(struct dsl_cell, gc); break;
    case DSL_CLASS: v.as.cls = OWNER(struct dsl_class, gc); break;
    case DSL_INSTANCE: v.as.inst = OWNER(struct dsl_instance, gc); break;
    case DSL_SUPER: v.as.sup = OWNER(struct dsl_super, gc); break;
    case DSL_DICT:
    case DSL_SET: v.as.d = OWNER(struct dsl_dict, gc); break;
    case DSL_EXCEPTION: v.as.exc = OWNER(struct dsl_exception, gc); break;
    default: v.kind = DSL_NONE; break;
    }
#undef OWNER
    return v;
}

/* The list entry of a held value, or NULL when it is no tracked container. */
static struct dsl_gc *gc_of(struct dsl_value v)
{
    struct dsl_gc *g = NULL;
    switch (v.kind) {
    case DSL_LIST: g = &v.as.l->gc; break;
    case DSL_METHOD: g = &v.as.m->gc; break;
    case DSL_FUNCTION: g = &v.as.fn_user->gc; break;
    case DSL_CELL: g = &v.as.cell->gc; break;
    case DSL_CLASS: g = &v.as.cls->gc; break;
    case DSL_INSTANCE: g = &v.as.inst->gc; break;
    case DSL_SUPER: g = &v.as.sup->gc; break;
    case DSL_DICT:
    case DSL_SET: g = &v.as.d->gc; break;
    case DSL_EXCEPTION: g = &v.as.exc->gc; break;
    default: return NULL;
    }
    return g->prev ? g : NULL;
}

static void subtract_ref(struct dsl_value held, void *arg)
{
    (void)arg;
    struct dsl_gc *g = gc_of(held);
    if (g && g->gc_refs > 0) g->gc_refs--;
}

/* held is reachable from a container known to be alive. */
static void keep_alive(struct dsl_value held, void *arg)
{
    struct dsl_gc *g = gc_of(held);
    if (!g) return;
    if (g->state == GC_TENTATIVE) { /* back onto the list, where the walk will reach it */
        unlink_gc(g);
        link_tail(&all, g);
        g->state = GC_ALIVE;
        g->gc_refs = 1;
    } else if (g->gc_refs == 0) {
        g->gc_refs = 1; /* not walked yet: it will be, as alive */
    }
    (void)arg;
}

size_t dsl_gc_collect(void)
{
    made_since = 0;
    for (struct dsl_gc *g = all.next; g != &all; g = g->next) {
        g->gc_refs = *dsl_value_refs(value_of(g));
        g->state = GC_ALIVE;
    }
    for (struct dsl_gc *g = all.next; g != &all; g = g->next)
        dsl_value_traverse(value_of(g), subtract_ref, NULL);
    struct dsl_gc unreachable = {&unreachable, &unreachable, 0, 0, 0};
    for (struct dsl_gc *g = all.next, *next; g != &all; g = next) {
        next = g->next;
        if (g->gc_refs > 0) {
            dsl_value_traverse(value_of(g), keep_alive, NULL);
            next = g->next; /* keep_alive may have appended entries after the old tail */
        } else {
            unlink_gc(g);
            link_tail(&unreachable, g);
            g->state = GC_TENTATIVE;
        }
    }
    /* Hold every unreachable container so that none is freed while the cycles are broken,
     * then clear them all, then let go: each is freed as its last reference goes. */
    size_t freed = 0;
    for (struct dsl_gc *g = unreachable.next; g != &unreachable; g = g->next) {
        ++*dsl_value_refs(value_of(g));
        g->state = GC_ALIVE;
        freed++;
    }
    for (struct dsl_gc *g = unreachable.next; g != &unreachable; g = g->next)
        dsl_value_clear(value_of(g));
    while (unreachable.next != &unreachable) {
        struct dsl_gc *g = unreachable.next;
        struct dsl_value v = value_of(g);
        unlink_gc(g); /* back on the main list until it is freed: untrack expects a list */
        link_tail(&all, g);
        dsl_value_release(v);
    }
    live_after = tracked;
    return freed;
}

size_t dsl_gc_tracked(void) { return tracked; }

void dsl_gc_maybe_collect(void)
{
    /* a collection walks every container: paying for it only when the containers made since
     * the last one are many next to those alive keeps its cost proportional to allocation */
    if (made_since >= 10000 && made_since >= live_after / 2) dsl_gc_collect();
}
