"""Graded tests for exercise 12: batched writes with bounded, backed-off, ordered retries."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from memcourse import JsonMemoryStore, MemoryRecord, MemoryType

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def ex(exercise):
    return exercise("ex12_production")


class FlakyServer:
    """Records every call; fails the calls whose numbers (1-based) are in ``fail_calls``."""

    def __init__(self, fail_calls=(), error=None):
        self.fail_calls = set(fail_calls)
        self.error = error if error is not None else ConnectionError("connection reset by peer")
        self.calls: list[list] = []
        self.stored: list = []

    def __call__(self, batch):
        self.calls.append(list(batch))
        if len(self.calls) in self.fail_calls:
            raise self.error
        self.stored.extend(batch)


class Sleeps(list):
    def __call__(self, seconds):
        self.append(seconds)


def test_batches_are_written_in_order_in_batch_size_pieces(ex):
    server, sleeps = FlakyServer(), Sleeps()
    stats = ex.write_in_batches(list(range(7)), server, batch_size=3, sleep=sleeps)
    assert server.calls == [[0, 1, 2], [3, 4, 5], [6]], f"consecutive batches of 3, in order; got {server.calls}"
    assert stats == {"batches": 3, "written": 7, "attempts": 3, "retries": 0}, stats
    assert sleeps == [], "no failure, no sleep"


def test_a_transient_failure_is_retried_with_backoff_and_nothing_is_written_twice(ex):
    server, sleeps = FlakyServer(fail_calls={2, 3}), Sleeps()  # batch 2 fails twice, then succeeds
    stats = ex.write_in_batches(list(range(6)), server, batch_size=2, max_attempts=3, base_delay=0.1, sleep=sleeps)
    assert server.stored == [0, 1, 2, 3, 4, 5], "every record once, in order (记录不重复、不乱序)"
    assert server.calls == [[0, 1], [2, 3], [2, 3], [2, 3], [4, 5]], "only the failed batch is retried"
    assert sleeps == pytest.approx([0.1, 0.2]), f"exponential backoff before each retry, got {sleeps}"
    assert stats == {"batches": 3, "written": 6, "attempts": 5, "retries": 2}, stats


def test_timeouts_are_transient_too(ex):
    server, sleeps = FlakyServer(fail_calls={1}, error=TimeoutError("read timed out")), Sleeps()
    stats = ex.write_in_batches(
        ["以后用中文回答", "Phase4 当前任务"], server, batch_size=5, sleep=sleeps, base_delay=0.5
    )
    assert server.stored == ["以后用中文回答", "Phase4 当前任务"]
    assert sleeps == pytest.approx([0.5]), f"one retry after base_delay=0.5 seconds, got sleeps {sleeps}"
    assert stats["retries"] == 1, f"one retry, got {stats}"


def test_it_gives_up_after_max_attempts_and_stops_there(ex):
    server, sleeps = FlakyServer(fail_calls={2, 3, 4}), Sleeps()
    with pytest.raises(ConnectionError):
        ex.write_in_batches(list(range(6)), server, batch_size=2, max_attempts=3, sleep=sleeps)
    assert server.stored == [0, 1], "the first batch stays written"
    assert len(server.calls) == 4, "batch 2 tried 3 times, batch 3 never attempted (order: no skipping ahead)"
    assert sleeps == pytest.approx([0.1, 0.2]), "no sleep after the final failure"


def test_other_errors_are_not_retried(ex):
    server, sleeps = FlakyServer(fail_calls={1}, error=ValueError("record #3 is invalid")), Sleeps()
    with pytest.raises(ValueError, match="invalid"):
        ex.write_in_batches(list(range(4)), server, batch_size=4, sleep=sleeps)
    assert len(server.calls) == 1, (
        f"a bad record fails the same way every time: do not retry it (got {len(server.calls)} calls)"
    )
    assert sleeps == [], f"and do not sleep before re-raising it (got sleeps {sleeps})"


def test_bad_arguments_fail_before_any_write_and_empty_input_does_nothing(ex):
    server = FlakyServer()
    for kwargs in ({"batch_size": 0}, {"batch_size": -1}, {"max_attempts": 0}, {"max_attempts": -2}):
        with pytest.raises(ValueError):
            ex.write_in_batches([1, 2], server, sleep=Sleeps(), **kwargs)
    assert server.calls == []
    assert ex.write_in_batches([], server, sleep=Sleeps()) == {"batches": 0, "written": 0, "attempts": 0, "retries": 0}
    assert server.calls == []


def test_with_a_real_store(ex, tmp_path):
    store = JsonMemoryStore(tmp_path / "m.json", clock=lambda: T0)
    records = [MemoryRecord(MemoryType.EVENT, f"release_{i}", f"第 {i} 次发布 / "
                                              f"release {i}", created_at=T0) for i in range(12)]
    failures = iter([True, False] + [False] * 10)

    def write_batch(batch):
        if next(failures):
            raise ConnectionError("chroma server restarting")
        for record in batch:
            store.upsert(record)

    stats = ex.write_in_batches(records, write_batch, batch_size=5, sleep=Sleeps())
    assert [r.subject for r in store.list_all()] == [f"release_{i}" for i in range(12)]
    assert stats["batches"] == 3, f"12 records in batches of 5: 3 batches, got {stats}"
    assert stats["retries"] == 1, f"the first attempt failed once: 1 retry, got {stats}"


def test_backoff_doubles_from_base_delay(ex):
    server, sleeps = FlakyServer(fail_calls={1, 2, 3}), Sleeps()
    stats = ex.write_in_batches([1], server, max_attempts=4, base_delay=0.25, sleep=sleeps)
    assert sleeps == pytest.approx([0.25, 0.5, 1.0]), f"before retries 1, 2, 3: base_delay * 2 ** (n - 1), got {sleeps}"
    assert stats == {"batches": 1, "written": 1, "attempts": 4, "retries": 3}, stats


def test_one_attempt_means_no_retry(ex):
    server, sleeps = FlakyServer(fail_calls={1}), Sleeps()
    with pytest.raises(ConnectionError):
        ex.write_in_batches([1, 2], server, max_attempts=1, sleep=sleeps)
    assert len(server.calls) == 1, f"max_attempts=1: a single try, got {len(server.calls)} calls"
    assert sleeps == [], f"no retry, so no sleep, got {sleeps}"


def test_each_batch_is_a_list_even_from_a_tuple(ex):
    server = FlakyServer()
    ex.write_in_batches(("a", "b", "c"), server, batch_size=2, sleep=Sleeps())
    assert all(type(call) is list for call in server.calls), "call write_batch with a list"
    assert server.calls == [["a", "b"], ["c"]]


def test_a_retried_batch_is_the_same_batch(ex):
    seen = []

    def write_batch(batch):
        seen.append(batch)
        if len(seen) == 1:
            batch.append("garbage")  # a client library that mutates what it was given
            raise ConnectionError("reset")

    ex.write_in_batches(["x", "y"], write_batch, batch_size=2, sleep=Sleeps())
    assert seen[1] == ["x", "y"], f"each attempt gets a fresh list of the batch's records, got {seen[1]}"


def test_batch_size_one_and_one_attempt_are_valid(ex):
    server = FlakyServer()
    stats = ex.write_in_batches(["a", "b"], server, batch_size=1, max_attempts=1, sleep=Sleeps())
    assert server.calls == [["a"], ["b"]], "batch_size=1 is valid: one record per batch"
    assert stats == {"batches": 2, "written": 2, "attempts": 2, "retries": 0}, stats
