# minitorch.pytorch_digits_epoch with MINITORCH_TORCH_PYTHON naming fake_python.sh
# (CMakeLists.txt): the kernel runs its PyTorch script with the digits file, the session's
# threads and the epochs, reads back the version and the median of the times, and turns every
# way the run can go wrong into a clear error; the session goes on.
# %%
import minitorch
%threads 1
print(minitorch.pytorch_digits_epoch())
print(minitorch.pytorch_digits_epoch(epochs=4))
%threads 2
ms, version = minitorch.pytorch_digits_epoch(5)
print(ms, version)

# expect: (102.0, '9.9.9-fake')
# expect: (102.5, '9.9.9-fake')
# expect: 203.0 9.9.9-fake

# %%
for epochs in [7, 8, 9, 0, 51, "3"]:
    try:
        minitorch.pytorch_digits_epoch(epochs)
    except Exception as e:
        print(type(e).__name__ + ":", e)
print("still here")
# expect-re: ModuleNotFoundError: pytorch_digits_epoch\(\) runs PyTorch beside the kernel, and no Python here has it \(tried .*/fake_python.sh \(no torch\)\): install it \(Debian: apt install python3-torch; pip install torch\), or set MINITORCH_TORCH_PYTHON to a Python that has it
# expect-re: RuntimeError: pytorch_digits_epoch\(\): PyTorch's run \(.*/fake_python.sh\) failed: torch 9.9.9-fake
# expect: Traceback (most recent call last):
# expect: RuntimeError: the fake crashed
# expect-re: RuntimeError: pytorch_digits_epoch\(\): PyTorch's run \(.*/fake_python.sh\) printed no times of its epochs: torch 9.9.9-fake
# expect: epoch_ms 1.0 2.0
# expect: ValueError: pytorch_digits_epoch(epochs=0): epochs is 1 to 50, the timed epochs after one untimed
# expect: ValueError: pytorch_digits_epoch(epochs=51): epochs is 1 to 50, the timed epochs after one untimed
# expect-re: TypeError: .*
# expect: still here
