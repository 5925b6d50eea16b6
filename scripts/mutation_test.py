"""Mutation testing for the graded exercises: do the graded tests catch plausible mistakes?

A graded test suite that passes on the reference solution proves little: it must also *fail*
on the wrong answers a learner is likely to write. This script writes those wrong answers
mechanically. For each exercise it parses ``solutions/exNN_<topic>.py``, makes one small change
at a time (a *mutant*), and runs that exercise's graded tests against it. A mutant the tests
reject is *killed*; one they accept *survived*: either the tests miss a real mistake (add a
test), or the change does not alter behaviour (an *equivalent* mutant: list it, with the
reason, in ``scripts/mutation_equivalent.json``).

    .venv/bin/python scripts/mutation_test.py                 # every exercise that has a solution
    .venv/bin/python scripts/mutation_test.py 07 10 --jobs 2  # just these
    .venv/bin/python scripts/mutation_test.py 07 --list       # show the mutants, run nothing

The mutations, each applied at one place (line and column) in a function body:

- comparisons flipped: ``<`` ↔ ``<=``, ``>`` ↔ ``>=``, ``<`` ↔ ``>``, ``==`` ↔ ``!=``,
  ``is`` ↔ ``is not``, ``in`` ↔ ``not in``;
- off-by-one constants: an int ``n`` becomes ``n + 1`` and ``n - 1``; a float ``x`` becomes
  ``x * 2`` and ``0``; a non-empty string becomes ``""``; ``True`` ↔ ``False``;
- arithmetic swapped: ``+`` ↔ ``-``, ``*`` ↔ ``/``, ``//`` → ``/``, ``**`` → ``*``,
  ``+=`` ↔ ``-=``; ``and`` ↔ ``or``; ``not x`` → ``x``; ``min`` ↔ ``max``; ``any`` ↔ ``all``;
- a slice bound ``a[:k]`` becomes ``a[:k + 1]`` and ``a[:k - 1]``;
- a statement removed (replaced by ``pass``), ``break`` ↔ ``continue``;
- the first two positional arguments of a call swapped; a keyword argument dropped
  (``encoding="utf-8"``, ``start=1``, ``dir=...``, ``ensure_ascii=False`` ...);
- a forgotten step: ``set(x)``/``list(x)``/``sorted(x)`` -> ``x``, ``x.strip()``/``.lower()``/
  ``.copy()``/``.flush()`` -> ``x``, ``-x`` -> ``x`` (a sort in the wrong direction);
- an ``except SomeError`` widened to ``except Exception``;
- a returned value replaced by ``None``, a returned pair swapped, and an ``if`` condition negated.

Mutants run in worker processes (``--jobs``), each with a temporary copy of the exercise (the
solution, the graded test file and its conftest): the worker installs one mutant at a time as
the solution module and runs pytest in-process on it, stopping at the first failure, with
Hypothesis seeded and ``EncodingWarning`` reported as ``memcourse grade`` does. A mutant that hangs past the
timeout counts as killed (a learner would see the test time out). Not part of the test suite:
it takes minutes; the documented figure and its survivors are in ``docs/mutation.md``.
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENT_FILE = Path(__file__).resolve().with_name("mutation_equivalent.json")

_FLIPS = {
    ast.Lt: (ast.LtE, ast.Gt), ast.LtE: (ast.Lt,), ast.Gt: (ast.GtE, ast.Lt), ast.GtE: (ast.Gt,),
    ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,), ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,),
    ast.In: (ast.NotIn,), ast.NotIn: (ast.In,),
}
_BINOPS = {ast.Add: (ast.Sub,), ast.Sub: (ast.Add,), ast.Mult: (ast.Div,), ast.Div: (ast.Mult,),
           ast.FloorDiv: (ast.Div,), ast.Pow: (ast.Mult,)}
_SWAP_NAMES = {"min": "max", "max": "min", "any": "all", "all": "any"}
#: ``f(x)`` -> ``x``: the de-duplication, copy or conversion a learner forgets.
_UNWRAP = {"set", "list", "sorted", "tuple", "frozenset", "dict"}
#: ``x.strip()`` -> ``x``: the normalisation or copy a learner forgets.
_METHODS_TO_DROP = {"strip", "lower", "copy", "casefold", "flush"}


@dataclass
class Mutant:
    exercise: str
    function: str
    line: int
    operator: str
    before: str
    after: str
    source: str  # the whole mutated module
    statement: str = ""  # the statement it happens in (first line), to tell equal changes apart

    @property
    def key(self) -> str:
        """Stable across unrelated edits: the function, the operator, the code it changes, and
        the statement it changes it in."""
        where = f" in `{self.statement}`" if self.statement and self.statement != self.before else ""
        return f"ex{self.exercise}:{self.function}:{self.operator}:{self.before} -> {self.after}{where}"


# -- making mutants ---------------------------------------------------------------------------
def _segment(node: ast.AST) -> str:
    return " ".join(ast.unparse(node).split())


class _Site:
    """One place a mutation can apply: how to change a fresh copy of the tree there."""

    def __init__(self, operator: str, path: tuple, change):
        self.operator, self.path, self.change = operator, path, change


def _walk_with_paths(node: ast.AST, path: tuple = ()):
    yield path, node
    for field, value in ast.iter_fields(node):
        if isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, ast.AST):
                    yield from _walk_with_paths(item, path + ((field, index),))
        elif isinstance(value, ast.AST):
            yield from _walk_with_paths(value, path + ((field, None),))


def _resolve(tree: ast.AST, path: tuple) -> ast.AST:
    node = tree
    for field, index in path:
        node = getattr(node, field) if index is None else getattr(node, field)[index]
    return node


def _replace(tree: ast.AST, path: tuple, new: ast.AST) -> None:
    parent = _resolve(tree, path[:-1])
    field, index = path[-1]
    if index is None:
        setattr(parent, field, new)
    else:
        getattr(parent, field)[index] = new


def _is_docstring(path: tuple, tree: ast.AST) -> bool:
    if len(path) < 2 or path[-1] != ("value", None):
        return False
    statement = _resolve(tree, path[:-1])
    return isinstance(statement, ast.Expr)


def mutation_sites(tree: ast.Module) -> list[tuple[str, tuple, str, callable]]:
    """``(operator, path, function name, change)`` for every mutation this module allows;
    ``change(node)`` returns the replacement node(s) for the node at ``path``."""
    sites = []
    for top_index, top in enumerate(tree.body):
        if not isinstance(top, ast.FunctionDef):
            continue
        function = top.name
        # Only the body: the signature (defaults, annotations) is given by the exercise.
        walked = [
            ((("body", top_index), ("body", i)) + sub_path, node)
            for i, statement in enumerate(top.body)
            for sub_path, node in _walk_with_paths(statement)
        ]
        for path, node in walked:
            if ("annotation", None) in path or ("returns", None) in path:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and _inside(tree, path, ast.Raise):
                continue  # an error message's wording is not behaviour the exercise specifies
            if isinstance(node, ast.Compare):
                for i, op in enumerate(node.ops):
                    for new_op in _FLIPS.get(type(op), ()):
                        sites.append(("compare", path, function, _compare_change(i, new_op)))
            elif (
                isinstance(node, ast.Constant) and not _is_docstring(path, tree) and not _in_fstring_format(tree, path)
            ):
                value = node.value
                if isinstance(value, bool):
                    sites.append(("constant", path, function, _const(not value)))
                elif isinstance(value, int):
                    sites.append(("constant", path, function, _const(value + 1)))
                    sites.append(("constant", path, function, _const(value - 1)))
                elif isinstance(value, float):
                    sites.append(("constant", path, function, _const(value * 2 if value else 1.0)))
                    if value:
                        sites.append(("constant", path, function, _const(0.0)))
                elif isinstance(value, str) and value and not _inside(tree, path, ast.JoinedStr):
                    sites.append(("constant", path, function, _const("")))
            elif isinstance(node, ast.BinOp):
                for new_op in _BINOPS.get(type(node.op), ()):
                    sites.append(("arithmetic", path, function, _binop(new_op)))
            elif isinstance(node, ast.AugAssign) and type(node.op) in (ast.Add, ast.Sub):
                sites.append(
                    ("arithmetic", path, function, _augassign(ast.Sub if isinstance(node.op, ast.Add) else ast.Add))
                )
            elif isinstance(node, ast.BoolOp):
                sites.append(("boolean", path, function, _boolop(ast.Or if isinstance(node.op, ast.And) else ast.And)))
            elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                sites.append(("boolean", path, function, lambda n: copy.deepcopy(n.operand)))
            elif isinstance(node, ast.Name) and node.id in _SWAP_NAMES and isinstance(node.ctx, ast.Load):
                sites.append(("builtin", path, function, _rename(_SWAP_NAMES[node.id])))
            elif isinstance(node, ast.Slice):
                for bound in ("lower", "upper"):
                    if getattr(node, bound) is not None:
                        for delta in (1, -1):
                            sites.append(("slice", path, function, _slice(bound, delta)))
            elif isinstance(node, ast.Call):
                if len(node.args) >= 2 and not any(isinstance(a, ast.Starred) for a in node.args[:2]):
                    sites.append(("arguments", path, function, _swap_args))
                for index, keyword in enumerate(node.keywords):
                    if keyword.arg is not None:
                        sites.append(("keyword", path, function, _drop_keyword(index)))
                if (
                    isinstance(node.func, ast.Name)
                    and node.func.id in _UNWRAP
                    and len(node.args) == 1
                    and not node.keywords
                ):
                    sites.append(("unwrap", path, function, lambda n: copy.deepcopy(n.args[0])))
                if (isinstance(node.func, ast.Attribute) and node.func.attr in _METHODS_TO_DROP
                        and not node.args and not node.keywords):
                    sites.append(("unwrap", path, function, lambda n: copy.deepcopy(n.func.value)))
            elif (
                isinstance(node, ast.UnaryOp)
                and isinstance(node.op, ast.USub)
                and not isinstance(node.operand, ast.Constant)
            ):
                sites.append(("arithmetic", path, function, lambda n: copy.deepcopy(n.operand)))
            elif isinstance(node, ast.ExceptHandler) and node.type is not None:
                sites.append(
                    ("except", path, function, lambda n: _with(n, type=ast.Name(id="Exception", ctx=ast.Load())))
                )
            elif (
                isinstance(node, ast.Tuple)
                and len(node.elts) == 2
                and isinstance(_resolve(tree, path[:-1]), ast.Return)
            ):
                sites.append(
                    (
                        "return",
                        path,
                        function,
                        lambda n: _with(n, elts=[copy.deepcopy(n.elts[1]), copy.deepcopy(n.elts[0])]),
                    )
                )
            elif isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None
            ):
                sites.append(("return", path, function, lambda n: ast.Return(value=ast.Constant(None))))
            elif isinstance(node, ast.Break):
                sites.append(("statement", path, function, lambda n: ast.Continue()))
            elif isinstance(node, ast.Continue):
                sites.append(("statement", path, function, lambda n: ast.Break()))
            if isinstance(node, ast.If):
                sites.append(("condition", path, function,
                              lambda n: _with(n, test=ast.UnaryOp(op=ast.Not(), operand=copy.deepcopy(n.test)))))
            if isinstance(node, ast.stmt) and _removable(tree, path, node):
                sites.append(("statement", path, function, lambda n: ast.Pass()))
    return sites


def _inside(tree: ast.AST, path: tuple, kind: type) -> bool:
    return any(isinstance(_resolve(tree, path[:i]), kind) for i in range(1, len(path)))


def _in_fstring_format(tree: ast.AST, path: tuple) -> bool:
    return any(isinstance(_resolve(tree, path[:i]), ast.FormattedValue) for i in range(1, len(path)))


def _removable(tree: ast.AST, path: tuple, node: ast.stmt) -> bool:
    if isinstance(node, (ast.FunctionDef, ast.Pass, ast.Return, ast.Raise, ast.Break, ast.Continue)):
        return False
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return False  # a docstring
    field, index = path[-1]
    siblings = getattr(_resolve(tree, path[:-1]), field)
    return isinstance(siblings, list) and len(siblings) > 1


def _with(node: ast.AST, **fields) -> ast.AST:
    new = copy.deepcopy(node)
    for name, value in fields.items():
        setattr(new, name, value)
    return new


def _compare_change(index: int, new_op: type):
    def change(node: ast.Compare) -> ast.AST:
        new = copy.deepcopy(node)
        new.ops[index] = new_op()
        return new
    return change


def _const(value):
    return lambda node: ast.Constant(value)


def _binop(new_op: type):
    return lambda node: _with(node, op=new_op())


def _augassign(new_op: type):
    return lambda node: _with(node, op=new_op())


def _boolop(new_op: type):
    return lambda node: _with(node, op=new_op())


def _rename(name: str):
    return lambda node: ast.Name(id=name, ctx=ast.Load())


def _slice(bound: str, delta: int):
    def change(node: ast.Slice) -> ast.AST:
        old = getattr(node, bound)
        op = ast.Add() if delta > 0 else ast.Sub()
        return _with(node, **{bound: ast.BinOp(left=copy.deepcopy(old), op=op, right=ast.Constant(1))})
    return change


def _drop_keyword(index: int):
    def change(node: ast.Call) -> ast.AST:
        new = copy.deepcopy(node)
        del new.keywords[index]
        return new
    return change


def _swap_args(node: ast.Call) -> ast.AST:
    new = copy.deepcopy(node)
    new.args[0], new.args[1] = new.args[1], new.args[0]
    return new


def _statement(tree: ast.AST, path: tuple) -> str:
    """The innermost statement holding ``path``, as its first line of code (at most 70 chars)."""
    for i in range(len(path), 0, -1):
        node = _resolve(tree, path[:i])
        if isinstance(node, ast.stmt):
            text = ast.unparse(node).splitlines()[0]
            return text if len(text) <= 70 else text[:69] + "…"
    return ""


def make_mutants(exercise: str, source: str) -> list[Mutant]:
    tree = ast.parse(source)
    original = ast.unparse(tree)
    mutants, seen = [], set()
    for operator, path, function, change in mutation_sites(tree):
        mutated_tree = ast.parse(source)
        node = _resolve(mutated_tree, path)
        before = _segment(node)
        new = change(node)
        _replace(mutated_tree, path, new)
        ast.fix_missing_locations(mutated_tree)
        try:
            mutated = ast.unparse(mutated_tree)
            compile(mutated, "<mutant>", "exec")
        except (SyntaxError, ValueError, TypeError):
            continue
        after = _segment(new)
        if mutated == original or (function, before, after, getattr(node, "lineno", 0)) in seen:
            continue
        seen.add((function, before, after, getattr(node, "lineno", 0)))
        mutants.append(Mutant(exercise, function, getattr(node, "lineno", 0), operator, before, after, mutated,
                              _statement(ast.parse(source), path)))
    return mutants


# -- running them -----------------------------------------------------------------------------
def exercise_files(number: str) -> tuple[Path, Path]:
    solutions = sorted((ROOT / "solutions").glob(f"ex{number}_*.py"))
    if not solutions:
        raise SystemExit(f"no solutions/ex{number}_*.py")
    solution = solutions[0]
    test = ROOT / "tests" / "graded" / f"test_{solution.stem}.py"
    if not test.exists():
        raise SystemExit(f"no graded tests for {solution.name}: {test}")
    return solution, test


def _course_copy(root: Path, solution: Path, test: Path) -> Path:
    """A minimal course folder: the solutions package, the graded test file and its conftest."""
    (root / "solutions").mkdir(parents=True)
    (root / "solutions" / "__init__.py").write_text("", encoding="utf-8")
    (root / "solutions" / solution.name).write_text(solution.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "tests" / "graded").mkdir(parents=True)
    shutil.copy(test.parent / "conftest.py", root / "tests" / "graded" / "conftest.py")
    shutil.copy(test, root / "tests" / "graded" / test.name)
    return root


def run_batch(sources: list[str], solution: Path, test: Path, *, timeout: float) -> list[tuple[bool, str]]:
    """Run the graded tests once per source, in one worker process (pytest started once, the
    library imported once): ``[(passed, summary), ...]``. A worker that dies or hangs marks
    the sources it had not finished as killed."""
    with tempfile.TemporaryDirectory(prefix="memcourse-mutants-") as tmp:
        root = _course_copy(Path(tmp) / "course", solution, test)
        batch = Path(tmp) / "batch.json"
        out = Path(tmp) / "results.json"
        batch.write_text(json.dumps({"sources": sources, "module": solution.stem, "test": test.name,
                                     "root": str(root), "timeout": timeout, "out": str(out)}), encoding="utf-8")
        env = dict(os.environ, MEMCOURSE_TARGET="solutions", PYTHONDONTWRITEBYTECODE="1", PYTHONWARNDEFAULTENCODING="1")
        env.pop("PYTEST_ADDOPTS", None)
        try:
            subprocess.run([sys.executable, "-X", "warn_default_encoding", __file__, "--worker", str(batch)],
                           cwd=root, env=env, capture_output=True, text=True,
                           timeout=(timeout + 30) * max(1, len(sources)))
        except subprocess.TimeoutExpired:
            pass
        done = json.loads(out.read_text(encoding="utf-8")) if out.exists() else []
        return [tuple(item) for item in done] + [(False, "worker stopped")] * (len(sources) - len(done))


def _worker(batch_file: str) -> int:
    """Inside the worker: install each mutant as the solution module, run pytest in-process."""
    import types

    import pytest

    job = json.loads(Path(batch_file).read_text(encoding="utf-8"))
    root, module = Path(job["root"]), job["module"]
    sys.path.insert(0, str(root))
    import solutions  # noqa: F401  (the package the graded conftest imports from)

    name = f"solutions.{module}"
    path = root / "solutions" / f"{module}.py"
    test = root / "tests" / "graded" / job["test"]
    results = []
    keep = set(sys.modules)
    for source in job["sources"]:
        path.write_text(source, encoding="utf-8")  # for tests that import it in a child process
        mutant = types.ModuleType(name)
        mutant.__file__ = str(path)
        try:
            exec(compile(source, str(path), "exec"), mutant.__dict__)
        except Exception as error:  # the mutant does not even import: killed
            results.append((False, f"import: {type(error).__name__}"))
            Path(job["out"]).write_text(json.dumps(results), encoding="utf-8")
            continue
        sys.modules[name] = mutant
        setattr(sys.modules["solutions"], module, mutant)
        code = pytest.main([str(test), "-x", "-q", "--no-header", "-p", "no:cacheprovider", "-p", "no:nbval",
                            "-o", "addopts=", "-o", f"timeout={int(job['timeout'])}", "--target=solutions",
                            "--hypothesis-seed=0", "-W", "ignore::pytest.PytestAssertRewriteWarning"])
        results.append((code == 0, f"pytest exit {int(code)}"))
        for loaded in set(sys.modules) - keep:  # forget the test modules and conftest between runs
            if "test_ex" in loaded or loaded.endswith("conftest"):
                del sys.modules[loaded]
        Path(job["out"]).write_text(json.dumps(results), encoding="utf-8")
    return 0


def load_equivalents() -> dict[str, str]:
    if not EQUIVALENT_FILE.exists():
        return {}
    return {entry["key"]: entry["why"] for entry in json.loads(EQUIVALENT_FILE.read_text(encoding="utf-8"))}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        return _worker(argv[1])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("numbers", nargs="*", help="exercise numbers (default: every exercise with a solution)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="mutants run in parallel")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per mutant before it counts as killed")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--json", type=Path, default=None, help="also write every result to this JSON file")
    args = parser.parse_args(argv)

    numbers = [f"{int(n):02d}" for n in args.numbers] or sorted(
        re.match(r"ex(\d{2})_", p.name).group(1) for p in (ROOT / "solutions").glob("ex[0-9][0-9]_*.py"))
    equivalents = load_equivalents()
    results, totals = [], {"killed": 0, "survived": 0, "equivalent": 0}
    for number in numbers:
        solution, test = exercise_files(number)
        source = solution.read_text(encoding="utf-8")
        mutants = make_mutants(number, source)
        if args.list:
            for mutant in mutants:
                print(f"{mutant.key}  (line {mutant.line})")
            continue
        ((passed, summary),) = run_batch([source], solution, test, timeout=args.timeout)
        if not passed:
            print(f"ex{number}: the graded tests fail on the unmutated solution ({summary}); skipped", flush=True)
            continue
        started = time.perf_counter()
        jobs = max(1, min(args.jobs, len(mutants)))
        chunks = [mutants[i::jobs] for i in range(jobs)]
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            batch = partial(run_batch, solution=solution, test=test, timeout=args.timeout)
            parts = list(pool.map(batch, [[m.source for m in chunk] for chunk in chunks]))
        by_key = {}
        for chunk, part in zip(chunks, parts, strict=True):
            by_key.update({id(m): outcome for m, outcome in zip(chunk, part, strict=True)})
        outcomes = [by_key[id(m)] for m in mutants]
        counts = {"killed": 0, "survived": 0, "equivalent": 0}
        survivors = []
        for mutant, (survived, summary) in zip(mutants, outcomes, strict=True):
            status = "killed" if not survived else ("equivalent" if mutant.key in equivalents else "survived")
            counts[status] += 1
            results.append({"key": mutant.key, "line": mutant.line, "status": status, "summary": summary})
            if status != "killed":
                survivors.append((status, mutant))
        for name in counts:
            totals[name] += counts[name]
        scored = counts["killed"] + counts["survived"]
        score = 100 * counts["killed"] / scored if scored else 100.0
        print(f"ex{number}: {counts['killed']}/{scored} non-equivalent mutants killed ({score:.1f} %), "
              f"{counts['equivalent']} equivalent, {len(mutants)} in all, {time.perf_counter() - started:.0f} "
              f"s", flush=True)
        for status, mutant in survivors:
            note = f"  [equivalent: {equivalents[mutant.key]}]" if status == "equivalent" else ""
            print(f"    {status:<10} line {mutant.line:>3}  {mutant.key}{note}", flush=True)
    if args.list:
        return 0
    scored = totals["killed"] + totals["survived"]
    score = 100 * totals["killed"] / scored if scored else 100.0
    print(f"\nall: {totals['killed']}/{scored} non-equivalent mutants killed ({score:.1f} %), "
          f"{totals['equivalent']} equivalent")
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=2), encoding="utf-8")
    return 0 if totals["survived"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
