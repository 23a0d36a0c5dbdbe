# The session's strings, lists, tuples and dicts share one memory limit (%memory): a loop that
# makes values without end stops with a MemoryError that names it, whatever each value's size,
# and the memory comes back when the values go.
%memory
# expect-re: tensors: [0-9.]+ (bytes|KiB|MiB) in use, limit [0-9.]+ (MiB|GiB|TiB)
# expect-re: values \(strings, lists, tuples, dicts\): [0-9.]+ (bytes|KiB) in use, limit [0-9.]+ (MiB|GiB|TiB) \(half the tensors'\)
%memory values 100MiB
%memory
# expect-re: tensors: .*
# expect-re: values \(strings, lists, tuples, dicts\): [0-9.]+ (bytes|KiB) in use, limit 100 MiB
try:
    chunks = ["x" * 10000000 for i in range(20)]
except MemoryError as e:
    print(e)
# expect-re: a string needing 9\.5 MiB more would pass the memory limit of the session's strings, lists, tuples and dicts, 100 MiB \(they hold 9[0-9.]+ MiB\): del the values no longer needed, or raise the limit with %memory values SIZE
chunks = ["x" * 10000000 for i in range(5)]
%memory
# expect-re: tensors: .*
# expect-re: values \(strings, lists, tuples, dicts\): 47\.[0-9] MiB in use, limit 100 MiB
del chunks
%memory
# expect-re: tensors: .*
# expect-re: values \(strings, lists, tuples, dicts\): [0-9.]+ (bytes|KiB) in use, limit 100 MiB
%memory values 1GB
%memory
# expect-re: tensors: .*
# expect-re: values \(strings, lists, tuples, dicts\): .* in use, limit 954 MiB
%memory values default
try:
    %memory values lots
except ValueError as e:
    print(e)
# expect: %memory: 'lots' is not a size; write one as 512MiB, 2GiB or 1.5GB, or default
