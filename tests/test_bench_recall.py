"""The latency benchmark's data (benchmarks/bench_recall.py): what it claims to measure.

The benchmark itself is a long run with a documented command (docs/benchmarks.md); these
checks keep its data honest: with ``--tenants`` the memories really are spread over users,
and the exact-reference queries name memories of the user who searches.
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from bench_recall import make_queries, make_records, user_of  # noqa: E402


def test_one_tenant_is_one_user():
    assert {r.user_id for r in make_records(50, random.Random(1))} == {"bench"}


def test_tenants_share_the_collection_evenly():
    users = Counter(r.user_id for r in make_records(400, random.Random(1), tenants=4))
    assert sorted(users.values()) == [100, 100, 100, 100]
    assert user_of(0, 4) in users


def test_reference_queries_name_memories_of_the_searching_user():
    records = make_records(400, random.Random(2), tenants=4)
    refs = {re.search(r"ref (\w+)", r.content).group(1): r.user_id for r in records}
    asked = [q for q in make_queries(300, random.Random(3), 400, tenants=4) if "ref " in q]
    assert asked, "some queries ask for an exact reference"
    numbers = {q.split("ref ")[1][1:] for q in asked}
    owners = {refs[ref] for ref in refs if ref[1:] in numbers}
    assert owners == {user_of(0, 4)}
