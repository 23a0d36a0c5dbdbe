/* jit/listing.h — what the loops of a compiled njit kernel cost in machine instructions, read from
 * the disassembly of its shared object (jit/listing.c; internal to kernel/lib, used by
 * parallel_diagnostics, jit/diagnostics.c). */
#ifndef KERNEL_LIB_JIT_LOOPS_H
#define KERNEL_LIB_JIT_LOOPS_H

/* A sentence on the loops over elements of the kernel in objdump's listing text (functions
 * jit_entry and its OpenMP parts): for each, the instructions it runs per element (per vector
 * of elements where gcc vectorised it), and per step of each loop nested in it (the index math
 * over dims). NULL when it finds no loop with float arithmetic, or out of memory. */
char *jit_loops_from_listing(const char *listing);

/* The same for the shared object at path, disassembled by objdump; or a sentence saying why
 * it could not be read. NULL only when out of memory. */
char *jit_loops_describe(const char *path);

#endif
