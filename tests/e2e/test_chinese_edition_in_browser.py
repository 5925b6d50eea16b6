"""The Chinese edition as a Chinese learner sees it: a notebook of notebooks/zh/ in a real
JupyterLab and Chromium, its kernel started with MEMCOURSE_LANG=zh (as `make course-zh` does),
and its policy-gate widget worked by typing.

What it proves beyond the English browser test: the built notebook opens and runs (the same
code as the English one, which tests/test_zh_edition.py checks byte for byte), its prose is the
translation, and the widget's labels, result table and empty state come out in Chinese while
its hooks (CSS classes, data-verdict, data-rule) stay English.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .harness import chromium_page, copy_without_outputs, jupyterlab, open_widget, widget_errors

REPO = Path(__file__).resolve().parents[2]
ZH = REPO / "notebooks" / "zh"
ARTIFACTS = REPO / "test-artifacts" / "browser-zh"

pytestmark = pytest.mark.timeout(300)


def zh_notebook_with(call: str) -> Path:
    """The Chinese notebook whose code builds a widget with ``call`` (from the English edition:
    the Chinese one must exist for it, built by scripts/build_zh.py)."""
    english = [path for path in sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
               if any(cell["cell_type"] == "code" and f"{call}(" in "".join(cell["source"])
                      for cell in json.loads(path.read_text(encoding="utf-8"))["cells"])]
    assert english, f"no notebook builds {call}()"
    chinese = ZH / english[0].name
    assert chinese.is_file(), (f"notebooks/zh/{english[0].name} is not built yet: translate it into "
                               f"notebooks/translations/zh/{english[0].stem}.json and run scripts/build_zh.py")
    return chinese


def _rendered_text(locator, timeout: float = 20.0) -> str:
    """The element's text once it is laid out: JupyterLab renders only the cells in view, and an
    element out of view reads as '' (a clean-clone run read the decision that way)."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        locator.scroll_into_view_if_needed()
        text = locator.inner_text()
        if text.strip() or time.monotonic() > deadline:
            return text
        time.sleep(0.2)


def test_chinese_policy_widget_in_the_browser(tmp_path, monkeypatch):
    notebook = zh_notebook_with("policy_widget")
    root = tmp_path / "course" / "zh"
    root.mkdir(parents=True)
    copy_without_outputs(notebook, root / notebook.name)
    heading = json.loads(notebook.read_text(encoding="utf-8"))["cells"][0]["source"][0].lstrip("# ").strip()
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    monkeypatch.setenv("MEMCOURSE_LANG", "zh")  # the server's environment, hence the kernel's
    with jupyterlab(root.parent) as server, chromium_page(ARTIFACTS) as page:
        widget = open_widget(page, server, f"zh/{notebook.name}", "memcourse-policy-widget")
        page.locator(".jp-Notebook .jp-Cell").first.scroll_into_view_if_needed()  # Lab renders cells in view
        page.locator(".jp-MarkdownOutput h1", has_text=heading).first.wait_for(timeout=20_000)  # the translation
        widget.scroll_into_view_if_needed()

        labels = widget.locator(".widget-label").evaluate_all("els => els.map(e => e.textContent)")
        assert {"消息", "来源", "置信度"} <= {label.strip() for label in labels}, labels
        decision = widget.locator(".memcourse-policy-result .memcourse-decision")
        # the notebook opens the widget with a preference; wait for its decision to render
        widget.locator('.memcourse-decision[data-verdict="WRITE"][data-rule="preference"]').wait_for(timeout=20_000)
        initial = _rendered_text(decision)
        assert "规则" in initial and "主题" in initial and "来源：user_stated" in initial, initial

        widget.locator(".memcourse-policy-input textarea").fill("记住我的 API key 是 sk-test-secret。")
        widget.locator('.memcourse-decision[data-verdict="SKIP"][data-rule="secret"]').wait_for(timeout=20_000)
        text = _rendered_text(decision)
        assert "规则" in text and "理由" in text and "sk-test-secret" not in text, text
        widget.screenshot(path=str(ARTIFACTS / "policy-zh-secret.png"))

        widget.locator(".memcourse-policy-input textarea").fill("")
        widget.get_by_text("输入一条消息，看写入门如何决定。").wait_for(timeout=20_000)
        page.screenshot(path=str(ARTIFACTS / "policy-zh-notebook.png"), full_page=True)
        assert widget_errors(page) == []
