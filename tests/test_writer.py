"""The cold-path memory writer: never blocks the reply, keeps order, flushes on close."""

from __future__ import annotations

import threading

import pytest

from memcourse import JsonMemoryStore, MemoryAwareAgent, MemoryPolicy
from memcourse.agent.writer import BackgroundMemoryWriter


class SlowStore:
    """Wraps a store; each upsert waits until the test opens the gate."""

    def __init__(self, inner):
        self.inner = inner
        self.gate = threading.Event()
        self.order: list[str] = []

    def upsert(self, record):
        self.gate.wait(timeout=10)
        self.order.append(record.content)
        return self.inner.upsert(record)

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.fixture
def store(tmp_path, clock):
    return JsonMemoryStore(tmp_path / "m.json", clock=clock)


def test_reply_returns_before_the_slow_write_and_the_write_lands_after_flush(store):
    slow = SlowStore(store)
    with BackgroundMemoryWriter(slow) as writer:
        agent = MemoryAwareAgent(slow, writer=writer)
        reply = agent.reply("以后回答我问题时，代码示例尽量用Python。")
        assert reply.written is None and reply.pending is not None
        assert not reply.pending.done()  # the store is still blocked: the reply did not wait
        assert store.list_all() == []
        slow.gate.set()
        writer.flush(timeout=10)
        assert reply.pending.result().accepted
        assert [r.subject for r in store.list_all()] == ["response_style"]


def test_writes_keep_submission_order_so_the_newer_preference_wins(store):
    with BackgroundMemoryWriter(store) as writer:
        for language in ["Java", "Go", "Rust", "Python", "TypeScript"]:
            writer.submit(f"以后回答我问题时，代码示例尽量用{language}。")
        writer.flush(timeout=10)
    [record] = store.list_all()
    assert record.content.endswith("TypeScript")
    assert [h.content[-len("Python"):] for h in record.history][-1] == "Python"
    assert len(record.history) == 4


def test_close_flushes_queued_writes(store):
    slow = SlowStore(store)
    writer = BackgroundMemoryWriter(slow)
    futures = [writer.submit(f"记住：事实编号{i}") for i in range(5)]
    slow.gate.set()
    writer.close()
    assert all(f.done() for f in futures)
    assert len(store.list_all()) == 5
    with pytest.raises(RuntimeError, match="closed"):
        writer.submit("记住：太晚了")


def test_a_failing_write_is_reported_on_its_future_and_the_worker_survives(store):
    class Flaky:
        def __init__(self):
            self.calls = 0

        def upsert(self, record):
            self.calls += 1
            if self.calls == 1:
                raise OSError("disk full")
            return store.upsert(record)

    with BackgroundMemoryWriter(Flaky()) as writer:
        first = writer.submit("记住：第一条")
        second = writer.submit("记住：第二条")
        writer.flush(timeout=10)
    with pytest.raises(OSError, match="disk full"):
        first.result()
    assert second.result().accepted
    assert writer.failed == 1 and writer.written == 1


def test_refused_messages_are_counted_not_written(store):
    with BackgroundMemoryWriter(store, MemoryPolicy()) as writer:
        decision = writer.submit("记住我的 API key 是 sk-test-secret。").result(timeout=10)
    assert not decision.accepted and decision.rule == "secret"
    assert writer.skipped == 1 and store.list_all() == []


def test_bad_arguments(store):
    with pytest.raises(ValueError):
        BackgroundMemoryWriter(store, max_queue=0)
    with BackgroundMemoryWriter(store) as writer:
        with pytest.raises(TypeError):
            writer.submit(None)  # type: ignore[arg-type]


CHILD = '''
import sys, time
from memcourse import JsonMemoryStore, MemoryPolicy
from memcourse.agent.writer import BackgroundMemoryWriter

class SlowStore(JsonMemoryStore):
    def upsert(self, record):
        time.sleep(0.1)
        return super().upsert(record)

writer = BackgroundMemoryWriter(SlowStore(sys.argv[1]), MemoryPolicy())
for i in range(4):
    writer.submit(f"Remember: release window {i} is on day {i + 1} of the sprint", user_id="erin")
print(writer.pending)
'''


def test_writes_queued_when_a_fresh_interpreter_exits_are_all_written(tmp_path):
    """The queue drains at exit, when no model can be loaded any more: the gate's classifier
    must already be loaded (a fresh process, so nothing was warm before the writer)."""
    import subprocess
    import sys

    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "m.json")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.strip()) >= 2  # most writes were still queued at the last line
    assert len(JsonMemoryStore(tmp_path / "m.json").list_all(user_id="erin")) == 4
