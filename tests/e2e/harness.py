"""Run a real JupyterLab and a real headless Chromium, and clean both up.

A widget that passes its unit tests can still fail where a learner sees it: a JupyterLab /
ipywidgets version mismatch shows "Error displaying widget", a callback exception only goes to
a log. These helpers let a test look at the page the way a learner would.

Everything is bounded in time and stopped by process id: the server in its own process group,
the browser by Playwright, and every kernel through the server's API before it stops.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


class HarnessError(RuntimeError):
    """The browser or the server could not be started: a setup problem, said plainly."""


def find_chromium() -> str:
    candidates = [os.environ.get("MEMCOURSE_CHROMIUM"), shutil.which("chromium"), shutil.which("chromium-browser"),
                  shutil.which("google-chrome")]
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            return candidate
    raise HarnessError(
        "no Chromium found. Install Debian's package (`apt-get install chromium`; `make test` does this "
        "when run as root) or set MEMCOURSE_CHROMIUM=/path/to/chrome"
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class JupyterLab:
    """A JupyterLab server on a free loopback port, token-protected, rooted in ``root``."""

    def __init__(self, root: Path, *, startup_timeout: float = 60.0, settings: dict[str, dict] | None = None):
        self.root = root
        self.settings = settings or {}  # e.g. {"@jupyterlab/notebook-extension/tracker": {...}}
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.startup_timeout = startup_timeout
        self.process: subprocess.Popen | None = None
        self.log_path = root.parent / "jupyterlab.log"

    def start(self) -> None:
        home = self.root.parent / "jupyter-home"
        settings = home / "lab-settings"
        # No "would you like news?" toast over the widgets we screenshot.
        notification = settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
        notification.parent.mkdir(parents=True, exist_ok=True)
        notification.write_text('{"fetchNews": "false", "checkForUpdates": false}')
        for plugin, values in self.settings.items():
            path = settings / f"{plugin}.jupyterlab-settings"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))
        env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
                   JUPYTER_RUNTIME_DIR=str(home / "runtime"), IPYTHONDIR=str(home / "ipython"),
                   JUPYTERLAB_SETTINGS_DIR=str(settings), JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
                   JUPYTER_PLATFORM_DIRS="1")
        # JupyterLab must still find the ipywidgets front-end that pip installed into this environment.
        env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(Path(sys.prefix) / "share" / "jupyter"),
                                                            os.environ.get("JUPYTER_PATH")]))
        command = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            "--ServerApp.port_retries=0",
            "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-root")  # CI machines run as root
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(command, cwd=self.root, env=env, stdout=self._log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise HarnessError(f"JupyterLab exited with code {self.process.returncode}:\n{self.log_tail()}")
            try:
                self.api("GET", "/api/status")
                return
            except OSError:
                time.sleep(0.3)
        raise HarnessError(f"JupyterLab did not answer within {self.startup_timeout:.0f}s:\n{self.log_tail()}")

    def api(self, method: str, path: str) -> object:
        request = urllib.request.Request(f"{self.url}{path}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=5) as response:
            body = response.read()
        return json.loads(body) if body else None

    def kernels(self) -> list[dict]:
        return list(self.api("GET", "/api/kernels"))  # type: ignore[arg-type]

    def stop(self) -> None:
        """Shut every kernel down through the API, then stop the server's whole process group."""
        if self.process is None:
            return
        try:
            for kernel in self.kernels():
                self.api("DELETE", f"/api/kernels/{kernel['id']}")
        except OSError:
            pass
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)
        self._log.close()

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/tree/{name}?token={self.token}&reset"


@contextmanager
def jupyterlab(root: Path, *, settings: dict[str, dict] | None = None) -> Iterator[JupyterLab]:
    server = JupyterLab(root, settings=settings)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@contextmanager
def chromium_page(artifacts: Path) -> Iterator[object]:
    """A Playwright page in Debian's Chromium, with a fresh profile; closed whatever happens."""
    from playwright.sync_api import sync_playwright

    executable = find_chromium()
    profile = artifacts / "chromium-profile"
    shutil.rmtree(profile, ignore_errors=True)
    with sync_playwright() as playwright:
        try:
            context = playwright.chromium.launch_persistent_context(
                str(profile), executable_path=executable, headless=True, args=CHROMIUM_FLAGS,
                viewport={"width": 1400, "height": 1000}, timeout=60_000,
            )
        except Exception as error:
            raise HarnessError(f"Chromium at {executable} did not start: {error}") from None
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.set_default_timeout(60_000)
            yield page
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


def open_and_run_notebook(page, server: JupyterLab, name: str, *, timeout_ms: int = 300_000) -> None:
    """Open a notebook in JupyterLab, accept the kernel, run all cells, wait until idle."""
    page.goto(server.notebook_url(name))
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=timeout_ms)
    # JupyterLab may ask which kernel to use (the notebook's own is preselected), or start it
    # without asking: wait for whichever comes first, instead of a fixed wait for a dialog that
    # usually never comes (it cost five seconds per notebook).
    page.wait_for_function(
        """() => document.querySelector('.jp-Dialog button.jp-mod-accept') !== null
                 || /\\bIdle\\b/.test(document.querySelector('#jp-main-statusbar')?.innerText ?? '')""",
        timeout=timeout_ms,
    )
    accept = page.locator(".jp-Dialog button.jp-mod-accept")
    if accept.count():
        accept.first.click()
    page.wait_for_selector("#jp-main-statusbar >> text=Idle", timeout=timeout_ms)
    page.click("#jp-MainMenu >> text=Run")
    # The menu item itself: a notebook's own text may say "Run All Cells" too (notebook 00 does).
    page.click('.lm-Menu-content .lm-Menu-itemLabel:text-is("Run All Cells")')
    # The notebook was served without outputs, so every code cell shows "[ ]:" until it has run.
    page.wait_for_function(
        """() => [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]
                 .every(p => /\\[\\d+\\]/.test(p.textContent))""",
        timeout=timeout_ms,
    )
    page.wait_for_selector("#jp-main-statusbar >> text=Idle", timeout=timeout_ms)


def widget_errors(page) -> list[str]:
    """Texts of any "Error displaying widget" placeholders on the page."""
    return page.eval_on_selector_all(
        ".jp-OutputArea-output", "els => els.map(e => e.innerText).filter(t => t.includes('Error displaying widget'))"
    )


def copy_without_outputs(source: Path, target: Path) -> None:
    """Serve a clean copy: outputs and execution counts cleared, so a run is visible as such."""
    import nbformat

    notebook = nbformat.read(source, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nbformat.write(notebook, target)


def open_widget(page, server: JupyterLab, notebook: str, css_class: str):
    """Run ``notebook`` in the browser and return its first widget with ``css_class``, scrolled
    into view, after checking that no widget on the page failed to display."""
    open_and_run_notebook(page, server, notebook)
    widget = page.locator(f".{css_class}").first
    widget.wait_for(timeout=30_000)
    widget.scroll_into_view_if_needed()
    assert widget_errors(page) == [], "a widget shows 'Error displaying widget'"
    return widget


def course_copy(folder: Path, notebooks: Path) -> Path:
    """A clean copy of every course notebook in ``notebooks``, served from ``folder/course``."""
    root = folder / "course"
    root.mkdir()
    for notebook in sorted(notebooks.glob("*.ipynb")):
        copy_without_outputs(notebook, root / notebook.name)
    return root


def notebook_with(call: str, notebooks: Path) -> str:
    """The notebook whose code builds a widget with ``call`` (material moves between notebooks)."""
    import nbformat

    found = [
        path.name for path in sorted(notebooks.glob("[0-9][0-9]_*.ipynb"))
        if any(cell.cell_type == "code" and f"{call}(" in cell.source
               for cell in nbformat.read(path, as_version=4).cells)
    ]
    assert found, f"no notebook builds {call}()"
    return found[0]

