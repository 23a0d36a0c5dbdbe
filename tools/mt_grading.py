"""nbgrader's Execute preprocessor, made to survive what a student's code does to the kernel.

nbgrader's own Execute runs a notebook's cells one after the other in one kernel. When the kernel
dies in a cell (a crash, the system's out-of-memory killer), nbclient raises DeadKernelError out
of the notebook, and nbgrader drops the student's whole submission; when a cell does not stop at
the time limit's interrupt, it does the same. GradingExecute, which course/nbgrader_config.py
puts in Execute's place among autograde's preprocessors, makes such a cell cost that cell only:

- at `timeout` seconds (Execute.timeout) a cell is interrupted, and a kernel that has not
  finished the cell `interrupt_grace` seconds later is killed;
- a cell in which the kernel died gets an error output that says so (a test cell scores nothing
  for it, and the feedback shows why); a new kernel starts, the cells that had finished are run
  again in it, in order, with their recorded outputs kept, and the notebook goes on with the
  next cell;
- a cell that kills the kernel again while it is run again is left out and the rest run again
  in a new kernel; after `max_kernel_restarts` new kernels in one notebook the remaining cells
  are not run, each saying so.
- a graded cell runs even when the student's copy tags it `skip-execution` (nbclient's
  skip_cells_with_tag), which would otherwise leave it without an error, and so with full marks.

Only the cells that finished are run again: what a cell that died or was killed did was lost
with its kernel, and a cell that was interrupted would only run into the limit again (most often
a test cell that calls a student's looping function, which leaves nothing behind).
"""

import asyncio
import signal

from jupyter_core.utils import ensure_async, run_sync
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat import NotebookNode
from nbgrader.preprocessors import Execute
from traitlets import Float, Integer, default


# The names of the errors this module writes into a cell's outputs.
DIED = "DeadKernelError"
TIMED_OUT = "CellTimeoutError"
WHY = {DIED: "the kernel died", TIMED_OUT: "time limit"}


def stopped(nb):
    """{cell index: why} of an executed notebook's cells (a dict as JSON has it, or nbformat's)
    that died or ran into the time limit: why is "the kernel died" or "time limit"."""
    out = {}
    for i, cell in enumerate(nb["cells"]):
        for o in cell.get("outputs", []):
            if o["output_type"] == "error" and o["ename"] in WHY:
                out[i] = WHY[o["ename"]]
    return out


def error_output(ename, message, notes=()):
    """An error output, as a kernel's would be: nbgrader scores a test cell that has one zero,
    and its feedback shows the traceback lines."""
    return NotebookNode(output_type="error", ename=ename, evalue=message,
                        traceback=[f"\x1b[0;31m{ename}\x1b[0m: {message}", *notes])


def exit_status(code):
    """How a process ended, from its Popen returncode: 'signal 11, SIGSEGV' or 'exit status 1'."""
    if code is None:
        return "it stopped answering"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
        why = ", perhaps out of memory" if -code == signal.SIGKILL else ""
        return f"signal {-code}, {name}{why}"
    return f"exit status {code}"


class _Limit:
    """One cell's run in the kernel under the time limit: at `timeout` seconds the kernel is
    interrupted, `interrupt_grace` seconds later killed. `stopped` says which was done."""

    def __init__(self, client, name):
        self.client = client
        self.name = name  # the cell's, for the log
        self.stopped = None  # None, "interrupted" or "killed"

    async def run(self, work):
        timeout = self.client.timeout
        watch = asyncio.ensure_future(self._watch(timeout)) if timeout and timeout > 0 else None
        try:
            return await work
        finally:
            if watch:
                watch.cancel()

    async def _watch(self, timeout):
        km, log = self.client.km, self.client.log
        await asyncio.sleep(timeout)
        self.stopped = "interrupted"
        log.warning("%s ran past %s s: interrupting the kernel", self.name, timeout)
        try:
            await ensure_async(km.interrupt_kernel())
            await asyncio.sleep(self.client.interrupt_grace)
            self.stopped = "killed"
            log.warning("%s did not stop when interrupted: killing the kernel", self.name)
            await ensure_async(km.signal_kernel(signal.SIGKILL))
        except RuntimeError as e:  # the kernel is already gone: nothing left to stop
            log.warning("Could not stop the kernel: %s", e)


class GradingExecute(Execute):
    """Execute that loses no more than the cell when the kernel dies or a cell hangs."""

    interrupt_grace = Float(
        5.0, help="Seconds a kernel has to finish a cell after the interrupt sent at the time "
        "limit (timeout); then it is killed, and the cells after run in a new kernel.",
    ).tag(config=True)

    max_kernel_restarts = Integer(
        10, help="New kernels one notebook may need (after deaths and kills); after that its "
        "remaining cells are not run.",
    ).tag(config=True)

    @default("shell_timeout_interval")
    def _often(self):
        # how often a cell run again checks that the kernel is alive (nbclient says 5 s)
        return 1

    @default("timeout_func")
    def _no_client_timeout(self):
        # _Limit times each cell: nbclient's own timer, which reports a cell that outlives the
        # interrupt by raising out of the notebook, stays off for cells.
        return lambda cell: None

    def reset_execution_trackers(self):
        super().reset_execution_trackers()
        self._finished = []  # the cells that finished in the running kernel: indices, in order
        self._restarts = 0
        self._gave_up = None  # what the cells not run say, once no new kernel is left

    @staticmethod
    def _runs(cell):
        """Whether nbclient sends this cell to the kernel."""
        return cell.cell_type == "code" and cell.source.strip()

    def _name(self, index):
        grade_id = self.nb.cells[index].metadata.get("nbgrader", {}).get("grade_id")
        return f"cell {index + 1}" + (f" ({grade_id})" if grade_id else "")

    async def async_execute_cell(self, cell, cell_index, execution_count=None,
                                 store_history=True):
        tags = cell.metadata.get("tags", [])
        if self.skip_cells_with_tag in tags and cell.metadata.get("nbgrader", {}).get("grade"):
            # a graded cell that does not run has no error and scores full marks, and the tag is
            # the student's: nbgrader restores a locked cell's source, not its tags
            self.log.warning("%s is tagged %s; it runs all the same", self._name(cell_index),
                             self.skip_cells_with_tag)
            cell.metadata["tags"] = [t for t in tags if t != self.skip_cells_with_tag]
        if not self._runs(cell) or self.skip_cells_with_tag in cell.metadata.get("tags", []):
            return await super().async_execute_cell(cell, cell_index, execution_count,
                                                    store_history)
        if self._gave_up:
            cell.outputs = [error_output(DIED, self._gave_up)]
            return cell
        limit = _Limit(self, self._name(cell_index))
        try:
            await limit.run(super().async_execute_cell(cell, cell_index, execution_count,
                                                       store_history))
        except DeadKernelError:
            status = exit_status(self._exit_code())
            self.log.warning("The kernel died in %s (%s): starting a new one",
                             self._name(cell_index), status)
            if limit.stopped == "killed":
                ename, message = TIMED_OUT, (
                    f"this cell ran past {self.timeout} s and did not stop when interrupted, so "
                    "the kernel was killed")
            else:
                ename, message = DIED, (
                    f"the kernel died while running this cell ({status})")
                if limit.stopped:
                    message += f" after it was interrupted at {self.timeout} s"
            notes = await self._restart()
            cell.outputs.append(error_output(ename, message + ". " + notes[0], notes[1:]))
            return cell
        except CellTimeoutError as e:
            # the kernel answered, but the cell's outputs did not all arrive (iopub_timeout)
            cell.outputs.append(error_output(TIMED_OUT, str(e).strip().split("\n")[0]))
        if limit.stopped:
            cell.outputs.append(error_output(
                TIMED_OUT, f"this cell ran past {self.timeout} s and was interrupted"))
        else:
            self._finished.append(cell_index)
        return cell

    execute_cell = run_sync(async_execute_cell)

    def _exit_code(self):
        """The dead kernel process's returncode (negative: the signal), or None if unknown."""
        provisioner = getattr(self.km, "provisioner", None)
        process = getattr(provisioner, "process", None)
        return process.poll() if process is not None else None

    async def _new_kernel(self):
        await self._async_cleanup_kernel()
        self.km = self.kc = None
        self.km = self.create_kernel_manager()
        await self.async_start_new_kernel()
        await self.async_start_new_kernel_client()

    async def _restart(self):
        """After the kernel died: a new one, in which the cells that had finished run again,
        their outputs discarded. Returns what the dead cell's output says about it: sentences."""
        notes = []
        while True:
            if self._restarts == self.max_kernel_restarts:
                why = (f"the kernel died {self._restarts + 1} times in this notebook, so the "
                       "cells after it were not run (GradingExecute.max_kernel_restarts)")
                self._gave_up = "not run: " + why
                return [why[0].upper() + why[1:] + "."] + notes
            self._restarts += 1
            await self._new_kernel()
            self.log.info("Running again the %d cells that had finished", len(self._finished))
            for index in self._finished:
                if not await self._run_again(index):
                    self._finished.remove(index)
                    notes.append(f"{self._name(index)} killed the kernel again when run again, "
                                 "so the cells after ran without it.")
                    break
            else:
                return ["The cells after it ran in a new kernel, after the cells before it "
                        "that had finished were run again there."] + notes

    async def _run_again(self, index):
        """Runs cell `index` again, under the time limit, outputs discarded: whether the kernel
        lived through it."""
        cell = self.nb.cells[index]
        msg_id = await ensure_async(self.kc.execute(cell.source, store_history=True,
                                                    stop_on_error=False))
        try:
            await _Limit(self, self._name(index)).run(self.async_wait_for_reply(msg_id, cell))
        except DeadKernelError:
            return False
        return True
