"""The magics through a real Jupyter client: where their output goes (stream text, display_data
bundles with text/plain and text/html, execute_result), in what order, and that an interrupt
stops a %timeit and leaves the kernel working. Timings are matched by the fixed formats that
kernel/lib/magics.h documents, never by their numbers."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import time

from jupyter_kernel_test.msgspec_v5 import validate_message

from mtkernel import (KERNEL_NAME, collect_iopub, execute, get_reply, kernel_bin, send_control,
                      timing_lines, wait_started)

DURATION = r"[0-9.]+ (ns|µs|ms|s)"


def validate_all(res) -> None:
    validate_message(res.reply, "execute_reply", res.msg_id)
    for m in res.iopub:
        validate_message(m, m["msg_type"], res.msg_id)


def output_types(res) -> list[str]:
    return [m["msg_type"] for m in res.outputs]


def html_cells(html: str, column: str) -> list[str]:
    """The cells of one column of the diagnostics table's HTML, top to bottom: a column of the
    rows, or an item ("column value") of the detail line under each row."""
    heads = re.findall(r"<th(?: [^>]*)?>(.*?)</th>", html)
    rows, details = [], []
    for tr in re.findall(r"<tr>(.*?)</tr>", html.split("<tbody>", 1)[1], re.S):
        if tr.startswith("<td colspan"):
            details[-1] = tr
        else:
            rows.append(tr)
            details.append("")
    if column in heads:
        k = heads.index(column)
        return [re.findall(r"<td[^>]*>(.*?)</td>", row)[k] for row in rows]
    item = re.compile(rf'<span style="white-space:nowrap">{re.escape(column)} (.*?)</span>')
    return [m.group(1) if (m := item.search(d)) else None for d in details]


def test_time_prints_before_the_result(kc):
    execute(kc, "x = ones(4, 5)")
    r = execute(kc, "%time x + x")
    validate_all(r)
    assert r.status == "ok"
    # the stream line goes out before the statement's value, as IPython's does
    assert output_types(r) == ["stream", "execute_result"], r
    # (4, 5) + (4, 5): one engine op, so its rate follows the time
    assert re.fullmatch(rf"Wall time: {DURATION} \(one run; add on fast: [0-9.]+ GB/s\)\n",
                        timing_lines(r.stream())), r
    assert r.result_text().startswith("tensor([[2., 2., 2., 2., 2.],")
    r = execute(kc, "%time y = 1")
    assert re.fullmatch(rf"Wall time: {DURATION} \(one run\)\n", timing_lines(r.stream())), r
    assert r.of_type("execute_result") == []


def test_time_error_points_into_the_cell(kc):
    r = execute(kc, "z = 0\n%time 1 / z")
    validate_all(r)
    err = r.error()
    assert err["ename"] == "ZeroDivisionError"
    assert re.search(r"Cell In\[\d+\], line 2, column 9:", "\n".join(err["traceback"]))
    assert r.stream() == ""  # no time for a statement that failed


def test_timeit_format_and_options(kc):
    execute(kc, "k = 0")
    r = execute(kc, "%timeit -n3 -r 2 k += 1")
    validate_all(r)
    assert re.fullmatch(rf"{DURATION} ± {DURATION} per loop \(median ± median absolute "
                        r"deviation of 2 runs, 3 loops each\)\n", timing_lines(r.stream())), r
    assert execute(kc, "k").result_text() == "6"
    r = execute(kc, "%timeit -r 0 k")
    assert r.error()["ename"] == "UsageError"


def test_diagnostics_bundle_columns(kc):
    execute(kc, "p = rand(8, 16)\nq = rand(16)")
    r = execute(kc, "%diagnostics p * q")
    validate_all(r)
    assert output_types(r) == ["display_data", "execute_result"], r
    data = r.of_type("display_data")[0]["content"]["data"]
    assert set(data) == {"text/plain", "text/html"}
    html = data["text/html"]
    # the columns a student compares between ops; the rest on a line under the row, so that
    # the table fits an output area beside an open side panel
    for col in ("op", "shapes (in -> out)", "path", "threads", "time", "rate", "of machine peak"):
        assert re.search(f"<th(?: [^>]*)?>{re.escape(col.replace('>', '&gt;'))}</th>", html), col
    for col in ("backend", "strides", "loop", "vector width", "calls", "bytes", "FLOPs",
                "spread"):
        assert not re.search(f"<th(?: [^>]*)?>{col}</th>", html), col
        assert html_cells(html, col)[0], col
    assert html_cells(html, "strides") == ["(16, 1), (1,) -&gt; (16, 1)"]
    assert html_cells(html, "op") == ["mul"]
    # the shapes may break between them, never inside one
    nowrap = '<span style="white-space:nowrap">'
    assert html_cells(html, "shapes (in -&gt; out)") == [
        f"{nowrap}(8, 16),</span> {nowrap}(16,)</span> {nowrap}-&gt; (8, 16)</span>"]
    assert html_cells(html, "path") == ["broadcast"]
    # 4 bytes x (128 + 16 + 128) elements = 1088 bytes; one multiply per output element
    assert html_cells(html, "bytes") == ["1.09 kB"]
    assert html_cells(html, "FLOPs") == ["128"]
    # past the peak (one measured on a busy machine is low): no share but why, the data fitting
    # a cache or the peak read low; the cell is HTML, its ">" escaped
    assert re.fullmatch(r"[0-9.]+% of [0-9]+ GB/s|&gt;100% of [0-9]+ GB/s: (data in cache|peak "
                        r"read low)", html_cells(html, "of machine peak")[0])
    # a tiny op runs again (5 runs, or fewer when they took 20 ms: a busy machine)
    assert re.fullmatch(rf"{DURATION} – {DURATION}, [2-5] runs|one run",
                        html_cells(html, "spread")[0])
    plain = data["text/plain"].splitlines()
    assert plain[0] == "1 engine op"
    assert plain[1].split()[:2] == ["op", "backend"] and plain[2].startswith("mul  fast  ")
    assert plain[3].startswith("time: each call's median run, added up over the row's calls")
    assert re.match(r"Machine peak \(measured once on this machine, \d{4}-\d\d-\d\d \d\d:\d\d, "
                    r"all threads\): reading main memory ", plain[4]), plain[4]


def test_diagnostics_explain_their_columns_once_a_session():
    """A session's first table says what its time columns and its peak column mean; the tables
    after it say so in one line, with the peaks they compare with."""
    from mtkernel import start_kernel, stop_kernel

    km, kc = start_kernel()
    try:
        execute(kc, "a = ones(3)")
        tables = []
        for code in ("%diagnostics a + a", "%diagnostics a * a", "%diagnostics a - a"):
            r = execute(kc, code)
            tables.append(r.of_type("display_data")[0]["content"]["data"]["text/plain"])
        first, *later = tables
        assert "time: each call's median run" in first, first
        assert "Machine peak (measured once on this machine, " in first, first
        for text in later:
            assert "time: each call's median run" not in text, text
            assert "Machine peak (" not in text, text
            assert re.search(r"^time, spread and machine peak \([0-9]+ GB/s read, [0-9]+ GFLOP/s "
                             r"FMA\): as under this session's first table\.", text, re.M), text
    finally:
        stop_kernel(km, kc)


PEAK_LINE = re.compile(r"Machine peak \(measured once on this machine, ([0-9: -]+), all threads\): "
                       r"reading main memory ([0-9]+) GB/s, FMA ([0-9]+) GFLOP/s")
BUSY = "The peaks were measured while other programs ran"


def first_table_peak(cache, tmp_path):
    """(when, read GB/s, FMA GFLOP/s, whether measured while other programs ran) that a new
    session's first %diagnostics table gives, the user's cache folder being `cache`"""
    script = tmp_path / "peak.mt"
    script.write_text("a = ones(1000)\n%diagnostics a + a\n")
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), TZ="UTC")
    r = subprocess.run([str(kernel_bin()), "run", str(script)], env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    m = PEAK_LINE.search(r.stdout)
    assert m, r.stdout
    return m.group(1), int(m.group(2)), int(m.group(3)), BUSY in r.stdout


def this_machine():
    """What the kept peaks are filed under, worked out here as the kernel's own reading of the
    machine should: the processor's model, its CPUs online, OMP_NUM_THREADS, the host"""
    model = "unknown"
    with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("model name") and ":" in line:
                model = line.split(":", 1)[1].strip()
                break
    return "%s|cpus %d|OMP_NUM_THREADS %s|host %s" % (
        model, os.sysconf("SC_NPROCESSORS_ONLN"), os.environ.get("OMP_NUM_THREADS", "unset"),
        socket.gethostname()[:63])


def peak_note(machine, read=12345, fma=678, at=1767323040):
    return ("minitorch-kernel machine peak 1\nmachine %s\nread %s\nfma %s\nmeasured %d\n"
            % (machine, read, fma, at))


def test_machine_peak_is_measured_once_per_machine_and_kept(tmp_path):
    """The peaks are measured by the first session of a machine and kept in the user's cache
    folder, with when, unless other programs ran meanwhile; later sessions of that machine read
    them. A note of another machine is measured over, and a note that is not the user's own
    plain file is never believed."""
    cache = tmp_path / "cache"
    note = cache / "minitorch-kernel" / "jit" / "machine-peak"
    when, read, fma, busy = first_table_peak(cache, tmp_path)
    if busy:  # serves this session only
        assert not note.exists()
    else:
        text = note.read_text()
        assert oct(note.stat().st_mode & 0o777) == "0o600"
        assert re.search(r"^machine (.*)$", text, re.M).group(1) == this_machine()
        assert round(float(re.search(r"^read (\S+)$", text, re.M).group(1))) == read
        at = int(re.search(r"^measured (\d+)$", text, re.M).group(1))
        assert time.strftime("%Y-%m-%d %H:%M", time.gmtime(at)) == when
    # kept: a later session says what the note says, peaks and time alike
    note.write_text(peak_note(this_machine()))
    assert first_table_peak(cache, tmp_path) == ("2026-01-02 03:04", 12345, 678, False)
    # another machine's note: measured over (and replaced, unless other programs ran)
    note.write_text(peak_note("another|cpus 64"))
    *_, busy = got = first_table_peak(cache, tmp_path)
    assert got[1] != 12345
    assert ("machine another" in note.read_text()) == busy
    # a link to a planted note, a note others may write, a FIFO: not read, removed, measured over
    elsewhere = tmp_path / "planted"
    elsewhere.write_text(peak_note(this_machine()))
    for make in (lambda: note.symlink_to(elsewhere),
                 lambda: (note.write_text(peak_note(this_machine())), note.chmod(0o666)),
                 lambda: os.mkfifo(note)):
        if note.exists() or note.is_symlink():
            note.unlink()
        make()
        *_, busy = got = first_table_peak(cache, tmp_path)
        assert got[1] != 12345
        assert not note.is_symlink() and (note.is_file() or (busy and not note.exists()))
        assert not note.exists() or "read 12345" not in note.read_text()
    assert elsewhere.read_text() == peak_note(this_machine())


def test_diagnostics_on_and_off_across_cells(kc):
    execute(kc, "a = ones(3)")
    r = execute(kc, "%diagnostics on")
    assert r.stream() == "diagnostics: on\n"
    try:
        r = execute(kc, "for i in range(1000):\n    b = a + a\nb.sum()")
        validate_all(r)
        # the table of the whole cell, then its result
        assert output_types(r) == ["display_data", "execute_result"], r
        html = r.of_type("display_data")[0]["content"]["data"]["text/html"]
        assert html_cells(html, "op") == ["add", "sum"]
        assert html_cells(html, "calls") == ["1000", "1"]
        r = execute(kc, "c = 1 + 2")  # no engine op: no table
        assert r.of_type("display_data") == []
    finally:
        r = execute(kc, "%diagnostics off")
    assert r.stream() == "diagnostics: off\n"
    r = execute(kc, "a + a")
    assert output_types(r) == ["execute_result"], r


def test_seed_who_reset_lsmagic(kc):
    r1 = execute(kc, "%seed 11\nrand(3).tolist()")
    r2 = execute(kc, "seed(11)\nrand(3).tolist()")
    assert r1.result_text() == r2.result_text() and r1.result_text().startswith("[")
    execute(kc, "%reset -f\nw = zeros(2, 3)\nname = 'mt'")
    r = execute(kc, "%who")
    assert r.stream() == ("Variable  Type       Data/Info\n"
                          "name      str        'mt'\n"
                          "w         tensor     shape (2, 3), fast\n")
    r = execute(kc, "%reset")
    assert r.stream() == "Forgot 2 variables.\n"
    assert execute(kc, "w").error()["ename"] == "NameError"
    assert execute(kc, "%who").stream() == "No variables are defined.\n"
    lines = execute(kc, "%lsmagic").stream().splitlines()
    assert lines[0] == "Available line magics:"
    names = " ".join(lines[1:lines.index("")]).split()
    assert names == ["%backend", "%cuda", "%cuda_matmul", "%diagnostics", "%lsmagic", "%memory",
                     "%plot_renderer", "%reset", "%seed", "%threads", "%time", "%timeit", "%who"]
    usages = [ln.split()[0] for ln in lines if ln.startswith("  %")]
    assert usages == names
    assert max(map(len, lines)) <= 79  # broken between words, not by the front end


def test_plot_renderer_chooses_the_chart_mime(kc):
    execute(kc, "m = rand(8, 8)")
    try:
        assert execute(kc, "%plot_renderer svg").status == "ok"
        data = execute(kc, 'compare("m @ m")').of_type("display_data")[1]["content"]["data"]
        assert "image/svg+xml" in data and "application/vnd.vegalite.v5+json" not in data
        execute(kc, "%plot_renderer vegalite")
        data = execute(kc, 'compare("m @ m")').of_type("display_data")[1]["content"]["data"]
        assert "application/vnd.vegalite.v5+json" in data and "image/svg+xml" not in data
        r = execute(kc, "%plot_renderer png")
        assert r.error()["ename"] == "ValueError" and "vegalite" in r.error()["evalue"]
        assert execute(kc, "%plot_renderer").stream() == "plot renderer: vegalite\n"
    finally:
        execute(kc, "%plot_renderer auto")


def test_interrupt_stops_timeit(start_kernel):
    km, kc = start_kernel(KERNEL_NAME)
    assert execute(kc, "survivor = 41").status == "ok"
    msg_id = kc.execute("%timeit -n 1000000000 -r 1 survivor + 0")
    wait_started(kc, msg_id)
    time.sleep(0.1)
    t0 = time.perf_counter()
    ctl_id = send_control(kc, "interrupt_request", {})
    reply = get_reply(kc, msg_id, timeout=5)
    latency = time.perf_counter() - t0
    assert get_reply(kc, ctl_id, channel="control")["content"]["status"] == "ok"
    assert reply["content"]["status"] == "error"
    assert reply["content"]["ename"] == "KeyboardInterrupt"
    errs = [m for m in collect_iopub(kc, msg_id) if m["msg_type"] == "error"]
    assert len(errs) == 1 and errs[0]["content"]["ename"] == "KeyboardInterrupt"
    assert latency < 0.5, f"interrupt took {latency * 1000:.0f} ms"
    assert km.is_alive()
    assert execute(kc, "survivor + 1").result_text() == "42"
