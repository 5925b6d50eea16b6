"""The library never imports the classroom: ``memcourse.course`` is used by the course only.

A reader should be able to tell the memory library from the course's tooling by folder, and a
project that ships the library should not drag grading, widgets or scratch folders along.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "memcourse"
#: The only modules outside memcourse/course allowed to use the course tooling: the CLI front door.
ALLOWED = {PACKAGE / "cli.py"}


def _library_modules() -> list[Path]:
    return [
        path for path in sorted(PACKAGE.rglob("*.py"))
        if (PACKAGE / "course") not in path.parents and path not in ALLOWED
    ]


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_no_library_module_imports_the_course_tooling():
    offenders = {
        str(path.relative_to(PACKAGE.parent)): sorted(n for n in _imports(path) if n.startswith("memcourse.course"))
        for path in _library_modules()
    }
    offenders = {path: names for path, names in offenders.items() if names}
    assert _library_modules(), "found no library modules to check"
    assert not offenders, f"library modules must not import memcourse.course: {offenders}"


def test_old_tooling_paths_are_gone():
    for old in ("grading.py", "doctor.py", "scratch.py", "widgets"):
        assert not (PACKAGE / old).exists(), f"memcourse/{old} moved to memcourse/course/{old}"


def test_importing_the_library_loads_no_course_module():
    code = (
        "import sys, memcourse, memcourse.records, memcourse.policy, memcourse.stores.json_store; "
        "print(sorted(m for m in sys.modules if m.startswith('memcourse.course')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", f"importing the library pulled in course modules: {out.strip()}"


def test_display_path_is_relative_to_where_the_learner_is(tmp_path, monkeypatch):
    from memcourse.course.layout import display_path

    (tmp_path / "notebooks").mkdir()
    (tmp_path / "exercises").mkdir()
    monkeypatch.chdir(tmp_path / "notebooks")  # where a notebook's kernel runs
    assert display_path(tmp_path / "exercises") == "../exercises"
    monkeypatch.chdir(tmp_path)
    assert display_path(tmp_path / "exercises") == "exercises"
