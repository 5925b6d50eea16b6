"""Test doubles: a chat server, a scripted model and a clock, for tests, demos and evaluations.

Everything here stands in for something real so a run is offline and exact:

- :class:`LoopbackChatServer`: an OpenAI-compatible chat server on ``127.0.0.1`` that records
  every request, so you can see exactly what a model *would* receive.
- :func:`scripted_model`: an answer function for that server replaying a fixed reply per user
  message (how the extraction evaluation and notebook 14 run "a model" without one).
- :class:`FakeClock`: a clock you move by hand, so timestamps (validity, decay, history) are exact.

None of them is used by the library's normal paths; they are library code because the
evaluations, the widgets and the course's tests all need the same ones.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Callable

__all__ = ["EMPTY_EXTRACTION", "FakeClock", "LoopbackChatServer", "scripted_model"]

#: What a scripted extraction model answers for a message it has no script for.
EMPTY_EXTRACTION = '{"memories": []}'


class FakeClock:
    """A clock the caller moves by hand (``clock.now = ...`` or :meth:`advance`)."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


def scripted_model(
    replies: dict[str, str], fallback: Callable[[str], str | None] | None = None
) -> Callable[[dict], str]:
    """An answer function for :class:`LoopbackChatServer` playing an extraction model.

    The extractor sends the user's message as JSON on the line after the instruction; the
    reply is ``replies[message]``, else ``fallback(message)`` if it returns text, else
    :data:`EMPTY_EXTRACTION`."""
    def answer(body: dict) -> str:
        content = body["messages"][-1]["content"]
        try:
            text = json.loads(content.split("\n", 1)[1])
        except (IndexError, json.JSONDecodeError):
            return EMPTY_EXTRACTION
        if text in replies:
            return replies[text]
        return (fallback(text) if fallback else None) or EMPTY_EXTRACTION

    return answer


class LoopbackChatServer:
    """A stand-in for an OpenAI-compatible server, on loopback, for demos and tests.

    It answers every ``POST .../chat/completions`` with ``answer`` and records each request's
    path, headers and JSON body in :attr:`requests`, so you can see exactly what a model
    *would* receive, offline. It binds ``127.0.0.1`` on a free port and never calls out::

        with LoopbackChatServer("好的，用 Python。") as server:
            client = ChatClient(server.base_url, "demo-model")
            ...
            server.requests[-1]["body"]["messages"]

    ``answer`` may also be a function of the request body returning the text.
    """

    def __init__(self, answer: str | Callable[[dict], str] = "OK.", *, model: str = "loopback-demo"):
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.answer = answer
        self.model = model
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw.decode("utf-8")) if raw else {}
                except (UnicodeDecodeError, json.JSONDecodeError):
                    body = {"_raw": raw.decode("utf-8", "replace")}
                outer.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                text = outer.answer(body) if callable(outer.answer) else outer.answer
                self._send(200, {
                    "object": "chat.completion",
                    "model": body.get("model", outer.model),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                })

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                try:
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client stopped waiting (a timeout demo): nobody is left to answer

            def log_message(self, *args: object) -> None:  # keep notebooks quiet
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, name="memcourse-loopback-llm", daemon=True)
        self._running = False

    def start(self) -> "LoopbackChatServer":
        if not self._running:
            self._thread.start()
            self._running = True
        return self

    def stop(self) -> None:
        if self._running:
            self._server.shutdown()
            self._running = False
        self._server.server_close()

    def __enter__(self) -> "LoopbackChatServer":
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
