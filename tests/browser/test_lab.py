"""The training notebook in a real browser: JupyterLab from .venv on 127.0.0.1, Debian's Chromium
headless driven by Playwright (executable_path /usr/bin/chromium: no downloaded browser).

Run by tools/run-browser-tests.sh, which installs the kernelspec into a temporary directory and
exports MT_KERNEL_BIN and JUPYTER_PATH. The notebook is copied into a temporary directory first,
so that JupyterLab's autosave cannot touch the repository's copy. Screenshots go to
tests/browser/artifacts/ (ignored by git).

Checks: the MiniTorch kernel is the one JupyterLab starts for the notebook; "Run All" finishes
with every code cell executed; the decision boundary chart is rendered by JupyterLab's Vega
renderer (a canvas or SVG in the output area); no cell shows an error; Tab after `t.` offers a
tensor method. Then nbconvert's HTML export of the stored notebook carries the kernel's SVG
fallback for every chart.
"""

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
NOTEBOOK = "06_training.ipynb"
CHROMIUM = "/usr/bin/chromium"
VENV_BIN = os.path.dirname(sys.executable)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab():
    """A JupyterLab server on 127.0.0.1 serving a copy of the notebook: (base url, token)."""
    assert os.environ.get("JUPYTER_PATH"), "run through tools/run-browser-tests.sh"
    work = tempfile.mkdtemp(prefix="mt-browser-")
    shutil.copy(os.path.join(ROOT, "notebooks", NOTEBOOK), work)
    port, token = free_port(), "minitorch-browser-test"
    args = [os.path.join(VENV_BIN, "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1",
            f"--port={port}", f"--ServerApp.token={token}", f"--ServerApp.root_dir={work}",
            "--LabApp.expose_app_in_browser=True", "--ServerApp.disable_check_xsrf=True"]
    if os.geteuid() == 0:
        args.append("--allow-root")
    log = open(os.path.join(work, "lab.log"), "w")
    proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
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
def page(lab):
    from playwright.sync_api import sync_playwright

    assert os.path.exists(CHROMIUM), f"{CHROMIUM} missing (tools/setup.sh installs chromium)"
    os.makedirs(ARTIFACTS, exist_ok=True)
    base, token = lab
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        pg = browser.new_page(viewport={"width": 1400, "height": 1000})
        pg.set_default_timeout(60_000)
        pg.goto(f"{base}/lab/tree/{NOTEBOOK}?token={token}")
        pg.wait_for_function("window.jupyterapp !== undefined")
        pg.wait_for_selector(".jp-Notebook .jp-Cell")
        yield pg
        browser.close()


def kernel_name(pg):
    return pg.evaluate("""() => {
        const w = window.jupyterapp.shell.currentWidget;
        const k = w && w.sessionContext && w.sessionContext.session &&
                  w.sessionContext.session.kernel;
        return k ? k.name : null;
    }""")


def wait_idle(pg, timeout_s=300):
    """Until no cell is queued or running ([*]) and the kernel is idle."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        busy = pg.evaluate("""() => {
            const prompts = [...document.querySelectorAll('.jp-InputArea-prompt')];
            const w = window.jupyterapp.shell.currentWidget;
            const status = w.sessionContext.session.kernel.status;
            return prompts.some(p => p.textContent.includes('*')) || status !== 'idle';
        }""")
        if not busy:
            return
        time.sleep(0.5)
    pytest.fail("the notebook did not finish running")


def test_run_all_renders_the_boundary(page):
    pg = page
    pg.wait_for_function("""() => {
        const w = window.jupyterapp.shell.currentWidget;
        return w && w.sessionContext && w.sessionContext.session &&
               w.sessionContext.session.kernel &&
               w.sessionContext.session.kernel.status === 'idle';
    }""")
    assert kernel_name(pg) == "minitorch"
    pg.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    time.sleep(1)
    wait_idle(pg)
    pg.screenshot(path=os.path.join(ARTIFACTS, "training-after-run-all.png"), full_page=True)
    # every code cell ran: its prompt holds a number
    prompts = pg.eval_on_selector_all(
        ".jp-CodeCell .jp-InputArea-prompt", "els => els.map(e => e.textContent.trim())")
    assert prompts and all(re.fullmatch(r"\[\d+\]:", p) for p in prompts), prompts
    # the charts: JupyterLab's Vega renderer drew them (vega-embed makes a canvas or an svg)
    charts = pg.locator(".jp-OutputArea-output .vega-embed canvas, "
                        ".jp-OutputArea-output .vega-embed svg")
    assert charts.count() >= 3, "no Vega chart rendered"
    # the decision boundary: the output of the cell that calls plot(model, split)
    drawn = pg.evaluate("""() => {
        const cells = window.jupyterapp.shell.currentWidget.content.widgets;
        const cell = cells.find(c => c.model.sharedModel.getSource().trim() ===
                                     'plot(model, split)');
        return cell ? cell.node.querySelectorAll(
            '.jp-OutputArea-output .vega-embed canvas, .jp-OutputArea-output .vega-embed svg'
        ).length : -1;
    }""")
    assert drawn > 0, f"the decision boundary was not drawn ({drawn})"
    # no error output anywhere
    errors = pg.eval_on_selector_all(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']",
        "els => els.map(e => e.textContent)")
    assert not [e for e in errors if "Error" in e], errors


def test_tab_completes_a_tensor_method(page):
    pg = page
    pg.evaluate("""async () => {
        const app = window.jupyterapp;
        await app.commands.execute('notebook:move-cursor-down');
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
    pg.screenshot(path=os.path.join(ARTIFACTS, "training-completion.png"))
    editor_text = pg.evaluate("""() => {
        const w = window.jupyterapp.shell.currentWidget;
        return w.content.activeCell.model.sharedModel.getSource();
    }""")
    assert any("sum" in i for i in items) or editor_text.endswith("t.sum"), (items, editor_text)


def test_nbconvert_html_has_the_svg_fallback():
    """nbconvert's HTML has no Vega renderer: it picks the kernel's image/svg+xml for every
    chart output of the stored notebook."""
    import nbformat

    path = os.path.join(ROOT, "notebooks", NOTEBOOK)
    nb = nbformat.read(path, as_version=4)
    charts = sum(1 for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                 if "application/vnd.vegalite.v5+json" in o.get("data", {}))
    assert charts >= 3
    html = subprocess.run([os.path.join(VENV_BIN, "jupyter"), "nbconvert", "--to", "html",
                           "--stdout", path], check=True, capture_output=True, text=True).stdout
    with open(os.path.join(ARTIFACTS, "training.html"), "w", encoding="utf-8") as f:
        f.write(html)
    svgs = len(re.findall(r'<div class="jp-RenderedSVG[^"]*jp-OutputArea-output', html))
    assert svgs >= charts, (svgs, charts)
