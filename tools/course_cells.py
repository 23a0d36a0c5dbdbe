"""Task 3.5's cells of the course's notebook 06: MiniTorch's run_fast_tensor.py on the student's
own CPU backend, the code cells between two of the notebook's headings. What a class runs on a
server, both in the hub test (tests/hub) and in bench/openmp_shared.py."""

import json

# the code cells between these two markdown cells
FIRST_HEADING = "## Task 3.5 yourself"
AFTER_LAST = "Then your CUDA backend"


def task35_cells(path):
    """the Task 3.5 code cells of the notebook at path (06_training.ipynb, or a student's copy
    of it), as the notebook's cell dicts"""
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    cells, inside = [], False
    for cell in nb["cells"]:
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            inside = inside or text.startswith(FIRST_HEADING)
            if text.startswith(AFTER_LAST):
                break
        elif inside and cell["cell_type"] == "code":
            cells.append(cell)
    return cells
