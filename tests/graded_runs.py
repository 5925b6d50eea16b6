"""The graded suite run once per target for a whole test session, shared by the test files that need
it (``test_exercise_stubs.py`` and ``test_grading.py``) and by every xdist worker.

Each full run of ``tests/graded`` takes half a minute; two files used to run it twice per target.
The first caller runs it exactly as ``memcourse grade`` does (:func:`memcourse.course.grading.graded_junit`)
and leaves the report in the session's shared temporary folder; the others wait on a file lock and
read it. Runs of copies of the course, with other files, are not shared.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from filelock import FileLock

from memcourse.course import grading

ROOT = Path(__file__).resolve().parent.parent
GRADED_FILES = sorted((ROOT / "tests" / "graded").glob("test_ex??_*.py"))
#: The real child run, bound when this module is imported: test_grading.py replaces
#: ``grading.graded_junit`` with a function that calls back into this module, and looking it
#: up at call time would recurse into the lock this module holds.
_GRADED_JUNIT = grading.graded_junit


def shared_graded_junit(target: str, tmp_path_factory, timeout: float = 600) -> tuple[str, str]:
    """``(junit_xml, printed_output)`` of the whole graded suite against ``target`` in this repository."""
    base = tmp_path_factory.getbasetemp()
    session = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # one folder for all workers
    report = session / f"graded-{target}.json"
    with FileLock(str(report) + ".lock"):
        if not report.exists():
            xml_text, output = _GRADED_JUNIT(ROOT, GRADED_FILES, target, timeout)
            partial = report.with_suffix(".partial")
            partial.write_text(json.dumps({"xml": xml_text, "output": output}), encoding="utf-8")
            partial.replace(report)
    stored = json.loads(report.read_text(encoding="utf-8"))
    return stored["xml"], stored["output"]
