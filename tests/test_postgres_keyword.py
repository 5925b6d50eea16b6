"""BM25 computed in SQL ranks as the library's BM25 does (memcourse.recall.bm25.BM25Index).

The keyword channel of the PostgreSQL store scores in one query over its postings table
(:mod:`memcourse.stores.postgres.keyword`). It must not be "a BM25": it must be *the* BM25 the
other stores rank by, so the shipped bilingual set (Chinese, English, mixed; order numbers,
versions) is indexed both ways and every query's top 10 compared, ids and scores, with and
without a scope filter; and the triggers must keep the postings in step when rows change.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest

from memcourse.recall.bm25 import BM25Index
from memcourse.recall.hybrid import BM25_PARAMS, keyword_text
from memcourse.records import MemoryRecord
from memcourse.stores.postgres import rows
from memcourse.stores.postgres.database import Database
from memcourse.stores.postgres.keyword import bm25_ranking
from memcourse.stores.postgres.sealing import KeyStore
from memcourse.text import keyword_tokens

DATA = Path(__file__).parents[1] / "memcourse" / "data" / "recall_eval.json"
CREATED = datetime(2026, 3, 1, tzinfo=timezone.utc)


@pytest.fixture
def bilingual(postgres_dsn, tmp_path):
    """The bilingual set's memories in one schema (hashed tokens, as the store writes them) and
    in one BM25Index per user (the library's statistics are per index; the store's per user)."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    keys = KeyStore(tmp_path / "keys.sqlite")
    db = Database(postgres_dsn, schema=f"bm25_{uuid.uuid4().hex}", dimension=4, model_id="test")
    indexes: dict[str, BM25Index] = {}
    records = []
    for i, item in enumerate(data["memories"]):
        record = MemoryRecord(item["memory_type"], item["subject"], item["content"], user_id=item["user_id"],
                              tags=item.get("tags", []), created_at=CREATED)
        records.append((f"m{i:03d}", record))
        indexes.setdefault(record.user_id, BM25Index(**BM25_PARAMS)).add(f"m{i:03d}", keyword_text(record))

    def work(conn):
        for memory_id, record in records:
            hashed = keys.get(record.user_id, create=True).tokens(keyword_tokens(keyword_text(record)))
            conn.execute(
                f"INSERT INTO agent_memory ({rows.COLUMNS}, embedding, keywords) VALUES (%s, 'agent', %s, %s, "
                "'active', 0.5, 0, NULL, NULL, %s, %s, NULL, 1.0, '\\x00', %s, %s)",
                (memory_id, record.user_id, record.memory_type.value, CREATED, CREATED,
                 np.ones(4, dtype=np.float32), hashed))

    db.transaction(work)
    yield db, keys, indexes, records, data["queries"]
    db.close()
    keys.close()


def _sql_top(db, keys, query: str, user_id: str, limit: int, memory_type: str | None = None):
    terms = keys.get(user_id).tokens(list(dict.fromkeys(keyword_tokens(query))))
    return db.read(lambda conn: bm25_ranking(conn, terms, user_id=user_id, agent_id=None,
                                             memory_type=memory_type, limit=limit))


def _assert_same(expected: list[tuple[str, float]], got: list[tuple[str, str, float]], where: str) -> None:
    assert [i for i, _, _ in got] == [i for i, _ in expected], where
    # bm25s keeps float32 scores; the database sums in float64
    assert [s for _, _, s in got] == pytest.approx([s for _, s in expected], rel=1e-5), where


def test_sql_bm25_ranks_the_bilingual_set_as_the_library_does(bilingual):
    db, keys, indexes, _, queries = bilingual
    compared = 0
    for query in queries:
        expected = indexes[query["user_id"]].search(query["text"], limit=10)
        _assert_same(expected, _sql_top(db, keys, query["text"], query["user_id"], 10), query["id"])
        compared += bool(expected)
    assert compared >= 0.8 * len(queries)  # most queries share words with memories: not empty vs empty


def test_a_scope_filter_applies_before_the_cut_with_the_users_statistics(bilingual):
    """BM25Index.search(allowed=...) filters after scoring over the whole index; so does the SQL."""
    db, keys, indexes, records, queries = bilingual
    compared = 0
    for query in queries[:20]:
        user = query["user_id"]
        for kind in ("preference", "entity"):
            allowed = {i for i, r in records if r.user_id == user and r.memory_type.value == kind}
            expected = indexes[user].search(query["text"], limit=5, allowed=allowed)
            _assert_same(expected, _sql_top(db, keys, query["text"], user, 5, kind), f"{query['id']} {kind}")
            compared += bool(expected)
    assert compared >= 10


def test_the_triggers_keep_the_postings_in_step_with_status_and_deletes(bilingual):
    db, keys, indexes, records, queries = bilingual
    query = next(q for q in queries if q["kind"] == "exact_id")
    user = query["user_id"]
    top = _sql_top(db, keys, query["text"], user, 10)
    assert top, query
    first = top[0][0]

    db.transaction(lambda conn: conn.execute("UPDATE agent_memory SET status = 'superseded' WHERE id = %s", (first,)))
    indexes[user].remove(first)
    _assert_same(
        indexes[user].search(query["text"], limit=10), _sql_top(db, keys, query["text"], user, 10), "superseded"
    )

    db.transaction(lambda conn: conn.execute("UPDATE agent_memory SET status = 'active' WHERE id = %s", (first,)))
    record = dict(records)[first]
    indexes[user].add(first, keyword_text(record))
    _assert_same(indexes[user].search(query["text"], limit=10), _sql_top(db, keys, query["text"], user, 10), "back")

    db.transaction(lambda conn: rows.delete(conn, [first]))
    indexes[user].remove(first)
    _assert_same(indexes[user].search(query["text"], limit=10), _sql_top(db, keys, query["text"], user, 10), "deleted")
    left = db.read(lambda conn: conn.execute("SELECT count(*) FROM agent_memory_terms WHERE memory_id = %s",
                                             (first,)).fetchone()[0])
    assert left == 0  # a deleted memory leaves no posting behind


@pytest.fixture
def common_words(postgres_dsn, tmp_path):
    """400 memories of one user in which "user" and "ref" are in every one, "alpha" in 120,
    "zeta" in 5, with varying lengths and repeats, many with the same words (equal scores)."""
    import random

    rng = random.Random(7)
    keys = KeyStore(tmp_path / "keys.sqlite")
    db = Database(postgres_dsn, schema=f"prune_{uuid.uuid4().hex}", dimension=4, model_id="test")
    index = BM25Index(**BM25_PARAMS)
    texts = {}
    for i in range(400):
        words = ["user", "ref"] + ["alpha"] * (i % 10 < 3) * rng.choice([1, 2]) + ["zeta"] * (i % 80 == 0)
        words += rng.sample(["cat", "dog", "tea", "map", "sun", "car"], rng.choice([0, 1, 3])) * rng.choice([1, 2])
        texts[f"m{i:03d}"] = " ".join(words)
        index.add(f"m{i:03d}", texts[f"m{i:03d}"])
    user_keys = keys.get("u", create=True)

    def work(conn):
        for memory_id, text in texts.items():
            conn.execute(
                f"INSERT INTO agent_memory ({rows.COLUMNS}, embedding, keywords) VALUES (%s, 'agent', 'u', 'event', "
                "'active', 0.5, 0, NULL, NULL, %s, %s, NULL, 1.0, '\\x00', %s, %s)",
                (memory_id, CREATED, CREATED, np.ones(4, dtype=np.float32), user_keys.tokens(keyword_tokens(text))))

    db.transaction(work)
    yield db, keys, index
    db.close()
    keys.close()


@pytest.mark.parametrize("query", ["user zeta", "user alpha", "user ref alpha zeta", "user ref", "zeta", "user"])
def test_skipping_the_common_words_postings_never_changes_the_ranking(common_words, monkeypatch, query):
    """Whatever terms are left unscanned (the tail), the answer is the library's: each of the
    three ways bm25_ranking finishes (the cut beats the tail's bound; every candidate merged with
    the tail's own ranking; everything scanned again) is forced here by choosing the tail."""
    from memcourse.stores.postgres import keyword

    db, keys, index = common_words
    hashed = dict(zip(keys.get("u").tokens(["user", "ref", "alpha", "zeta"]), ["user", "ref", "alpha", "zeta"],
                      strict=True))
    for forced in ([], ["user"], ["user", "ref"], ["alpha", "user"], ["zeta"], ["alpha"], ["ref", "alpha", "user"]):
        monkeypatch.setattr(keyword, "_tail", lambda idf, df, limit, k1, forced=forced: [
            token for token in df if hashed.get(token) in forced and len(df) > 1])
        for limit in (3, 10, 50):
            expected = index.search(query, limit=limit)
            _assert_same(expected, _sql_top(db, keys, query, "u", limit), f"{query!r} tail={forced} limit={limit}")
