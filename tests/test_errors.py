"""One exception tree: every error class memcourse defines descends from MemcourseError and is
drawn in memcourse.errors' docstring."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import memcourse.errors
from memcourse.errors import MemcourseError

PACKAGE = Path(memcourse.errors.__file__).resolve().parent


def defined_exceptions() -> list[tuple[str, str]]:
    """(module, class) for every class in memcourse whose name ends in Error or Refused."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if (
                isinstance(node, ast.ClassDef)
                and node.name.endswith(("Error", "Refused"))
                and node.name != "MemcourseError"
            ):
                found.append((module, node.name))
    return found


def test_the_search_finds_the_known_errors():
    names = {name for _, name in defined_exceptions()}
    assert {"StoreError", "LLMError", "ReplyError", "WriteRefused", "CourseError"} <= names


@pytest.mark.parametrize(("module", "name"), defined_exceptions())
def test_every_error_is_a_memcourse_error_and_is_drawn(module, name):
    cls = getattr(importlib.import_module(module), name)
    assert issubclass(cls, MemcourseError), f"{module}.{name} does not descend from MemcourseError"
    assert f"── {name} " in memcourse.errors.__doc__, f"{name} is missing from the tree in memcourse/errors.py"


@pytest.mark.parametrize(("module", "name", "second"), [
    ("memcourse.extraction.parsing", "ReplyError", ValueError),
    ("memcourse.extraction.audit", "AuditLogError", RuntimeError),
    ("memcourse.llm", "LLMError", RuntimeError),
    ("memcourse.agent.tools", "ToolArgumentError", ValueError),
    ("memcourse.integrations.langgraph", "WriteRefused", ValueError),
    ("memcourse.course.layout", "CourseError", RuntimeError),
    ("memcourse.stores.base", "TenancyError", ValueError),
])
def test_the_second_bases_callers_catch_are_kept(module, name, second):
    assert issubclass(getattr(importlib.import_module(module), name), second)
