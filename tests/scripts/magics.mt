# magics whose output does not vary; timings only by their format
%backend
# expect: backend: fast
%threads 1
%threads
# expect: threads: 1
a = ones(4, 4)
%time b = a @ a
# expect-re: Wall time: [0-9.]+ (ns|µs|ms|s) \(one run; matmul on fast: [0-9.]+ GFLOP/s\)
print(b.sum().item())
# expect: 64.0
%timeit -n 3 -r 2 a + a
# expect-re: [0-9.]+ (ns|µs|ms|s) ± [0-9.]+ (ns|µs|ms|s) per loop \(median ± median absolute deviation of 2 runs, 3 loops each\)
%reset
# expect: Forgot 2 variables.
%who
# expect: No variables are defined.
