"""The package's layout holds its shape: layers, module size, no import cycles.

Read from the source with ``ast`` (nothing is imported), so the checks are fast and see every
module, including those whose dependencies are optional.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "memcourse"
MAX_LINES = 450
#: The one module outside memcourse.course allowed to import it: the ``memcourse`` command,
#: which hosts the classroom's subcommands (grade, hint, doctor) and imports them when they run.
CLASSROOM_HOSTS = {"memcourse.cli"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path, *, module_level_only: bool) -> set[str]:
    """The memcourse modules ``name`` imports (``from memcourse.x import y`` counts
    ``memcourse.x.y`` when that is a module, else ``memcourse.x``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if module_level_only else list(ast.walk(tree))
    if module_level_only:  # also imports under a module-level ``if``/``try`` (not TYPE_CHECKING)
        nodes = []
        for node in tree.body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            nodes += [node] if not isinstance(node, (ast.If, ast.Try)) else list(ast.walk(node))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULES else base)
    return {m for m in found if m == "memcourse" or m.startswith("memcourse.")}


def test_the_layout_sees_the_whole_package():
    assert {"memcourse", "memcourse.policy", "memcourse.course.grading", "memcourse.evaluations.recall"} <= set(MODULES)


@pytest.mark.parametrize(
    "name", [n for n in MODULES if not n.startswith("memcourse.course") and n not in CLASSROOM_HOSTS]
)
def test_the_library_never_imports_the_classroom(name):
    """The library works without the course: nothing outside memcourse.course imports it,
    not even inside a function."""
    classroom = {m for m in imported(name, MODULES[name], module_level_only=False)
                 if m == "memcourse.course" or m.startswith("memcourse.course.")}
    assert not classroom, f"{name} imports {sorted(classroom)}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_is_over_the_size_limit(name):
    lines = len(MODULES[name].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{MODULES[name].relative_to(PACKAGE.parent)} has {lines} lines; split it by idea"


def test_no_import_cycle_among_module_level_imports():
    graph = {name: {m for m in imported(name, path, module_level_only=True) if m in MODULES and m != name}
             for name, path in MODULES.items()}
    cycles, state = [], {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = "done"

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_cycle_check_finds_a_cycle(tmp_path, monkeypatch):
    """The checker itself: two modules importing each other are reported."""
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("import memcourse.b\n", encoding="utf-8")
    b.write_text("from memcourse import a\n", encoding="utf-8")
    monkeypatch.setitem(MODULES, "memcourse.a", a)
    monkeypatch.setitem(MODULES, "memcourse.b", b)
    assert "memcourse.b" in imported("memcourse.a", a, module_level_only=True)
    assert "memcourse.a" in imported("memcourse.b", b, module_level_only=True)
    with pytest.raises(AssertionError, match="memcourse.a -> memcourse.b -> memcourse.a|memcourse.b -> memcourse.a -> "
                                             "memcourse.b"):
        test_no_import_cycle_among_module_level_imports()


def test_every_package_directory_has_an_init():
    """A folder of modules without ``__init__.py`` imports in a checkout (a namespace package)
    but is left out of the built wheel by package discovery."""
    folders = {path.parent for path in PACKAGE.rglob("*.py")}
    missing = sorted(str(f.relative_to(PACKAGE.parent)) for f in folders if not (f / "__init__.py").exists())
    assert not missing, f"no __init__.py in {missing}"
