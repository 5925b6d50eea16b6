"""Fixtures the browser test files share."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .harness import course_copy

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


@pytest.fixture
def course_root(tmp_path) -> Path:
    """A clean copy of every course notebook, served from a temporary folder (a file that serves
    fewer defines its own)."""
    return course_copy(tmp_path, NOTEBOOKS)


@pytest.fixture(scope="module")
def artifacts(request) -> Path:
    """The test file's screenshot folder (its module's ``ARTIFACTS``), emptied once per file. Each
    file has its own: the Chromium profile lives there, and two workers must not share one."""
    folder: Path = request.module.ARTIFACTS
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder
