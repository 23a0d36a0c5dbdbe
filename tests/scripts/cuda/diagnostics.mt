# %diagnostics on the cuda backend, through the host stand-in of its library: the first table
# has a row per op like the CPU backends' (its time the host's, launch and wait included), and a
# second table shows each op's kernel launch (kernel, grid, block, shared memory, registers,
# occupancy, time from CUDA events, rate against the device's peaks). The stand-in describes
# its "launches" as one host thread of simple's loops, and has peaks of 1 GB/s and 1 GFLOP/s.
%backend cuda
a = tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])
%diagnostics (a + a).sum()
# expect: 2 engine ops
# expect-re: op +backend +shapes \(in -> out\) +strides +path +threads +loop +vector width +calls +bytes +FLOPs +time +spread +rate +of machine peak
# expect-re: add +cuda +\(3, 4\), \(3, 4\) -> \(3, 4\) +\(4, 1\), \(4, 1\) -> \(4, 1\) +stand-in \(simple's loops\) +1 +a CUDA grid +1 +1 +144 B +12 +[0-9.]+ .s +one run +[0-9.]+ GB/s +\(GPU table\)
# expect-re: sum +cuda +\(12,\) -> \(1,\) +\(1,\) -> \(1,\) +stand-in \(simple's loops\) +1 +a CUDA grid +1 +1 +52 B +12 +[0-9.]+ .s +one run +[0-9.]+ GB/s +\(GPU table\)
# expect-re: time: each call's median run, .*
# expect-re: Machine peak \(measured once on this machine, [0-9: -]+, all threads\): .*
# expect:
# expect: GPU launches on host stand-in (tests/engine/cuda_standin.c, not a GPU) (peaks from its properties: DRAM 1 GB/s, FP32 1 GFLOP/s; times from CUDA events):
# expect-re: op +kernel +grid +block +shared memory +registers +occupancy +calls +GPU time +rate +of device peak
# expect-re: add +stand-in \(simple's loops\) +1 +1 +0 B +0 +0% +1 +[0-9.]+ .s +([0-9.]+ GB/s +([0-9.]+%|>100%) of 1 GB/s(: data in cache)?|- +-)
# expect-re: sum +stand-in \(simple's loops\) +1 +1 +0 B +0 +0% +1 +[0-9.]+ .s +([0-9.]+ GB/s +([0-9.]+%|>100%) of 1 GB/s(: data in cache)?|- +-)
# expect:

# compare() adds a line on the kernels of its check run on cuda; the stand-in's results equal
# simple's exactly
compare("a @ a.permute(1, 0) + 1", backends=["simple", "cuda"])
# expect: compare: a @ a.permute(1, 0) + 1
# expect: backend   time per run     runs          speed-up   agrees
# expect-re: simple +[0-9.]+ .s ± ([0-9]+|<1)% +[0-9]+ × [0-9]+ +1\.00x +reference
# expect-re: cuda +[0-9.]+ .s ± ([0-9]+|<1)% +[0-9]+ × [0-9]+ +[0-9.]+x +yes \(max \|diff\| 0\)
# expect-re: time: median of the batches .*
# expect-re: cuda, first run: 2 kernels, [0-9.]+ .s on the GPU: matmul: stand-in \(simple's loops\) \(grid 1, block 1, 0 B shared, 0 registers, occupancy 0%\) [0-9.]+ .s; add: stand-in \(simple's loops\) \(grid 1, block 1, 0 B shared, 0 registers, occupancy 0%\) [0-9.]+ .s
# expect:
# expect: <bar chart: compare: a @ a.permute(1, 0) + 1>
