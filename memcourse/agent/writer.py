"""Hot path, cold path: a memory writer that never blocks the reply.

The user waits for the answer, not for the memory write. Deciding what to remember (policy,
maybe an LLM extractor), embedding it and writing it can take longer than answering, so a
production agent answers on the *hot path* and hands the write to a *cold path*:

- one background worker thread and a FIFO queue, so writes happen **in the order** the
  messages arrived: "I use Java" followed by "actually, Go now" must never be stored the other
  way round (an older statement overwriting a newer one is the classic async-memory bug);
- :meth:`submit` returns at once with a ``Future`` that resolves to the policy decision;
- :meth:`flush` waits until everything submitted so far is written; :meth:`close` flushes and
  stops the worker, and runs at interpreter exit, so a shutdown does not drop queued memories;
- an error in one write is kept on that write's ``Future`` (and counted), never kills the
  worker, and never reaches the user's reply.

By default the worker runs the policy's rule recognisers. Give it a ``pipeline=``
(:class:`~memcourse.extraction.MemoryPipeline`: any extractor, the gate, reconciliation, the
audit log) and each message goes through that instead; its ``Future`` then resolves to the
pipeline's :class:`~memcourse.extraction.PipelineResult`. A model extractor belongs here, on
the cold path: its call takes longer than the reply should.
"""

from __future__ import annotations

import atexit
import queue
import threading
import weakref
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from memcourse.guards.learned import warm_up
from memcourse.policy import MemoryPolicy, PolicyDecision
from memcourse.records import DEFAULT_AGENT, DEFAULT_USER
from memcourse.stores.base import MemoryStore

if TYPE_CHECKING:
    from memcourse.extraction.pipeline import MemoryPipeline


@dataclass
class _Job:
    message: str
    user_id: str
    agent_id: str
    conversation_id: str | None
    future: Future


@dataclass
class _Task:
    task: Callable[[], Any]
    future: Future


_STOP = object()


class BackgroundMemoryWriter:
    def __init__(self, store: MemoryStore, policy: MemoryPolicy | None = None, *, max_queue: int = 1000,
                 pipeline: "MemoryPipeline | None" = None):
        if max_queue < 1:
            raise ValueError("max_queue must be >= 1")
        self.store = store
        self.policy = policy or MemoryPolicy()
        self.pipeline = pipeline
        self._queue: queue.Queue = queue.Queue(maxsize=max_queue)
        self._closed = False
        self._lock = threading.Lock()
        self.written = 0
        self.skipped = 0
        self.failed = 0
        # the gate's classifier loads here, not on the worker: the queue may be drained at exit,
        # when no model can be loaded any more (see memcourse.guards.learned.warm_up)
        warm_up()
        self._worker = threading.Thread(target=self._run, name="memcourse-memory-writer", daemon=True)
        self._worker.start()
        atexit.register(_close_at_exit, weakref.ref(self))

    def submit(
        self,
        message: str,
        *,
        user_id: str = DEFAULT_USER,
        agent_id: str = DEFAULT_AGENT,
        conversation_id: str | None = None,
    ) -> "Future[PolicyDecision]":
        """Queue a message for the policy and the store; returns immediately.

        Blocks only if ``max_queue`` writes are already waiting (back-pressure, rather than
        unbounded memory growth when the store is slow).
        """
        if not isinstance(message, str):
            raise TypeError(f"message must be a string, got {type(message).__name__}")
        future: Future = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("this memory writer is closed")
            self._queue.put(_Job(message, user_id, agent_id, conversation_id, future))
        return future

    def run_later(self, task: Callable[[], Any]) -> Future:
        """Queue any cold-path job (the session-end consolidation, say) behind the writes
        already submitted: it runs on the worker, in order, and its ``Future`` holds what it
        returns (or the error it raised)."""
        if not callable(task):
            raise TypeError(f"task must be callable, got {type(task).__name__}")
        future: Future = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("this memory writer is closed")
            self._queue.put(_Task(task, future))
        return future

    def flush(self, timeout: float | None = None) -> None:
        """Wait until every write submitted before this call is done."""
        marker: Future = Future()
        with self._lock:
            if self._closed and not self._worker.is_alive():
                return
            self._queue.put(marker)
        marker.result(timeout=timeout)

    def close(self, timeout: float | None = 30.0) -> None:
        """Write what is queued, then stop the worker. Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._queue.put(_STOP)
        self._worker.join(timeout=timeout)

    def __enter__(self) -> "BackgroundMemoryWriter":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    @property
    def pending(self) -> int:
        return self._queue.qsize()

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            if job is _STOP:
                return
            if isinstance(job, Future):  # a flush marker: everything before it is done
                job.set_result(None)
                continue
            if isinstance(job, _Task):
                try:
                    job.future.set_result(job.task())
                except Exception as error:  # kept on the future, like a failed write
                    self.failed += 1
                    job.future.set_exception(error)
                continue
            try:
                if self.pipeline is not None:
                    job.future.set_result(self._through_pipeline(job))
                    continue
                decision = self.policy.decide(
                    job.message, user_id=job.user_id, agent_id=job.agent_id, conversation_id=job.conversation_id
                )
                if decision.accepted and decision.record is not None:
                    self.store.upsert(decision.record)
                    self.written += 1
                else:
                    self.skipped += 1
                job.future.set_result(decision)
            except Exception as error:  # kept on the future; the worker lives on
                self.failed += 1
                job.future.set_exception(error)

    def _through_pipeline(self, job: _Job):
        from memcourse.extraction.base import Message

        if self.pipeline is None:
            raise RuntimeError("this writer was built without a pipeline")
        message = Message(job.message, job.conversation_id, self.pipeline.clock(), job.user_id, job.agent_id)
        result = self.pipeline.process(message)
        if result.written:
            self.written += len(result.written)
        else:
            self.skipped += 1
        return result


def _close_at_exit(ref: "weakref.ref[BackgroundMemoryWriter]") -> None:
    """Flush a still-open writer when Python exits (a weak reference, so registering this
    does not keep every writer alive forever)."""
    writer = ref()
    if writer is not None:
        writer.close()
