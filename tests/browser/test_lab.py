"""Every course notebook in a real browser: JupyterLab from .venv on 127.0.0.1, Debian's Chromium
headless driven by Playwright (executable_path /usr/bin/chromium: no downloaded browser).

Run by tools/run-browser-tests.sh, which installs the kernelspec into a temporary directory and
exports MT_KERNEL_BIN and JUPYTER_PATH. The notebooks are copied into a temporary directory
first, so that JupyterLab's autosave cannot touch the repository's copies. Full-page
screenshots go to tests/browser/artifacts/ (ignored by git).

For each notebook (hello, m0 to m2, 01 to 06, m4; not colab_setup, whose one cell clones the
repository and installs Debian packages on a Colab VM, for the ipykernel it names), in a
1280 x 900 window (JupyterLab's default layout, the file browser open beside the notebook):

- JupyterLab starts the MiniTorch kernel for it, and "Run All" runs every code cell (each
  prompt holds an execution count, the kernel is idle);
- error outputs are exactly in the cells the .ipynb tags `raises-exception`: every such cell
  raised, and no other did;
- every output fits in its output area, measured in that window and again after the window
  is made 1024 x 768, where the areas are at most 800 pixels wide: every chart the kernel drew
  (JupyterLab's Vega renderer's canvas or svg, the kernel's SVG fallback, an SVG inside HTML
  such as the live training display) ends inside the area and is not shown scaled down from a
  wider drawing; nothing scrolls sideways, neither the area nor a box inside it (a table's
  wrapper, a pre); nothing sticks out past the area's right edge; no row of a monospace table
  (text with columns) wraps. Screenshots at both sizes;
- the Vega-Lite charts were drawn (each Vega-Lite output holds a drawing);
- no title in an HTML output (a table's caption, a paragraph) is squeezed into a narrow
  column.

A released assignment (notebook 02 as `make assignments` gives it to a student, in
released_02_parallel.ipynb) opens with the MiniTorch kernel, its given cells are read-only and
its solution cells editable, and Run All runs it without a crash up to the first graded test,
which fails saying that the template is not implemented yet; the kernel lives on.

The server runs with a user's own JupyterLab set-up in its home (cells attached near the
viewport only, a saved workspace): the runner's configuration and workspace folders keep both
unread, and a test checks that they are.

Then: Tab after `t.` offers a tensor method, log lines of a long training run stay below its
live chart and do not move when it is redrawn, and nbconvert's HTML export of each stored
notebook with charts carries the kernel's SVG fallback for every chart, none wider than 900
pixels, each shown in Chromium whole and at its own width.
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTIFACTS = os.path.join(ROOT, "tests", "browser", "artifacts")
NOTEBOOKS = ["hello.ipynb", "m0_fundamentals.ipynb", "m1_autodiff.ipynb", "m2_tensors.ipynb",
             "01_tour.ipynb", "02_parallel.ipynb", "03_matmul.ipynb", "04_cuda_ops.ipynb",
             "05_cuda_matmul.ipynb", "06_training.ipynb", "m4_networks.ipynb"]
# the notebooks with none of the kernel's charts: Modules 1, 2 and 4 draw their own pictures
# (SVG in IPython.display.HTML), which have no Vega-Lite form to fall back from
NO_CHARTS = {"hello.ipynb", "m1_autodiff.ipynb", "m2_tensors.ipynb", "m4_networks.ipynb"}
SKIPPED = {"colab_setup.ipynb"}  # a Colab VM's installer: clones, apt-get, for python3
CHROMIUM = "/usr/bin/chromium"
VENV_BIN = os.path.dirname(sys.executable)
# the window a notebook runs in, then the smaller one its outputs are measured in again: a
# laptop's browser, and an older or half-screen one
VIEWPORT = {"width": 1280, "height": 900}
SMALL = {"width": 1024, "height": 768}
MAX_OUTPUT = 800  # pixels: the widest output area at SMALL, so that what fits there fits 800
MAX_CHART = 900  # pixels: what every chart the kernel draws fits in
VEGALITE = "application/vnd.vegalite.v5+json"


def test_every_notebook_is_run():
    """A notebook added to notebooks/ is added here too, or said why not."""
    found = {f for f in os.listdir(os.path.join(ROOT, "notebooks")) if f.endswith(".ipynb")}
    assert found == set(NOTEBOOKS) | SKIPPED, found ^ (set(NOTEBOOKS) | SKIPPED)


LIVE = "live_training.ipynb"  # a run long enough to watch, written by the fixture
RELEASED = "released_02_parallel.ipynb"  # nbgrader's student version, made by the fixture


def write_live_notebook(path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "minitorch", "display_name": "MiniTorch",
                                 "language": "minitorch"}
    # the simple backend and 100 hidden units: milliseconds an epoch, a log line every 25
    nb.cells = [nbformat.v4.new_code_cell('%backend simple\nds = dataset("split", 50, seed=2)\n'
                                          "m = mlp(2, 100, 1)"),
                nbformat.v4.new_code_cell("train(m, ds, epochs=100000, log=25)")]
    nbformat.write(nb, path)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# the server's log (the kernels' stderr and JupyterLab's restarts among it), quoted when a test
# fails for a reason the page cannot show
LAB_LOG = [None]


def lab_log_tail(chars=4000):
    try:
        with open(LAB_LOG[0], errors="replace") as f:
            return f.read()[-chars:]
    except (OSError, TypeError):
        return "(no server log)"


@pytest.fixture(scope="module")
def lab():
    """A JupyterLab server on 127.0.0.1 serving copies of the notebooks: (base url, token)."""
    assert os.environ.get("JUPYTER_PATH"), "run through tools/run-browser-tests.sh"
    work = tempfile.mkdtemp(prefix="mt-browser-")
    root = os.path.join(work, "root")
    os.makedirs(root)
    for nb in NOTEBOOKS:
        shutil.copy(os.path.join(ROOT, "notebooks", nb), root)
    write_live_notebook(os.path.join(root, LIVE))
    # a student's copy of notebook 02, released by nbgrader into a course directory of our own
    course = os.path.join(work, "course")
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "assignments.py"), "release",
                    "--course", course], check=True, stdout=subprocess.DEVNULL)
    shutil.copy(os.path.join(course, "release", "module3", "02_parallel.ipynb"),
                os.path.join(root, RELEASED))
    # every cell in the DOM and laid out (the default attaches cells near the viewport only),
    # so that every output can be measured
    # (and no news pop-up over the screenshots)
    for ext, name, value in (("notebook-extension", "tracker", {"windowingMode": "none"}),
                             ("apputils-extension", "notification", {"fetchNews": "false"})):
        folder = os.path.join(work, "settings", "@jupyterlab", ext)
        os.makedirs(folder)
        with open(os.path.join(folder, f"{name}.jupyterlab-settings"), "w") as f:
            json.dump(value, f)
    port, token = free_port(), "minitorch-browser-test"
    args = [os.path.join(VENV_BIN, "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1",
            f"--port={port}", f"--ServerApp.token={token}", f"--ServerApp.root_dir={root}",
            f"--LabApp.user_settings_dir={os.path.join(work, 'settings')}",
            "--LabApp.expose_app_in_browser=True", "--ServerApp.disable_check_xsrf=True"]
    if os.geteuid() == 0:
        args.append("--allow-root")
    # a user's own JupyterLab set-up, as a student's or an instructor's machine has one: cells
    # attached only near the viewport, a saved workspace that opens another file, both in the
    # home the server runs with; the runner's own configuration and workspace folders
    # (kernel-test-env.sh) leave them unread
    home = os.path.join(work, "home")
    for config in (".jupyter", os.path.join(".config", "jupyter")):  # ~/.jupyter, platformdirs'
        user_lab = os.path.join(home, config, "lab")
        settings = os.path.join(user_lab, "user-settings", "@jupyterlab", "notebook-extension")
        os.makedirs(settings)
        with open(os.path.join(settings, "tracker.jupyterlab-settings"), "w") as f:
            json.dump({"windowingMode": "full"}, f)
        os.makedirs(os.path.join(user_lab, "workspaces"))
        with open(os.path.join(user_lab, "workspaces", "default-37a8.jupyterlab-workspace"),
                  "w") as f:
            json.dump({"data": {"layout-restorer:data": {"main": {"dock": {
                "type": "tab-area", "currentIndex": 0, "widgets": ["editor:elsewhere.py"]}}}},
                "metadata": {"id": "default"}}, f)
    log = open(os.path.join(work, "lab.log"), "w")
    LAB_LOG[0] = log.name
    proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT,
                            env=dict(os.environ, HOME=home))
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=1)
                break
            except OSError:
                if proc.poll() is not None:
                    break
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not start in 60 s")
        if proc.poll() is not None:
            log.flush()
            pytest.fail("JupyterLab exited: " + open(log.name).read()[-2000:])
        yield base, token
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def browser(lab):
    from playwright.sync_api import sync_playwright

    assert os.path.exists(CHROMIUM), f"{CHROMIUM} missing (tools/setup.sh installs chromium)"
    os.makedirs(ARTIFACTS, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def open_notebook(browser, lab, name):
    """A new page with the notebook open (a fresh workspace) and its kernel idle."""
    base, token = lab
    pg = browser.new_page(viewport=VIEWPORT)
    pg.set_default_timeout(60_000)
    pg.goto(f"{base}/lab/tree/{name}?reset&token={token}")
    pg.wait_for_function("window.jupyterapp !== undefined")
    pg.wait_for_selector(".jp-Notebook .jp-Cell")
    pg.wait_for_function("""(name) => {
        const w = window.jupyterapp.shell.currentWidget;
        return w && w.context && w.context.path === name && w.sessionContext &&
               w.sessionContext.session && w.sessionContext.session.kernel &&
               w.sessionContext.session.kernel.status === 'idle';
    }""", arg=name)
    # what the kernel went through from here on, in case a run stops short: [seconds, what]
    pg.evaluate("""() => {
        const ctx = window.jupyterapp.shell.currentWidget.sessionContext, t0 = Date.now();
        const events = window.mtKernelEvents = [];
        const note = (what) => events.push([(Date.now() - t0) / 1000, what]);
        ctx.statusChanged.connect((_, s) => note('status ' + s));
        ctx.connectionStatusChanged.connect((_, s) => note('connection ' + s));
        ctx.kernelChanged.connect(() => note('kernel changed'));
    }""")
    return pg


def close_notebook(pg):
    """Shuts the notebook's kernel down and closes the page."""
    pg.evaluate("""async () => {
        const w = window.jupyterapp.shell.currentWidget;
        await w.sessionContext.shutdown();
    }""")
    pg.close()


def command(pg, name):
    """Starts a JupyterLab command without waiting for it (a run command's promise settles
    when the cells have run)."""
    pg.evaluate("(name) => { window.jupyterapp.commands.execute(name); }", name)


def kernel_name(pg):
    return pg.evaluate("""() => {
        const w = window.jupyterapp.shell.currentWidget;
        const k = w && w.sessionContext && w.sessionContext.session &&
                  w.sessionContext.session.kernel;
        return k ? k.name : null;
    }""")


def wait_idle(pg, timeout_s=600):
    """Until no cell is queued or running ([*]) and the kernel is idle, and still so a second
    later. Read from the cells' models, not the page: a windowed notebook keeps only the cells
    in view in the page. The kernel is idle for a moment between two queued cells, and a Run
    All was seen idle there with no cell's model running (the next cell's request not sent
    yet): one look could end the wait a cell early."""
    deadline = time.time() + timeout_s
    idle_since = None
    while time.time() < deadline:
        busy = pg.evaluate("""() => {
            const w = window.jupyterapp.shell.currentWidget;
            const status = w.sessionContext.session.kernel.status;
            return w.content.widgets.some(c => c.model.type === 'code' &&
                                               c.model.executionState === 'running') ||
                   status !== 'idle';
        }""")
        if busy:
            idle_since = None
        elif idle_since is None:
            idle_since = time.time()
        elif time.time() - idle_since >= 1.0:
            return
        time.sleep(0.5)
    pytest.fail(f"the notebook did not finish running in {timeout_s} s")


def screenshot(pg, path, viewport=VIEWPORT):
    """The whole notebook in one picture: the window made as tall as the notebook (the width,
    and so the layout measured, stays), then back to `viewport`."""
    height = pg.evaluate("""() => {
        const n = window.jupyterapp.shell.currentWidget.content.node;
        const scroller = n.querySelector('.jp-WindowedPanel-outer') || n;
        return scroller.scrollHeight + scroller.getBoundingClientRect().top + 60;
    }""")
    pg.set_viewport_size({"width": viewport["width"], "height": min(int(height), 30000)})
    pg.evaluate("""() => {
        const n = window.jupyterapp.shell.currentWidget.content.node;
        (n.querySelector('.jp-WindowedPanel-outer') || n).scrollTop = 0;
    }""")
    time.sleep(0.5)
    pg.screenshot(path=path, full_page=True)
    pg.set_viewport_size(viewport)


# The drawings in an output: JupyterLab's Vega renderer's canvas or svg, an <img> (JupyterLab
# shows image/svg+xml in one), an <svg> inside HTML (the html renderer's chart, the live
# training display).
DRAWINGS = ('.vega-embed .chart-wrapper > canvas, .vega-embed .chart-wrapper > svg, '
            '.jp-RenderedSVG img, .jp-RenderedImage img, .jp-RenderedHTMLCommon svg')

# What is measured: for each output area, its width and sideways overflow, and each drawing in
# it with its box and, for an image, the width it was drawn at.
MEASURE = """() => {
    const cells = window.jupyterapp.shell.currentWidget.content.widgets;
    const out = [];
    cells.forEach((cell, i) => {
        if (cell.model.type !== 'code') return;
        cell.node.querySelectorAll('.jp-OutputArea-output').forEach(area => {
            const a = area.getBoundingClientRect();
            const drawings = [...area.querySelectorAll(DRAWINGS)].map(el => {
                const r = el.getBoundingClientRect();
                return {tag: el.tagName.toLowerCase(), left: r.left, right: r.right,
                        width: r.width, natural: el.naturalWidth || 0};
            });
            const vega = area.matches('.jp-RenderedVegaLite') ||
                         !!area.querySelector('.jp-RenderedVegaLite');
            // a title squeezed into a narrow column: a caption or paragraph whose text takes
            // more than two lines in under 300 pixels
            const lines = el => {
                const range = document.createRange();
                range.selectNodeContents(el);
                return new Set([...range.getClientRects()].map(r => Math.round(r.bottom))).size;
            };
            const squeezed = [...area.querySelectorAll('caption, p')]
                .filter(el => el.getBoundingClientRect().width < 300 && lines(el) > 2)
                .map(el => `${el.tagName.toLowerCase()} ` +
                           `${Math.round(el.getBoundingClientRect().width)} px wide, ` +
                           `${lines(el)} lines: ${el.textContent.slice(0, 60)}`);
            // what scrolls sideways inside the area (a table's wrapper, a pre), what sticks out
            // past its right edge, and how wide its content is
            const inside = [...area.querySelectorAll('*')];
            const name = el => `${el.tagName.toLowerCase()}${el.className &&
                typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : ''}`;
            const scrollers = inside
                .filter(el => el.scrollWidth > el.clientWidth + 1 &&
                              ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
                .map(el => `${name(el)} ${el.scrollWidth} px in ${el.clientWidth}`);
            const past = inside.filter(el => el.getBoundingClientRect().right > a.right + 1 &&
                                             el.getBoundingClientRect().width > 0)
                .slice(0, 3).map(el => `${name(el)} to ${Math.round(
                    el.getBoundingClientRect().right - a.left)} px`);
            const content = Math.max(0, ...inside.map(el => el.getBoundingClientRect().right - a.left));
            // a line of a monospace table (two gaps of two spaces or more between words) that
            // the area's width wraps: its columns no longer line up, a word may be cut
            const wrapped = [];
            area.querySelectorAll('pre').forEach(pre => {
                const walk = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
                for (let node = walk.nextNode(); node; node = walk.nextNode()) {
                    let start = 0;
                    for (const line of node.data.split('\\n')) {
                        if (/\\S {2,}\\S.*\\S {2,}\\S/.test(line.trim())) {
                            const range = document.createRange();
                            range.setStart(node, start);
                            range.setEnd(node, start + line.length);
                            const rows = new Set([...range.getClientRects()]
                                .filter(r => r.width > 0).map(r => Math.round(r.top)));
                            if (rows.size > 1) wrapped.push(line.trim().slice(0, 60));
                        }
                        start += line.length + 1;
                    }
                }
            });
            const kind = [...area.classList].filter(c => c.startsWith('jp-Rendered')).join(' ');
            out.push({cell: i, vega, left: a.left, right: a.right, width: a.width,
                      client: area.clientWidth, scroll: area.scrollWidth, drawings, squeezed,
                      scrollers, past, content, kind, wrapped,
                      text: area.textContent.replace(/\s+/g, ' ').slice(0, 70)});
        });
    });
    return out;
}""".replace("DRAWINGS", repr(DRAWINGS))


def code_cells(path):
    import nbformat

    nb = nbformat.read(path, as_version=4)
    return [c for c in nb.cells if c.cell_type == "code"]


def check_outputs(pg, name, size, small=False):
    """The outputs of the open notebook that do not fit in their areas, each with why: a
    drawing that ends outside it or is shown shrunk, something in it that scrolls sideways (the
    area itself, or a table's or a pre's box inside it), something that sticks out past its
    right edge, a title squeezed, a row of a monospace table wrapped."""
    areas = pg.evaluate(MEASURE)
    vegalite = sum(1 for a in areas if a["vega"])
    drawn = [d for a in areas for d in a["drawings"]]
    if name == "06_training.ipynb":
        assert vegalite >= 3 and drawn, "no charts drawn in the training notebook"
    widths = sorted({round(a["width"]) for a in areas})
    if small and widths:  # the small window proves the claim: outputs fit in 800 pixels
        assert widths[-1] <= MAX_OUTPUT, f"{size}: output areas {widths} px wide"
    bad = []
    for a in areas:
        where = f"{size}, code cell {a['cell']} ({a['kind']}: {a['text']!r})"
        if a["scroll"] > a["client"] + 1:
            bad.append(f"{where}: {a['scroll']} px of content in a {a['client']} px output area")
        if a["scrollers"]:
            bad.append(f"{where}: scrolls sideways: {a['scrollers']}")
        if a["past"]:
            bad.append(f"{where}: past the area's right edge: {a['past']}")
        if a["squeezed"]:
            bad.append(f"{where}: text squeezed into a column: {a['squeezed']}")
        if a["wrapped"]:
            bad.append(f"{where}: table rows wrapped: {a['wrapped'][:3]}")
        for d in a["drawings"]:
            if d["right"] > a["right"] + 1 or d["width"] > a["width"] + 1:
                bad.append(f"{where}: a {d['width']:.0f} px {d['tag']} in a {a['width']:.0f} px "
                           "area")
            if d["natural"] > a["width"] + 1:
                bad.append(f"{where}: a {d['natural']} px drawing shown shrunk to "
                           f"{d['width']:.0f} px")
    assert all(a["drawings"] for a in areas if a["vega"]), "a Vega-Lite chart not drawn"
    widest = max((a["content"] for a in areas), default=0)
    print(f"{name} at {size}: {len(areas)} outputs, {vegalite} Vega-Lite charts, {len(drawn)} "
          f"drawings; output area widths {widths}; widest content {widest:.0f} px")
    return bad


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_run_all(browser, lab, name):
    stem = name.removesuffix(".ipynb")
    pg = open_notebook(browser, lab, name)
    try:
        assert kernel_name(pg) == "minitorch"
        # the stored outputs and counts gone: everything checked below comes from this run
        pg.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
        assert pg.evaluate("""() => window.jupyterapp.shell.currentWidget.content.widgets
            .every(c => c.model.type !== 'code' || (!c.model.executionCount &&
                                                   c.model.outputs.length === 0))""")
        started = time.time()
        command(pg, "notebook:run-all-cells")
        time.sleep(1)
        wait_idle(pg)
        took = time.time() - started
        # the Vega-Lite charts drawn before anything is measured
        pg.wait_for_function("""() => [...document.querySelectorAll('.jp-RenderedVegaLite')]
            .every(o => o.querySelector('.chart-wrapper > canvas, .chart-wrapper > svg'))""")
        time.sleep(0.5)
        shot = os.path.join(ARTIFACTS, f"{stem}-run-all.png")
        screenshot(pg, shot)
        print(f"{name}: Run All took {took:.1f} s; screenshot {shot}")

        # every code cell ran, in order, in this kernel: its prompt holds the next count
        prompts = pg.evaluate("""() => window.jupyterapp.shell.currentWidget.content.widgets
            .filter(c => c.model.type === 'code')
            .map(c => [c.model.executionCount, c.model.sharedModel.getSource().slice(0, 60)])""")
        stored = code_cells(os.path.join(ROOT, "notebooks", name))
        assert len(prompts) == len(stored)
        not_run = [src for count, src in prompts if not count]
        if not_run:
            # what stopped it: the outputs of the last cell that ran (an error's text) and of the
            # first that has no count (a crash's partial output), the kernel's statuses, the log
            last, first = pg.evaluate("""() => {
                const cells = window.jupyterapp.shell.currentWidget.content.widgets
                    .filter(c => c.model.type === 'code');
                const out = (c) => c ? JSON.stringify(c.model.outputs.toJSON()).slice(-3000) : '';
                const ran = cells.filter(c => c.model.executionCount);
                return [out(ran[ran.length - 1]), out(cells.find(c => !c.model.executionCount))];
            }""")
            events = pg.evaluate("() => window.mtKernelEvents")
            pytest.fail(f"cells Run All did not reach: {not_run}; the last cell that ran "
                        f"output: {last}; the first it did not reach holds: {first}; the "
                        f"kernel's statuses: {events}; the server's log ends:\n{lab_log_tail()}")
        assert [count for count, _ in prompts] == list(range(1, len(prompts) + 1)), prompts

        # errors exactly where the notebook says a cell raises on purpose
        outputs = pg.evaluate("""() => window.jupyterapp.shell.currentWidget.content.widgets
            .filter(c => c.model.type === 'code')
            .map(c => c.model.outputs.toJSON().filter(o => o.output_type === 'error')
                                               .map(o => o.ename + ': ' + o.evalue))""")
        tagged = ["raises-exception" in c.metadata.get("tags", []) for c in stored]
        for i, (errs, tag) in enumerate(zip(outputs, tagged)):
            src = stored[i].source[:80]
            if tag:
                assert errs, f"code cell {i} is tagged raises-exception but did not raise: {src}"
            else:
                assert not errs, f"code cell {i} raised {errs}: {src}"

        # every output fits in its area, in the window it ran in and in a smaller one
        bad = check_outputs(pg, name, "%dx%d" % (VIEWPORT["width"], VIEWPORT["height"]))
        pg.set_viewport_size(SMALL)
        time.sleep(1.5)  # JupyterLab lays out again; Vega-Lite charts redraw at their width
        bad += check_outputs(pg, name, "%dx%d" % (SMALL["width"], SMALL["height"]), small=True)
        screenshot(pg, os.path.join(ARTIFACTS, f"{stem}-run-all-small.png"), viewport=SMALL)
        assert not bad, "outputs that do not fit:\n" + "\n".join(bad)
    finally:
        close_notebook(pg)


def test_released_assignment_runs_to_its_first_test(browser, lab):
    pg = open_notebook(browser, lab, RELEASED)
    try:
        assert kernel_name(pg) == "minitorch"
        cells = pg.evaluate("""() => window.jupyterapp.shell.currentWidget.content.widgets
            .filter(c => c.model.type === 'code')
            .map(c => ({nbgrader: c.model.getMetadata('nbgrader') || null,
                        readOnly: c.readOnly,
                        source: c.model.sharedModel.getSource()}))""")
        solutions = [c for c in cells if c["nbgrader"]["solution"]]
        given = [c for c in cells if not c["nbgrader"]["solution"]]
        assert len(solutions) == 3 and all("raise NotImplementedError()" in c["source"]
                                           for c in solutions)
        assert not any(c["readOnly"] for c in solutions), "a solution cell is read-only"
        assert all(c["readOnly"] for c in given), "a given or test cell can be edited"
        first_test = next(i for i, c in enumerate(cells) if c["nbgrader"]["grade"])

        command(pg, "notebook:run-all-cells")
        time.sleep(1)
        wait_idle(pg)
        ran = pg.evaluate("""() => window.jupyterapp.shell.currentWidget.content.widgets
            .filter(c => c.model.type === 'code')
            .map(c => [c.model.executionCount,
                       c.model.outputs.toJSON().filter(o => o.output_type === 'error')
                        .map(o => o.ename + ': ' + o.evalue)])""")
        assert all(count for count, _ in ran[:first_test + 1]), ran[:first_test + 1]
        count, errors = ran[first_test]
        assert errors and errors[0].startswith("AssertionError: ") and "Task 3.1 (map)" in \
            errors[0], errors
        text = pg.evaluate(f"""() => window.jupyterapp.shell.currentWidget.content.widgets
            .filter(c => c.model.type === 'code')[{first_test}].node.innerText""")
        assert "raised NotImplementedError" in text
        # Run All stops at the failed test; the kernel is alive and runs the next cell
        assert not ran[first_test + 1][0]
        pg.evaluate(f"""() => {{
            const nb = window.jupyterapp.shell.currentWidget.content;
            const codes = nb.widgets.filter(c => c.model.type === 'code');
            nb.activeCellIndex = nb.widgets.indexOf(codes[{first_test + 1}]);
        }}""")
        command(pg, "notebook:run-cell")
        time.sleep(1)
        wait_idle(pg)
        assert pg.evaluate(f"""() => window.jupyterapp.shell.currentWidget.content.widgets
            .filter(c => c.model.type === 'code')[{first_test + 1}].model.executionCount""")
        screenshot(pg, os.path.join(ARTIFACTS, "released_02_parallel.png"))
    finally:
        close_notebook(pg)


def test_the_users_own_settings_and_workspaces_are_not_read(browser, lab):
    """The server runs with a user's JupyterLab set-up in its home (the fixture's): the
    workspace it serves is not the user's saved one, and the notebook settings in force are the
    test's (every cell laid out), not the user's."""
    base, token = lab
    with urllib.request.urlopen(f"{base}/lab/api/workspaces/default?token={token}") as r:
        workspace = r.read().decode()
    assert "elsewhere.py" not in workspace, workspace
    pg = browser.new_page(viewport=VIEWPORT)
    try:
        pg.goto(f"{base}/lab?token={token}")
        pg.wait_for_function("window.jupyterapp !== undefined")
        raw = pg.evaluate("""async () => (await window.jupyterapp.serviceManager.settings
            .fetch('@jupyterlab/notebook-extension:tracker')).raw""")
    finally:
        pg.close()
    assert json.loads(raw).get("windowingMode") == "none", raw


def test_tab_completes_a_tensor_method(browser, lab):
    pg = open_notebook(browser, lab, "hello.ipynb")
    try:
        pg.evaluate("""async () => {
            const app = window.jupyterapp, nb = app.shell.currentWidget.content;
            nb.activeCellIndex = nb.widgets.length - 1;
            await app.commands.execute('notebook:insert-cell-below');
            await app.commands.execute('notebook:enter-edit-mode');
        }""")
        pg.keyboard.type("t = rand(2, 2)")
        pg.keyboard.press("Shift+Enter")
        wait_idle(pg, 60)
        pg.evaluate("window.jupyterapp.commands.execute('notebook:enter-edit-mode')")
        pg.keyboard.type("t.su")
        pg.keyboard.press("Tab")
        completer = pg.locator(".jp-Completer")
        try:
            completer.wait_for(state="visible", timeout=15_000)
            items = completer.locator(".jp-Completer-item").all_text_contents()
        except Exception:  # a single match is inserted without a popup
            items = []
        pg.screenshot(path=os.path.join(ARTIFACTS, "hello-completion.png"))
        editor_text = pg.evaluate("""() => {
            const w = window.jupyterapp.shell.currentWidget;
            return w.content.activeCell.model.sharedModel.getSource();
        }""")
        assert any("sum" in i for i in items) or editor_text.endswith("t.sum"), \
            (items, editor_text)
    finally:
        close_notebook(pg)


@pytest.mark.parametrize("name", [n for n in NOTEBOOKS if n not in NO_CHARTS])
def test_nbconvert_html_has_the_svg_fallback(browser, name):
    """nbconvert's HTML has no Vega renderer: it picks the kernel's image/svg+xml for every
    chart output of the stored notebook, each at most MAX_CHART pixels wide, and shown in
    Chromium whole: inside its output area, at its own width."""
    import base64
    import xml.etree.ElementTree as ET

    import nbformat

    path = os.path.join(ROOT, "notebooks", name)
    nb = nbformat.read(path, as_version=4)
    charts = sum(1 for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                 if VEGALITE in o.get("data", {}))
    assert charts >= (3 if name == "06_training.ipynb" else 1)
    html = subprocess.run([os.path.join(VENV_BIN, "jupyter"), "nbconvert", "--to", "html",
                           "--stdout", path], check=True, capture_output=True, text=True).stdout
    export = os.path.join(ARTIFACTS, name.replace(".ipynb", ".html"))
    with open(export, "w", encoding="utf-8") as f:
        f.write(html)
    images = re.findall(r'<div class="jp-RenderedSVG[^"]*jp-OutputArea-output[^>]*>\s*'
                        r'<img[^>]* src="data:image/svg\+xml;base64,([^"]+)"', html)
    assert len(images) >= charts, (len(images), charts)
    widths = [float(ET.fromstring(base64.b64decode(b)).get("width")) for b in images]
    assert max(widths) <= MAX_CHART, widths
    pg = browser.new_page(viewport=VIEWPORT)
    try:
        pg.goto("file://" + export)
        pg.wait_for_function("() => [...document.querySelectorAll('.jp-RenderedSVG img')]"
                             ".every(i => i.complete && i.naturalWidth > 0)")
        shown = pg.evaluate("""() => [...document.querySelectorAll('.jp-RenderedSVG')].map(a => {
            const img = a.querySelector('img'), r = img.getBoundingClientRect(),
                  box = a.getBoundingClientRect();
            return {natural: img.naturalWidth, width: r.width, right: r.right,
                    area: box.width, area_right: box.right,
                    scroll: a.scrollWidth, client: a.clientWidth};
        })""")
    finally:
        pg.close()
    assert len(shown) == len(images)
    for s in shown:
        assert s["right"] <= s["area_right"] + 1 and s["scroll"] <= s["client"] + 1, s
        assert abs(s["width"] - s["natural"]) <= 1, ("shown shrunk or cut", s)


# The live training display and the log under it, in one code cell's outputs: the drawings
# (JupyterLab's Vega canvas or svg, an SVG inside HTML), the log's output areas, each with its
# top and bottom in the page, the live drawing's title (its epoch), and the lines the progress
# bar's status takes.
LIVE_STATE = """() => {
    const cell = window.jupyterapp.shell.currentWidget.content.widgets[1];
    const box = el => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; };
    const drawings = [...cell.node.querySelectorAll(
        '.vega-embed .chart-wrapper > canvas, .vega-embed .chart-wrapper > svg, ' +
        '.jp-RenderedHTMLCommon svg')];
    const logs = [...cell.node.querySelectorAll(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stdout"]')];
    const title = drawings.length ? (drawings[0].textContent.match(/at epoch \\d+/) ||
                                     [drawings[0].getAttribute('aria-label') || ''])[0] : '';
    const status = cell.node.querySelector('.jp-OutputArea-output progress + code');
    const range = document.createRange();
    if (status) range.selectNodeContents(status);
    const lines = status ? new Set([...range.getClientRects()].map(r => Math.round(r.bottom))).size
                         : 0;
    return {drawings: drawings.map(box), logs: logs.map(box), title, status_lines: lines};
}"""


def test_log_lines_stay_still_under_the_live_chart(browser, lab):
    """While a long run trains, its boundary chart is redrawn once a second: every log line is
    below it, and the log does not move when the chart is redrawn; the progress status above
    it stays on one line."""
    pg = open_notebook(browser, lab, LIVE)
    try:
        command(pg, "notebook:run-cell-and-select-next")
        wait_idle(pg, 60)
        command(pg, "notebook:run-cell")
        pg.wait_for_function(f"({LIVE_STATE})().drawings.length > 0", timeout=30_000)
        first = pg.evaluate(LIVE_STATE)
        deadline = time.time() + 20
        while time.time() < deadline:  # until the chart has been redrawn at a later epoch
            time.sleep(0.2)
            later = pg.evaluate(LIVE_STATE)
            if later["title"] != first["title"] and later["drawings"]:
                break
        pg.screenshot(path=os.path.join(ARTIFACTS, "live-training.png"))
        pg.evaluate("window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
                    ".interrupt()")
        wait_idle(pg, 60)
    finally:
        close_notebook(pg)
    for state in (first, later):
        # a status that wraps, or not, as its numbers change length moves what is under it
        assert state["status_lines"] == 1, ("the progress status wraps", state)
        assert len(state["drawings"]) == 1, state
        chart_bottom = state["drawings"][0][1]
        assert state["logs"] and all(top >= chart_bottom - 1 for top, _ in state["logs"]), \
            ("log lines above the live chart", state)
    assert later["title"] != first["title"], ("the live chart was not redrawn", first, later)
    # the chart redrawn in place, the log where it was
    assert later["drawings"][0] == first["drawings"][0], (first, later)
    assert later["logs"][0][0] == first["logs"][0][0], (first, later)
