/* rt/env.h — what the compiled code and the kernel share: the error record of a call or launch
 * (struct jit_env), its kinds of error, the simulator's record of global writes and its table of
 * access sites. The kernel includes it as a header; CMake embeds its text into every unit, after
 * rt/host.inc or rt/cuda.inc, which define the fixed-width integer types it uses (a unit reads
 * no system header). One definition, so the two sides cannot disagree on a field. */
#ifndef KERNEL_LIB_JIT_RT_ENV_H
#define KERNEL_LIB_JIT_RT_ENV_H

/* What went wrong (jit_env.kind), as the kernel reports it: the Python exception and its words
 * are chosen by the kernel (jit/call.c, jit/cuda.c) from the kind and the record's fields. */
enum jit_error {
    JIT_E_INDEX = 1,         /* IndexError: index, size, what (the array) */
    JIT_E_ZERO_DIV = 2,      /* ZeroDivisionError: what (the message) */
    JIT_E_RANGE_STEP = 3,    /* range() with step 0 */
    JIT_E_INTERRUPT = 4,     /* the interrupt, seen between chunks */
    JIT_E_INT_NAN = 5,       /* int() of a NaN */
    JIT_E_BROADCAST = 6,     /* int arrays of lengths index, size that do not broadcast */
    JIT_E_RACE_WRITE = 7,    /* two prange iterations (size, other) wrote element index */
    JIT_E_MATH_DOMAIN = 8,   /* outside a math function's domain (math.sqrt(-1.0)) */
    JIT_E_MATH_RANGE = 9,    /* a math function overflowing (math.exp(1000.0)) */
    JIT_E_SHARED_RACE = 10,  /* two CUDA threads met at a shared element, no barrier between */
    JIT_E_SHARED_UNSET = 11, /* a CUDA thread read a shared element no thread wrote */
    JIT_E_SYNC_ENDED = 12,   /* a thread waits at syncthreads() that another ended without */
    JIT_E_SYNC_OTHER = 13,   /* two threads wait at different syncthreads() */
    JIT_E_NEG_POWER = 14,    /* int ** negative int (index: the power) */
    JIT_E_RAISE = 15,        /* a kernel's own raise statement (index: which) */
    JIT_E_INT_OVERFLOW = 16, /* // or ** past 64 bits (what: the operator) */
    JIT_E_GLOBAL_RACE = 17,  /* two CUDA threads wrote one element of a Storage, unordered */
    JIT_E_OVERFLOW = 18,     /* OverflowError: what (the message) */
    JIT_E_VALUE = 19,        /* ValueError: what (the message) */
    JIT_E_RACE_READ = 20,    /* a prange iteration read what another wrote (other -2: several) */
    JIT_E_ASSERT = 21,       /* an assert statement failed: what (its message, or "") */
    JIT_E_UNPACK = 22,       /* unpacking index values into size names */
};

/* The simulator's record of global writes: per Storage the kernel writes, the thread that last
 * wrote each element ((block * 1024 + thread) + 1, 0 for none) and the interval of its block it
 * wrote in (rt/sim.inc). */
struct jit_gw {
    const void *p;
    uint64_t *who;
    uint32_t *epoch;
};

/* A simulated kernel's access site (a global or shared array read or written at one place of
 * the source), as its unit's table jit_sites[] has it. kind: 0 global read, 1 global write,
 * 2 shared read, 3 shared write; size: the element's bytes. */
struct jit_site {
    long long where;
    const char *name;
    int kind, size;
};

/* A call's or a launch's record: set up by the kernel, filled by the compiled code. */
struct jit_env {
    int threads;
    int failed;
    int kind; /* enum jit_error */
    long long where;
    int64_t index, size;
    const char *what;
    const volatile unsigned char *stop; /* the cancel flag (mt_cancel_flag) */
    int64_t other;                      /* races: the other iteration (-2 several) */
    int64_t **shadow; /* the race records: per parameter, the iteration that wrote each element,
                       * then the one that read it */
    /* a cuda.jit kernel's launch; the block and thread that failed, and for a race or a
     * barrier the other thread and where it was; the array's name (from the GPU) */
    int64_t grid[3], block[3], bid[3], tid[3], other_tid[3];
    long long other_where;
    char name[32];
    char *shm;
    void *blk;
    /* the simulator's counts of each access site's warps: whether to count, the blocks
     * counted, and per site requests, transactions (sectors of 32 bytes; shared memory's
     * wavefronts) and the fewest those requests could have taken */
    int counting;
    int64_t counted;
    double *stats;
    /* the simulator's blocks' stacks, from the kernel's pool (jit/cuda.c) */
    char *(*stacks_take)(int n, long each);
    void (*stacks_give)(char *stacks);
    int ngw;
    struct jit_gw *gw;
};

#endif
