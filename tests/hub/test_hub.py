"""A class on a JupyterHub: real JupyterHub (the pinned one in .venv), its proxy (Debian's
configurable-http-proxy), the local-process spawner and the dummy authenticator, on 127.0.0.1,
with the kernel installed system-wide by tools/install.sh (the runner installs it into
$MT_HUB_PREFIX, as `make install` does into /usr/local).

Each of N students (MT_HUB_STUDENTS, 10 by default), all at once: logs in with the login form,
takes an API token with the session's cookie, starts a server through the REST API, finds the
course notebooks that the hub copied into the home on the server's start (minitorch-course),
opens a notebook session on the MiniTorch kernel through the websocket (as JupyterLab does) and
runs the Task 3.5 cells of the copy: the student's njit kernels compiled, the network trained.
Every reply must be `ok` and every output the notebook keeps must come back the same; the
student saves the notebook. Then each student's notebooks and compiled code must be in that
student's home alone, and no student's token may reach another's server.

The spawner runs every student under the test's own Unix user, each with a home of their own:
the isolation tested is the homes' and the servers', not the operating system's, which a hub
with a user per student (LocalProcessSpawner, KubeSpawner) adds on top.
"""

import concurrent.futures
import json
import os
import re
import socket
import stat
import subprocess
import sys
import time
import uuid

import pytest
import requests
import websocket

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from course_cells import task35_cells  # noqa: E402

PREFIX = os.environ.get("MT_HUB_PREFIX", "")
STUDENTS = int(os.environ.get("MT_HUB_STUDENTS", "10"))
NOTEBOOK = "06_training.ipynb"
FOLDER = "minitorch-course"  # where minitorch-course copies the notebooks
PASSWORD = "class-password"
IGNORE_OUTPUT = "nbval-ignore-output"
REPLY_TIMEOUT_S = 600

pytestmark = pytest.mark.skipif(not PREFIX, reason="MT_HUB_PREFIX unset: run tools/run-hub-tests.sh")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def hub_config(work, ports, admin_token):
    venv_bin = os.path.dirname(sys.executable)
    return f'''
import os

c = get_config()  # noqa: F821
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {ports[0]}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {ports[1]}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{ports[2]}"
c.JupyterHub.db_url = "sqlite:///{work}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{work}/jupyterhub_cookie_secret"
c.JupyterHub.pid_file = "{work}/jupyterhub.pid"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = "{PASSWORD}"
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{work}/home/{{username}}"
# the course notebooks copied into the home where missing, by the student's own process, as
# the server starts (README: the hub's set-up)
c.Spawner.cmd = ["sh", "-c", '"$0" >/dev/null && exec "{venv_bin}/jupyterhub-singleuser" "$@"',
                 "{PREFIX}/bin/minitorch-course"]
# the test may run as root (a CI container): a server refuses to, unless told
if os.geteuid() == 0:
    c.Spawner.args = ["--ServerApp.allow_root=True"]
c.Spawner.start_timeout = 300
c.Spawner.http_timeout = 300
# the system-wide install's kernelspec; no cache folder but the home's
c.Spawner.environment = {{"JUPYTER_PATH": "{PREFIX}/share/jupyter"}}
c.JupyterHub.services = [{{"name": "class-admin", "api_token": "{admin_token}"}}]
c.JupyterHub.load_roles = [{{"name": "class-admin", "services": ["class-admin"],
                             "scopes": ["admin:users", "admin:servers"]}}]

'''


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    work = str(tmp_path_factory.mktemp("hub"))
    os.makedirs(os.path.join(work, "home"))
    ports = [free_port() for _ in range(3)]
    admin_token = uuid.uuid4().hex
    config = os.path.join(work, "jupyterhub_config.py")
    with open(config, "w", encoding="utf-8") as f:
        f.write(hub_config(work, ports, admin_token))
    env = dict(os.environ)
    env.pop("XDG_CACHE_HOME", None)
    # Debian's configurable-http-proxy finds its modules where Debian's node looks; another node
    # (NodeSource's) is told where
    env["NODE_PATH"] = "/usr/share/nodejs:/usr/lib/nodejs"
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    log = open(os.path.join(work, "hub.log"), "w", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", config], cwd=work,
                            env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{ports[0]}"
    admin = {"Authorization": f"token {admin_token}"}
    deadline = time.time() + 120
    while True:
        try:
            if requests.get(url + "/hub/api/", timeout=5).status_code == 200:
                break
        except requests.ConnectionError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            log.close()
            pytest.fail("JupyterHub did not start:\n" + open(log.name, encoding="utf-8").read()[-5000:])
        time.sleep(0.5)
    try:
        yield {"url": url, "work": work, "admin": admin, "log": log.name}
    finally:
        proc.terminate()
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        # shown by pytest where the test failed
        with open(log.name, encoding="utf-8", errors="replace") as f:
            print("---- the hub's log, its end:\n" + f.read()[-8000:])


def task_cells(path):
    """the Task 3.5 code cells of the notebook at path: (source, outputs kept, compared)"""
    return [("".join(c["source"]), c["outputs"],
             IGNORE_OUTPUT not in c.get("metadata", {}).get("tags", []))
            for c in task35_cells(path)]


def texts(outputs):
    """what a cell's outputs say: stream text (per stream) and text/plain of results and
    displays, in order"""
    got = []
    for o in outputs:
        kind = o.get("output_type")
        if kind == "stream":
            got.append((o["name"], "".join(o["text"]) if isinstance(o["text"], list) else o["text"]))
        elif kind in ("execute_result", "display_data"):
            t = o["data"].get("text/plain", "")
            got.append((kind, "".join(t) if isinstance(t, list) else t))
        elif kind == "error":
            got.append(("error", o["ename"] + ": " + o["evalue"]))
    merged = []  # a stream cut into several messages is one text
    for k, t in got:
        if merged and k == merged[-1][0] and k in ("stdout", "stderr"):
            merged[-1] = (k, merged[-1][1] + t)
        else:
            merged.append((k, t))
    return merged


class Kernel:
    """a notebook session's kernel, through the server's websocket, as JupyterLab talks to it"""

    def __init__(self, base, headers, kernel_id, session_id):
        ws_url = base.replace("http://", "ws://") + \
            f"/api/kernels/{kernel_id}/channels?session_id={session_id}"
        self.ws = websocket.create_connection(
            ws_url, header=[f"{k}: {v}" for k, v in headers.items()], timeout=REPLY_TIMEOUT_S)
        self.session = session_id

    def request(self, msg_type, content):
        msg_id = uuid.uuid4().hex
        self.ws.send(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": msg_type, "username": "student",
                       "session": self.session, "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "content": content, "channel": "shell",
            "buffers": []}))
        reply, outputs, idle = None, [], False
        while reply is None or not idle:
            m = json.loads(self.ws.recv())
            if m.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            t = m["msg_type"]
            if m["channel"] == "shell":
                reply = m
            elif t == "status":
                idle = m["content"]["execution_state"] == "idle"
            elif t in ("stream", "execute_result", "display_data", "error"):
                outputs.append(dict(m["content"], output_type=t))
            elif t == "clear_output":
                outputs = []
        return reply, outputs

    def execute(self, code):
        return self.request("execute_request", {
            "code": code, "silent": False, "store_history": True, "user_expressions": {},
            "allow_stdin": False, "stop_on_error": True})

    def close(self):
        self.ws.close()


def student(hub, name):
    """one student's whole session; what it saw, for the checks"""
    url = hub["url"]
    s = requests.Session()
    s.get(url + "/hub/login", timeout=30).raise_for_status()
    r = s.post(url + "/hub/login", data={"username": name, "password": PASSWORD,
                                         "_xsrf": s.cookies.get("_xsrf", "")},
               allow_redirects=False, timeout=30)
    assert r.status_code == 302, f"{name}: login answered {r.status_code}"
    # the token of a page, as the hub's own pages post with it
    home = s.get(url + "/hub/home", timeout=30)
    xsrf = re.search(r'xsrf_token: "([^"]+)"', home.text)
    assert xsrf, f"{name}: no xsrf_token in /hub/home ({home.status_code})"
    r = s.post(url + f"/hub/api/users/{name}/tokens", json={"note": "hub test"},
               headers={"X-XSRFToken": xsrf.group(1)}, timeout=30)
    assert r.status_code in (200, 201), f"{name}: token answered {r.status_code}: {r.text}"
    headers = {"Authorization": "token " + r.json()["token"]}

    r = requests.post(url + f"/hub/api/users/{name}/server", headers=headers, timeout=60)
    assert r.status_code in (201, 202), f"{name}: server start answered {r.status_code}: {r.text}"
    deadline = time.time() + 300
    while True:
        user = requests.get(url + f"/hub/api/users/{name}", headers=headers, timeout=30).json()
        server = user.get("servers", {}).get("", {})
        if server.get("ready"):
            break
        assert time.time() < deadline, f"{name}: the server was not ready in 300 s: {user}"
        time.sleep(0.5)
    base = url + server["url"].rstrip("/")

    listing = requests.get(base + f"/api/contents/{FOLDER}", headers=headers, timeout=30)
    assert listing.status_code == 200, f"{name}: no {FOLDER}/ in the home: {listing.status_code}"
    names = sorted(c["name"] for c in listing.json()["content"])
    r = requests.post(base + "/api/sessions", headers=headers, timeout=60, json={
        "path": f"{FOLDER}/{NOTEBOOK}", "type": "notebook", "name": NOTEBOOK,
        "kernel": {"name": "minitorch"}})
    assert r.status_code == 201, f"{name}: session answered {r.status_code}: {r.text}"
    session = r.json()
    kernel = Kernel(base, headers, session["kernel"]["id"], session["id"])
    results = []
    try:
        info, _ = kernel.request("kernel_info_request", {})
        results.append(("kernel_info", info["content"].get("status"), [], [], True))
        home = os.path.join(hub["work"], "home", name)
        for code, kept, compared in task_cells(os.path.join(home, FOLDER, NOTEBOOK)):
            reply, outputs = kernel.execute(code)
            results.append((code, reply["content"]["status"], texts(outputs), texts(kept),
                            compared))
    finally:
        kernel.close()
        requests.delete(base + f"/api/sessions/{session['id']}", headers=headers, timeout=60)
    # the notebook saved, as JupyterLab saves it, marked as this student's
    path = f"/api/contents/{FOLDER}/{NOTEBOOK}"
    model = requests.get(base + path, headers=headers, timeout=60).json()
    model["content"]["metadata"]["student"] = name
    r = requests.put(base + path, headers=headers, timeout=60, json={
        "type": "notebook", "format": "json", "content": model["content"]})
    assert r.status_code == 200, f"{name}: the save answered {r.status_code}: {r.text}"
    return {"name": name, "headers": headers, "base": base, "notebooks": names,
            "results": results}


def test_a_class_on_one_hub(hub):
    names = [f"student{i:02d}" for i in range(1, STUDENTS + 1)]
    r = requests.post(hub["url"] + "/hub/api/users", headers=hub["admin"], timeout=30,
                      json={"usernames": names})
    assert r.status_code == 201, r.text
    with concurrent.futures.ThreadPoolExecutor(len(names)) as pool:
        seen = list(pool.map(lambda n: student(hub, n), names))

    course = sorted(os.path.basename(p) for p in os.listdir(os.path.join(PREFIX, "share",
                                                                         "minitorch-kernel",
                                                                         "notebooks"))
                    if p != "colab_setup.ipynb")
    homes = os.path.join(hub["work"], "home")
    for got in seen:
        name = got["name"]
        assert got["notebooks"] == course, f"{name}'s {FOLDER}/: {got['notebooks']}"
        assert len(got["results"]) > 5, f"{name}: no Task 3.5 cells found in {NOTEBOOK}"
        for code, status, outputs, kept, compared in got["results"]:
            assert status == "ok", f"{name}: {code[:60]!r} answered {status}: {outputs}"
            if compared:
                assert outputs == kept, f"{name}: {code[:60]!r} printed {outputs}, the notebook {kept}"

        # the student's saved notebook, in the student's home
        with open(os.path.join(homes, name, FOLDER, NOTEBOOK), encoding="utf-8") as f:
            assert json.load(f)["metadata"].get("student") == name
        # the student's compiled kernels, in a cache of the student's home that only its owner
        # may enter
        cache = os.path.join(homes, name, ".cache", "minitorch-kernel", "jit")
        st = os.stat(cache)
        assert stat.S_IMODE(st.st_mode) == 0o700, f"{cache}: mode {oct(st.st_mode)}"
        units = [f for f in os.listdir(cache) if f.endswith(".so")]
        assert units, f"{name}: nothing compiled into {cache}"

        # no other student's token reaches this student's server
        other = seen[(seen.index(got) + 1) % len(seen)]
        r = requests.get(got["base"] + "/api/contents", headers=other["headers"], timeout=30,
                         allow_redirects=False)
        assert r.status_code in (302, 403), \
            f"{other['name']}'s token read {name}'s files: {r.status_code}"

    # nothing the class wrote lies outside the homes
    for dirpath, _, files in os.walk(hub["work"]):
        if dirpath.startswith(homes):
            continue
        strays = [f for f in files if f.endswith((".so", ".ipynb"))]
        assert not strays, f"{dirpath}: {strays}"
    found = [os.path.join(homes, n) for n in os.listdir(homes)]
    assert sorted(found) == sorted(os.path.join(homes, n) for n in names)

    for got in seen:
        r = requests.delete(hub["url"] + f"/hub/api/users/{got['name']}/server",
                            headers=hub["admin"], timeout=120)
        assert r.status_code in (202, 204), r.text
