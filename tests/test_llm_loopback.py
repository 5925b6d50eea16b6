"""LoopbackChatServer: the offline stand-in for an OpenAI-compatible server (notebook 11)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from memcourse import JsonMemoryStore, MemoryAwareAgent, MemoryRecord, MemoryType
from memcourse.agent.compose import OpenAICompatibleComposer
from memcourse.testing import LoopbackChatServer


def test_answers_with_the_canned_text_and_records_the_request(tmp_path, clock):
    store = JsonMemoryStore(tmp_path / "m.json", clock=clock)
    store.upsert(MemoryRecord(MemoryType.PREFERENCE, "response_style", "代码示例尽量用 Python"))
    with LoopbackChatServer("好的，下面用 Python 示例。") as server:
        assert server.base_url.startswith("http://127.0.0.1:")
        composer = OpenAICompatibleComposer(server.base_url, "demo-model", api_key="k-1")
        reply = MemoryAwareAgent(store, composer=composer).reply("怎么写一个重试装饰器？")
    assert reply.answer == "好的，下面用 Python 示例。"
    [request] = server.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == "Bearer k-1"
    system, user = request["body"]["messages"]
    assert "代码示例尽量用 Python" in system["content"]
    assert user["content"] == "怎么写一个重试装饰器？"


def test_answer_can_be_computed_from_the_request():
    with LoopbackChatServer(lambda body: f"echo: {body['messages'][-1]['content']}") as server:
        composer = OpenAICompatibleComposer(server.base_url, "m")
        from memcourse.policy import MemoryPolicy

        decision = MemoryPolicy().decide("hello")
        assert composer("hello", [], decision) == "echo: hello"


def test_unknown_paths_get_404_and_the_server_stops():
    server = LoopbackChatServer().start()
    url = server.base_url + "/embeddings"
    request = urllib.request.Request(url, data=json.dumps({}).encode(), method="POST")
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(request, timeout=5)
    assert error.value.code == 404
    server.stop()
    with pytest.raises(OSError):
        urllib.request.urlopen(
            urllib.request.Request(server.base_url + "/chat/completions", data=b"{}", method="POST"), timeout=2
        )


def test_a_client_that_stops_waiting_leaves_no_traceback(capfd):
    """A timeout demo: the server answers after the client has gone. That is not an error worth a
    traceback in the learner's output (socketserver prints one for a broken pipe otherwise)."""
    import socket
    import time

    def slow(body):
        time.sleep(0.6)
        return "late"

    with LoopbackChatServer(slow) as server:
        for _ in range(3):
            request = urllib.request.Request(server.base_url + "/chat/completions", data=b"{}", method="POST")
            with pytest.raises((TimeoutError, socket.timeout, urllib.error.URLError)):
                urllib.request.urlopen(request, timeout=0.2)
        time.sleep(1.0)  # let the handlers finish writing to the closed sockets
    assert "Traceback" not in capfd.readouterr().err
