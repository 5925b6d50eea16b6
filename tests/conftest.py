"""Shared fixtures.

``store`` is the fixture behind the store contract suite: every test that takes it runs once
per store kind in ``STORE_KINDS``. A new store joins the contract by adding a kind here.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memcourse.stores.json_store import JsonMemoryStore

STORE_KINDS = ["json"]


class FakeClock:
    """A clock the test moves by hand, so timestamps are exact."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def build_store(kind: str, tmp_path, clock):
    if kind == "json":
        return JsonMemoryStore(tmp_path / "memories.json", clock=clock)
    raise ValueError(f"unknown store kind {kind!r}")


@pytest.fixture(params=STORE_KINDS)
def store(request, tmp_path, clock):
    return build_store(request.param, tmp_path, clock)
