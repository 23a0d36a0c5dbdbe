"""The course notebooks: built from their sources, executed by the kernel, and checked.

    python tools/notebooks.py build [NAME ...]   notebooks/src/NAME.mt -> notebooks/NAME.ipynb
    python tools/notebooks.py check              what nbval cannot see (below)
    python tools/notebooks.py set-repo OWNER/NAME  where the repository lives on GitHub

Colab. The repository's GitHub OWNER/NAME is kept in one place, notebooks/src/colab_repo.txt:
the set-up cell clones it, and the README's "Open in Colab" badges (the block between
BADGES_BEGIN and BADGES_END) link to its notebooks. `set-repo` rewrites that file, the set-up
cell of every stored notebook (the kernel skips that cell, so nothing needs re-running) and
the badges; `check` fails when any of them disagree.

Sources. Each notebook is written as notebooks/src/NAME.mt in the "percent" format: a line
`# %%` starts a code cell, `# %% [markdown]` a markdown cell whose lines are written as `# text`
comments. A source is therefore a runnable script (`minitorch-kernel run` executes it, markdown
and all; one with includes, below, once they are expanded), and a diff of it reads like one.
`build` turns each into notebooks/NAME.ipynb and runs it through a real Jupyter client
(nbclient) with the MiniTorch kernel, keeping the outputs: the stored outputs are a real run's,
which nbval then compares with a fresh one. The kernel is the
one named by MT_KERNEL_BIN (default build/minitorch-kernel), installed for the run into a
temporary kernelspec directory. Volatile metadata (execution timestamps) is not kept, so that a
rebuild that changes nothing changes no byte. Every notebook starts with the Colab set-up cell,
notebooks/src/colab_cell.py: Python that Colab's own runtime runs before the kernel is installed
there, and that the kernel skips (its first line is the language's skip-cell mark). It is
collapsed (COLAB_CELL_METADATA), so that a student outside Colab starts at the notebook's title.

Includes. A line `# %% include OTHER NAME ...` stands for the code cells of notebooks/src/OTHER.mt
that define (a `def` or `class` at the cell's first level) each NAME, in that order: a later
notebook that needs a student's earlier code (Task 3.5 trains on Tasks 3.1 to 3.4's kernels)
holds the same cells, written once. Such a source runs as a script only once expanded.

Files. A line `# %% file PATH` (PATH from the repository's root, e.g.
kernel/lib/minitorch/scalar.py) stands for a code cell `%%minitorch_file NAME.py` whose text is
that file's, less its leading docstring (which describes the file where it lives, not the
student's copy): a notebook whose solution is one of the kernel's own files holds it once, in
that file, and `check` fails when the file changed after the notebook was built. The lines under
the directive, up to the next `# %%`, change the copy: `# replace: LINE` takes out LINE (a whole
line that the file has exactly once) with the comment lines directly above it, and puts the
lines that follow in their place, up to the next `# replace:`, set off by two blank lines as a
definition at a file's first level is (the kernel's autodiff.py imports the C library's
central_difference, which the student's file defines instead). Such a source runs as a script
only once expanded, as with includes.

Assignments (nbgrader). A notebook with a solution region or a graded cell is an nbgrader
assignment source, and its code cells carry nbgrader's metadata: a cell with a region between
`### BEGIN SOLUTION` and `### END SOLUTION` is a solution cell, named after the first function
or class it defines, or a file's cell after the file (`scalar_py`; nbgrader's generate_assignment
puts the language's stub in place of each region); a cell marked `# NBGRADER_TESTS ID POINTS` is
an autograded test cell worth POINTS; every other code cell is read-only (locked: nbgrader
restores it when grading). Markdown cells stay free.

Test markers. A source cell carries nbval's comment markers (`# NBVAL_IGNORE_OUTPUT`, ...); in the
notebook they become cell tags (MARKER_TAGS), which nbval reads as well, and the comment lines
go: a student reads the cell, not the test's instructions.

Check (`make test`, next to nbval itself):
- every stored code cell was executed, and the only error outputs are in cells tagged
  `raises-exception` (which must have one);
- at least 80% of all code cells are compared by nbval (not tagged `nbval-ignore-output` or
  `nbval-skip`); the share of each notebook is printed;
- each notebook's source and .ipynb agree (the notebook was rebuilt after the source changed),
  cell tags and the set-up cell's metadata included;
- the README's Colab badges are the ones for colab_repo.txt, one per notebook.
"""

import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "notebooks", "src")
OUT = os.path.join(ROOT, "notebooks")
MIN_COMPARED = 0.80

KERNELSPEC = {"display_name": "MiniTorch", "language": "minitorch", "name": "minitorch"}


INCLUDE = re.compile(r"# %% include (\w+)((?: \w+)+)\s*")
FILE = re.compile(r"# %% file ([\w./-]+\.py)\s*")
FILE_CELL = re.compile(r"%%minitorch_file (\w+)\.py\n")
REPLACE = "# replace: "
DEFINES = re.compile(r"^(?:def|class) (\w+)", re.M)


def parse(path, including=()):
    """The cells of a percent-format source: [(kind, source text)], includes expanded."""
    cells, kind, lines = [], None, []

    def flush():
        if kind is None:
            return
        while lines and not lines[-1].strip():
            lines.pop()
        while lines and not lines[0].strip():
            lines.pop(0)
        if isinstance(kind, tuple):  # ("file", its path)
            cells.append(("code", file_cell(path, kind[1], lines)))
        elif kind == "markdown":
            text = []
            for ln in lines:
                if ln.strip() and not ln.startswith("#"):
                    raise SystemExit(f"{path}: markdown line without '# ': {ln!r}")
                text.append(ln[2:] if ln.startswith("# ") else ln.lstrip("#"))
            cells.append(("markdown", "\n".join(text)))
        else:
            cells.append(("code", "\n".join(lines)))

    with open(path, encoding="utf-8") as f:
        for ln in f.read().split("\n"):
            inc = INCLUDE.fullmatch(ln)
            file = FILE.fullmatch(ln)
            m = re.fullmatch(r"# %%( \[markdown\])?\s*", ln)
            if file:
                flush()
                kind, lines = ("file", file.group(1)), []
            elif inc:
                flush()
                kind, lines = None, []
                cells += included(path, inc.group(1), inc.group(2).split(), including)
            elif m:
                flush()
                kind, lines = ("markdown" if m.group(1) else "code"), []
            elif kind is None:
                if ln.strip():
                    raise SystemExit(f"{path}: text outside a cell (before the first '# %%' "
                                     "line, or after an include)")
            else:
                lines.append(ln)
    flush()
    return cells


def file_cell(path, name, edits):
    """The cell `%%minitorch_file NAME.py` holding the file at name (from the repository's root),
    its leading docstring left out and the replacements in edits made."""
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        text = f.read()
    doc = re.match(r'\s*(?:"""|\'\'\')', text)
    if doc:  # the docstring and the blank lines after it
        end = text.index(doc.group(0)[-3:], doc.end())
        text = text[end + 3:].lstrip("\n")
    lines = text.rstrip("\n").split("\n")
    if edits and not edits[0].startswith(REPLACE):
        raise SystemExit(f"{path}: under '# %% file {name}', a line that is no "
                         f"'{REPLACE}LINE' or part of one: {edits[0]!r}")
    starts = [i for i, ln in enumerate(edits) if ln.startswith(REPLACE)] + [len(edits)]
    for a, b in zip(starts, starts[1:]):
        old, new = edits[a][len(REPLACE):], edits[a + 1:b]
        while new and not new[-1].strip():
            new.pop()
        while new and not new[0].strip():
            new.pop(0)
        at = [i for i, ln in enumerate(lines) if ln == old]
        if len(at) != 1:
            raise SystemExit(f"{path}: {name} has the line {old!r} {len(at)} times, not once")
        first, last = at[0], at[0] + 1
        while first > 0 and lines[first - 1].lstrip().startswith("#"):
            first -= 1
        while first > 0 and not lines[first - 1].strip():
            first -= 1
        while last < len(lines) and not lines[last].strip():
            last += 1
        before = ["", ""] if first > 0 else []
        after = ["", ""] if last < len(lines) else []
        lines[first:last] = before + new + after
    return f"%%minitorch_file {os.path.basename(name)}\n" + "\n".join(lines)


def included(path, other, names, including):
    """The code cells of notebooks/src/OTHER.mt that define each of names, in that order."""
    if other in including:
        raise SystemExit(f"{path}: includes {other}, which includes it")
    cells = [c for c in parse(os.path.join(SRC, other + ".mt"), including + (other,))
             if c[0] == "code"]
    out = []
    for name in names:
        found = [c for c in cells if name in DEFINES.findall(c[1])]
        if len(found) != 1:
            raise SystemExit(f"{path}: {len(found)} cells of {other}.mt define {name}, not one")
        if found[0] not in out:  # a cell that defines several of the names comes once
            out.append(found[0])
    return out


README = os.path.join(ROOT, "README.md")
REPO_FILE = os.path.join(SRC, "colab_repo.txt")
BADGES_BEGIN = "<!-- colab badges: tools/notebooks.py set-repo writes this block -->"
BADGES_END = "<!-- end of colab badges -->"
GITHUB_REPO = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")


def github_repo():
    with open(REPO_FILE, encoding="utf-8") as f:
        repo = f.read().strip()
    if not GITHUB_REPO.match(repo):
        raise SystemExit(f"{REPO_FILE}: {repo!r} is not a GitHub OWNER/NAME")
    return repo


# The set-up cell is collapsed: JupyterLab and Notebook 7 hide its source (jupyter.source_hidden),
# Colab shows it as a form (cellView), titled by its `#@title` line.
COLAB_CELL_METADATA = {"cellView": "form", "jupyter": {"source_hidden": True}}


def colab_cell():
    with open(os.path.join(SRC, "colab_cell.py"), encoding="utf-8") as f:
        return ("code", f.read().rstrip("\n").replace("@GITHUB_REPO@", github_repo()))


def notebook_names():
    return sorted(f[:-3] for f in os.listdir(SRC) if f.endswith(".mt"))


def badges():
    """The README's badge block: one "Open in Colab" link per notebook, set-up notebook first."""
    repo = github_repo()
    lines = [BADGES_BEGIN]
    for name in ["colab_setup"] + [n for n in notebook_names() if n != "hello"]:
        lines.append(f"[![Open {name} in Colab](https://colab.research.google.com/assets/"
                     f"colab-badge.svg)](https://colab.research.google.com/github/{repo}/blob/"
                     f"main/notebooks/{name}.ipynb) `{name}`  ")
    lines.append(BADGES_END)
    return "\n".join(lines)


def readme_badges():
    """The README's text and the match of its badge block (None when it has none)."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    m = re.search(re.escape(BADGES_BEGIN) + r".*?" + re.escape(BADGES_END), text, re.S)
    return (text, m)


def set_repo(repo):
    import nbformat

    if not GITHUB_REPO.match(repo):
        raise SystemExit(f"set-repo: {repo!r} is not a GitHub OWNER/NAME")
    with open(REPO_FILE, "w", encoding="utf-8") as f:
        f.write(repo + "\n")
    cell = colab_cell()[1]
    for name in notebook_names():
        path = os.path.join(OUT, name + ".ipynb")
        nb = nbformat.read(path, as_version=4)
        nb.cells[0].source = cell
        nb.cells[0].metadata.update(COLAB_CELL_METADATA)
        nbformat.write(nb, path)
    nbformat.write(colab_setup_notebook(), os.path.join(OUT, "colab_setup.ipynb"))
    text, m = readme_badges()
    if not m:
        raise SystemExit(f"README.md has no {BADGES_BEGIN} ... {BADGES_END} block")
    with open(README, "w", encoding="utf-8") as f:
        f.write(text[:m.start()] + badges() + text[m.end():])
    print(f"Colab set-up cells and README badges now point at github.com/{repo}")


# nbval's comment markers and the tags that replace them in a notebook (nbval's metadata_tags).
# `raises-exception` is also what JupyterLab's Run All and nbconvert --execute honour: they go on
# past a cell that raises on purpose instead of stopping there.
MARKER_TAGS = {"# NBVAL_RAISES_EXCEPTION": "raises-exception",
               "# NBVAL_IGNORE_OUTPUT": "nbval-ignore-output",
               "# NBVAL_CHECK_OUTPUT": "nbval-check-output",
               "# NBVAL_SKIP": "nbval-skip"}


SOLUTION_REGION = re.compile(r"^ *### BEGIN SOLUTION\n.*?^ *### END SOLUTION$", re.M | re.S)
GRADED = re.compile(r"^# NBGRADER_TESTS ([A-Za-z0-9_-]+) (\d+)\n?", re.M)


def nbgrader_metadata(grade_id, solution=False, points=None):
    """nbgrader's cell metadata (schema 3): a solution cell, a test cell worth points, or a
    read-only cell."""
    meta = {"grade": points is not None, "grade_id": grade_id, "locked": not solution,
            "schema_version": 3, "solution": solution, "task": False}
    if points is not None:
        meta["points"] = points
    return meta


def notebook_cells(name):
    """The cells of notebooks/NAME.ipynb as its source makes them: [(kind, source, metadata)],
    the Colab set-up cell first; in code cells nbval's markers are tags instead of comments, and
    in an assignment every code cell has nbgrader's metadata."""
    cells = [("code", colab_cell()[1], dict(COLAB_CELL_METADATA))]
    grading = {}  # cell index -> nbgrader metadata
    for kind, text in parse(os.path.join(SRC, name + ".mt")):
        found = markers(text) if kind == "code" else set()
        if found - MARKER_TAGS.keys():
            raise SystemExit(f"notebooks/src/{name}.mt: unknown nbval marker "
                             f"{sorted(found - MARKER_TAGS.keys())}")
        if found:
            text = "\n".join(ln for ln in text.split("\n") if not markers(ln))
        graded = GRADED.search(text) if kind == "code" else None
        if graded:
            text = GRADED.sub("", text, count=1)
            grading[len(cells)] = nbgrader_metadata(graded.group(1), points=int(graded.group(2)))
        elif kind == "code" and SOLUTION_REGION.search(text):
            file = FILE_CELL.match(text)
            defines = [file.group(1) + "_py"] if file else DEFINES.findall(text)
            if not defines:
                raise SystemExit(f"notebooks/src/{name}.mt: a solution cell defines no function "
                                 f"or class to name it after:\n{text[:200]}")
            # the same function twice (Task 3.5's CPU and CUDA kernels): numbered
            taken = {m["grade_id"] for m in grading.values()}
            grade_id = next(g for g in [defines[0]] + [f"{defines[0]}-{n}" for n in range(2, 99)]
                            if g not in taken)
            grading[len(cells)] = nbgrader_metadata(grade_id, solution=True)
        tags = [MARKER_TAGS[m] for m in sorted(found)]
        cells.append((kind, text, {"tags": tags} if tags else {}))
    if grading:  # an assignment: the other code cells are read-only
        ids = [m["grade_id"] for m in grading.values()]
        if len(set(ids)) != len(ids):
            raise SystemExit(f"notebooks/src/{name}.mt: grade ids used twice: {sorted(ids)}")
        for i, (kind, _, metadata) in enumerate(cells):
            if kind == "code":
                metadata["nbgrader"] = grading.get(i) or nbgrader_metadata(cell_id(name, i))
    return cells


def cell_id(name, i):
    return f"{name[:40]}-{i:02d}"


def cell_tags(cell):
    return set(cell.metadata.get("tags", []))


def to_notebook(name):
    import copy

    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    for i, (kind, text, metadata) in enumerate(notebook_cells(name)):
        cell = (nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell)(
            text)
        cell["id"] = cell_id(name, i)
        cell.metadata.update(copy.deepcopy(metadata))
        nb.cells.append(cell)
    return nb


def colab_setup_notebook():
    """notebooks/colab_setup.ipynb, for Colab's Python runtime: notebooks/src/colab_setup.md and
    the set-up cell. Not executed here (its code only acts on a Colab VM)."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python",
                                 "name": "python3"}
    with open(os.path.join(SRC, "colab_setup.md"), encoding="utf-8") as f:
        nb.cells.append(nbformat.v4.new_markdown_cell(f.read().rstrip("\n")))
    nb.cells.append(nbformat.v4.new_code_cell(colab_cell()[1]))
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"colab-setup-{i:02d}"
    return nb


def install_kernel(kernel, tmp):
    subprocess.run([kernel, "install", "--prefix", tmp], check=True, stdout=subprocess.DEVNULL)
    os.environ["JUPYTER_PATH"] = os.path.join(tmp, "share", "jupyter")
    os.environ.setdefault("JUPYTER_PLATFORM_DIRS", "1")


def build(names):
    import nbformat
    from nbclient import NotebookClient

    kernel = os.path.abspath(os.environ.get("MT_KERNEL_BIN",
                                            os.path.join(ROOT, "build", "minitorch-kernel")))
    names = names or notebook_names()
    nbformat.write(colab_setup_notebook(), os.path.join(OUT, "colab_setup.ipynb"))
    with tempfile.TemporaryDirectory() as tmp:
        install_kernel(kernel, tmp)
        for name in names:
            nb = to_notebook(name)
            print(f"executing {name} ...", flush=True)
            NotebookClient(nb, kernel_name="minitorch", timeout=1200, allow_errors=True,
                           resources={"metadata": {"path": OUT}}).execute()
            for cell in nb.cells:
                cell.metadata.pop("execution", None)
            nb.metadata.pop("widgets", None)
            problems = errors(name, nb)
            if problems:
                raise SystemExit("\n".join(problems))
            nbformat.write(nb, os.path.join(OUT, name + ".ipynb"))
            print(f"  wrote notebooks/{name}.ipynb", flush=True)


def markers(source):
    """nbval's comment markers in a source cell (a comment line whose text, stripped of '#' and
    spaces, starts with NBVAL_; nbval's find_comment_markers takes the exact names), as "# NAME"."""
    found = set()
    for ln in source.splitlines():
        ln = ln.strip()
        if ln.startswith("#") and ln.lstrip("#").strip().startswith("NBVAL_"):
            found.add("# " + ln.lstrip("#").strip())
    return found


def errors(name, nb):
    """Cells that were not run, errors outside cells tagged raises-exception, and such cells
    without an error."""
    out = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if "nbval-skip" in cell_tags(cell):
            continue
        if cell.get("execution_count") is None:
            out.append(f"{name}: code cell {i} was not executed")
        has_error = any(o.get("output_type") == "error" for o in cell.get("outputs", []))
        raises = "raises-exception" in cell_tags(cell)
        if has_error and not raises:
            err = next(o for o in cell.outputs if o.get("output_type") == "error")
            out.append(f"{name}: code cell {i} has an error output: {err.get('ename')}: "
                       f"{err.get('evalue')}")
        if raises and not has_error:
            out.append(f"{name}: code cell {i} is tagged raises-exception but ran clean")
    return out


def check():
    import nbformat

    problems, total, compared = [], 0, 0
    names = notebook_names()
    if not names:
        problems.append("no notebook sources in notebooks/src")
    for name in names:
        path = os.path.join(OUT, name + ".ipynb")
        if not os.path.exists(path):
            problems.append(f"{name}: notebooks/{name}.ipynb missing (tools/notebooks.py build)")
            continue
        nb = nbformat.read(path, as_version=4)
        want = notebook_cells(name)
        have = [(c.cell_type, c.source, c.metadata) for c in nb.cells]
        if have != want:
            changed = [f"{i}" for i, (h, w) in enumerate(zip(have, want))
                       if h != w and FILE_CELL.match(w[1])]
            problems.append(f"{name}: notebooks/{name}.ipynb does not match its source "
                            + (f"(code cell {', '.join(changed)}: a file of the repository the "
                               "source names with '# %% file' changed) " if changed else "")
                            + f"(rebuild: tools/notebooks.py build {name})")
        problems += errors(name, nb)
        # the course's own cells: the Colab set-up cell (skipped by the kernel, so its empty
        # output is compared trivially) does not count towards the share
        code = [c for c in nb.cells[1:] if c.cell_type == "code"]
        ignored = [c for c in code
                   if cell_tags(c) & {"nbval-ignore-output", "nbval-skip"}]
        total += len(code)
        compared += len(code) - len(ignored)
        share = (len(code) - len(ignored)) / len(code) if code else 1.0
        print(f"  {name}: {len(code) - len(ignored)} of {len(code)} code cells compared "
              f"({100 * share:.0f}%)")
    path = os.path.join(OUT, "colab_setup.ipynb")
    if not os.path.exists(path) or nbformat.read(path, as_version=4) != colab_setup_notebook():
        problems.append("notebooks/colab_setup.ipynb does not match notebooks/src/colab_setup.md "
                        "and colab_cell.py (rebuild: tools/notebooks.py build)")
    _, m = readme_badges()
    if not m or m.group(0) != badges():
        problems.append("README.md's Colab badges do not match notebooks/src/colab_repo.txt and "
                        "the notebooks (rewrite them: tools/notebooks.py set-repo OWNER/NAME)")
    share = compared / total if total else 0.0
    print(f"  all notebooks: {compared} of {total} code cells compared ({100 * share:.0f}%, "
          f"at least {100 * MIN_COMPARED:.0f}% required)")
    if share < MIN_COMPARED:
        problems.append(f"only {100 * share:.0f}% of code cells are compared by nbval")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "build":
        build(argv[2:])
        return 0
    if len(argv) == 2 and argv[1] == "check":
        return check()
    if len(argv) == 3 and argv[1] == "set-repo":
        set_repo(argv[2])
        return 0
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
