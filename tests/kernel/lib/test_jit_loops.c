/* test_jit_loops.c — the instructions per element parallel_diagnostics reads from a compiled
 * kernel's machine code (kernel/lib/jit/listing.c): on a listing written here, whose loops are
 * counted by hand, and on a file objdump cannot read. A real kernel's line is in test_jit.c. */
#include "lib/jit/listing.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

/* jit_entry's OpenMP part: a loop over elements (5 instructions of its own) holding an integer
 * loop over dims (5), then a loop that only clears a buffer with packed moves; its cold part,
 * where gcc puts what it guesses runs rarely, with a loop over elements (2); jit_entry itself:
 * a loop vectorised over 8 floats (4 instructions); another function's float loop, which does
 * not count. */
static const char listing[] = "\n"
                              "k.so:     file format elf64-x86-64\n"
                              "\n"
                              "Disassembly of section .text:\n"
                              "\n"
                              "0000000000001000 <jit_entry._omp_fn.0>:\n"
                              "    1000:\tpush   %rbp\n"
                              "    1004:\txor    %ecx,%ecx\n"
                              "    1008:\tmov    (%rbx,%rax,8),%rdx\n"
                              "    100c:\timul   (%rdi,%rax,8),%rdx\n"
                              "    1010:\tadd    $0x1,%rax\n"
                              "    1014:\tcmp    %rax,%rsi\n"
                              "    1018:\tjg     1008 <jit_entry._omp_fn.0+0x8>\n"
                              "    101c:\taddss  (%r15,%rax,4),%xmm0\n"
                              "    1020:\tadd    $0x1,%rbp\n"
                              "    1024:\tcmp    %r14,%rbp\n"
                              "    1028:\tjl     1004 <jit_entry._omp_fn.0+0x4>\n"
                              "    102c:\tmovaps %xmm0,(%rsp,%rax,1)\n"
                              "    1030:\tjne    102c <jit_entry._omp_fn.0+0x2c>\n"
                              "    1034:\tret\n"
                              "\n"
                              "0000000000002000 <jit_entry._omp_fn.0.cold>:\n"
                              "    2000:\taddss  %xmm1,%xmm0\n"
                              "    2004:\tjmp    2000 <jit_entry._omp_fn.0.cold>\n"
                              "\n"
                              "0000000000003000 <jit_entry>:\n"
                              "    3000:\tvmaxps (%rax),%ymm1,%ymm0\n"
                              "    3004:\tvmovups %ymm0,(%rdx)\n"
                              "    3008:\tadd    $0x20,%rax\n"
                              "    300c:\tjne    3000 <jit_entry>\n"
                              "    3010:\tret\n"
                              "\n"
                              "0000000000004000 <memcpy@plt>:\n"
                              "    4000:\tmulss  %xmm1,%xmm0\n"
                              "    4004:\tjmp    4000 <memcpy@plt>\n";

static void test_listing(void)
{
    char *s = jit_loops_from_listing(listing);
    CHECK_STR(s, "5 per element, plus 5 per step of its inner integer loop (index math); 2 per "
                 "element; 4 per 8 elements (vectorised)");
    free(s);
}

static void test_no_float_loop(void)
{
    /* only the integer loop: nothing per element */
    const char *end = strstr(listing, "    101c:");
    char *head = strndup(listing, (size_t)(end - listing));
    CHECK(jit_loops_from_listing(head) == NULL);
    free(head);
    CHECK(jit_loops_from_listing("") == NULL);
}

static void test_unreadable(void)
{
    char *s = jit_loops_describe("/nonexistent/k.so");
    CHECK(s && strncmp(s, "cannot disassemble it: ", 23) == 0);
    free(s);
}

int main(void)
{
    RUN_TEST(test_listing);
    RUN_TEST(test_no_float_loop);
    RUN_TEST(test_unreadable);
    return TEST_SUMMARY();
}
