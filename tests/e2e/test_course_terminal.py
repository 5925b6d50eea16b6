"""`make course`: a terminal opened in the course's JupyterLab finds `memcourse` and `python`
from .venv, even when the user's own PATH does not have them (the notebooks tell learners to
run `memcourse grade NN` there); and the first page shows notebook 00 with the file browser on
the course folder.

The test starts JupyterLab the way a learner does, through the Makefile, with a bare PATH and
no tty (the case where JupyterLab would otherwise run a login shell that resets PATH), opens a
terminal over the server's API and asks the shell where the commands are.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from .harness import free_port

REPO = Path(__file__).resolve().parents[2]
VENV_BIN = REPO / ".venv" / "bin"

pytestmark = pytest.mark.timeout(180)


def _api(url: str, token: str, method: str, path: str) -> object:
    request = urllib.request.Request(f"{url}{path}", method=method, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        body = response.read()
    return json.loads(body) if body else None


async def _run_in_terminal(ws_url: str, command: str, marker: str, timeout: float) -> str:
    from tornado.websocket import websocket_connect

    connection = await websocket_connect(ws_url)
    try:
        connection.write_message(json.dumps(["stdin", command + "\r"]))
        seen = ""
        deadline = time.monotonic() + timeout
        while marker not in seen.split(command)[-1] and time.monotonic() < deadline:
            message = await asyncio.wait_for(connection.read_message(), timeout=max(0.1, deadline - time.monotonic()))
            if message is None:
                break
            kind, *payload = json.loads(message)
            if kind == "stdout":
                seen += "".join(payload)
        return seen
    finally:
        connection.close()


def _first_page_shows_notebook_00_and_the_course_folder(url: str, token: str, tmp_path: Path) -> None:
    """The first page a learner sees: notebook 00 open, and the file browser on the course folder,
    where notebook 00 tells them to double-click exercises/ (JupyterLab would otherwise show the
    notebook's own folder, notebooks/)."""
    from .harness import chromium_page

    with chromium_page(tmp_path / "browser") as page:
        page.goto(f"{url}/?token={token}")
        page.wait_for_selector(".jp-DirListing-item", timeout=60_000)
        page.wait_for_selector(".lm-TabBar-tabLabel:has-text('00_start_here.ipynb')", timeout=60_000)
        names = page.locator(".jp-DirListing-item .jp-DirListing-itemName").all_inner_texts()
        assert {"exercises", "notebooks", "docs", "memcourse"} <= set(names), names


def test_make_course_terminals_find_memcourse_and_python_from_the_venv(tmp_path):
    port, token = free_port(), secrets.token_hex(16)
    home = tmp_path / "jupyter-home"
    env = {
        "PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "SHELL": "/bin/sh", "LANG": "C.UTF-8",
        "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"), "JUPYTER_PLATFORM_DIRS": "1",
    }
    lab_args = (f"--no-browser --ip=127.0.0.1 --port={port} --ServerApp.port_retries=0 "
                f"--IdentityProvider.token={token} --LabApp.news_url=")
    log = (tmp_path / "lab.log").open("wb")
    # -o: never reinstall here, even if pyproject.toml is newer than the install stamp.
    server = subprocess.Popen(["make", "-o", ".venv/.memcourse-installed", "course", f"LAB_ARGS={lab_args}"],
                              cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, (tmp_path / "lab.log").read_text(errors="replace")[-3000:]
            try:
                _api(url, token, "GET", "/api/status")
                break
            except OSError:
                assert time.monotonic() < deadline, "JupyterLab did not start from make course"
                time.sleep(0.3)
        name = _api(url, token, "POST", "/api/terminals")["name"]
        ws_url = f"ws://127.0.0.1:{port}/terminals/websocket/{name}?token={token}"
        command = "echo WHERE $(command -v memcourse) $(command -v python) END"
        output = asyncio.run(_run_in_terminal(ws_url, command, " END", timeout=30))
        answer = output.split(command)[-1]
        line = next((row for row in answer.splitlines() if "WHERE" in row), answer)
        assert f"{VENV_BIN}/memcourse" in line, f"memcourse not found from .venv in a course terminal: {line!r}"
        assert f"{VENV_BIN}/python" in line, f"python is not the .venv's in a course terminal: {line!r}"
        _api(url, token, "DELETE", f"/api/terminals/{name}")
        _first_page_shows_notebook_00_and_the_course_folder(url, token, tmp_path)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=5)
        log.close()
