"""jupyter_kernel_test suite for minitorch-kernel.

Run with unittest, not pytest (under pytest a SkipTest inside a subTest skips the whole test):

    .venv/bin/python -m unittest discover -s tests/protocol -p 'jkt_*.py' -v

The kernel comes from mtkernel.py: $MT_KERNEL_BIN or <repo>/build/minitorch-kernel, installed
as kernelspec `minitorch` into a temp JUPYTER_PATH entry.
"""

from __future__ import annotations

import functools
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import jupyter_kernel_test  # noqa: E402

import mtkernel  # noqa: E402

mtkernel.setup()


class MiniTorchKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = mtkernel.KERNEL_NAME

    # test_kernel_info
    language_name = "minitorch"
    file_extension = ".mt"

    # test_execute_stdout / test_execute_stderr
    code_hello_world = 'print("hello, world")'
    code_stderr = 'warn("x")'

    # test_completion: exact sets of matches
    completion_samples = [
        {"text": "pri", "matches": ["print"]},
        {"text": "dis", "matches": ["display"]},
        {"text": "x = 1; pri", "matches": ["print"]},
    ]

    # test_is_complete
    complete_code_samples = ['print("hi")', "6*7", "x = 1", "x = 1; y = 2", "# only a comment"]
    incomplete_code_samples = ["x = (1 +", "for i in range(3):", 'print("hi"', "[1, 2,"]
    invalid_code_samples = ["1 $ 2"]

    # test_error: exactly one iopub output, of type error
    code_generate_error = "1/0"

    # test_execute_result (also the inputs of test_history)
    code_execute_result = [
        {"code": "6*7", "result": "42"},
        {"code": '"ab"', "result": "'ab'"},
        {"code": "1/2", "result": "0.5"},
        {"code": "x = 20\nx + 1", "result": "21"},
    ]

    # test_display_data
    code_display_data = [
        {"code": "display(42)", "mime": "text/plain"},
        {"code": 'display("text", display_id="jkt")', "mime": "text/plain"},
    ]

    # test_history: glob matching exactly one distinct input of code_execute_result
    code_history_pattern = "6?7"
    supported_history_operations = ("tail", "range", "search")

    # test_inspect
    code_inspect_sample = "print"

    # test_clear_output
    code_clear_output = "clear_output()"

    # test_pager
    code_page_something = "help(print)"


class MiniTorchIopubWelcomeTests(jupyter_kernel_test.IopubWelcomeTests):
    kernel_name = mtkernel.KERNEL_NAME
    support_iopub_welcome = True

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        # the base test reads iopub with no timeout: a kernel without a welcome would hang it
        cls.kc.get_iopub_msg = functools.partial(cls.kc.get_iopub_msg,
                                                 timeout=jupyter_kernel_test.TIMEOUT)


if __name__ == "__main__":
    unittest.main()
