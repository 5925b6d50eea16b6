"""The same store against a real Chroma server (`chroma run` on loopback).

The session fixture ``chroma_server`` (tests/conftest.py) starts the server with its own
data directory on a free 127.0.0.1 port and stops it at the end; the whole store contract
also runs against it (store kind "chroma-server"). These tests cover what only a server
shows: two independent clients sharing one collection.
"""

from __future__ import annotations

import subprocess
import sys
import urllib.request
import uuid

from standin import STANDIN_EMBEDDER

from memcourse.embeddings import DEFAULT_MODEL
from memcourse.records import MemoryRecord, MemoryType
from memcourse.stores.chroma import ChromaMemoryStore


def test_the_server_is_a_real_process_on_loopback(chroma_server):
    assert chroma_server.host == "127.0.0.1"
    assert chroma_server.process.poll() is None
    with urllib.request.urlopen(f"http://{chroma_server.host}:{chroma_server.port}/api/v2/heartbeat", timeout=5) as r:
        assert r.status == 200


def test_two_clients_in_one_process_behave_as_one_store(chroma_server, clock):
    """Store objects on one collection in one process share their lock and keyword index."""
    name = f"shared-{uuid.uuid4().hex}"
    writer = ChromaMemoryStore(client=chroma_server.client(), collection=name, clock=clock)
    reader = ChromaMemoryStore(client=chroma_server.client(), collection=name, clock=clock)
    record = writer.upsert(MemoryRecord(MemoryType.ENTITY, "home", "The user lives in Lisbon", created_at=clock()))
    writer.upsert(MemoryRecord(MemoryType.ENTITY, "project_name", "项目名称是智能客服助手", created_at=clock()))
    assert [r.subject for r in reader.search("智能客服", mode="keyword")] == ["project_name"]
    assert [r.memory_id for r in reader.search("Which city does the user live "
                                               "in?", mode="vector")] == [record.memory_id]
    assert writer.forget(record.memory_id) is True
    assert reader.get(record.memory_id) is None
    assert reader.search("Which city does the user live in?") == []


# The other process embeds with a stand-in for the model (tests/standin.py); only the
# keyword channel is searched below, and loading the model there would only cost time.
OTHER_PROCESS = STANDIN_EMBEDDER + """
import sys
import chromadb
from chromadb.config import Settings
from memcourse.records import MemoryRecord, MemoryType
from memcourse.stores.chroma import ChromaMemoryStore
host, port, name, action = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
client = chromadb.HttpClient(host=host, port=port, settings=Settings(anonymized_telemetry=False))
store = ChromaMemoryStore(client=client, collection=name, embedder=StandInEmbedder())
if action == "write":
    print(store.upsert(MemoryRecord(MemoryType.ENTITY, "project_name", "项目名称是智能客服助手")).memory_id)
else:
    print(store.forget(action))
"""


def in_another_process(server, name, action):
    done = subprocess.run(
        [sys.executable, "-c", OTHER_PROCESS, server.host, str(server.port), name, action],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_another_process_writes_reads_see_them_search_after_refresh(chroma_server, clock):
    name = f"shared-{uuid.uuid4().hex}"
    reader = ChromaMemoryStore(client=chroma_server.client(), collection=name, clock=clock)
    memory_id = in_another_process(chroma_server, name, "write")
    # get/list_all read the server: the other process's write is visible at once.
    assert reader.get(memory_id).content == "项目名称是智能客服助手"
    assert len(reader.list_all()) == 1
    # Search scopes come from a per-process catalog (rebuilt on open, or on refresh()): until
    # then the reader fails closed, it does not see the new memory.
    assert reader.search("智能客服", mode="keyword") == []
    reader.refresh()
    assert [r.memory_id for r in reader.search("智能客服", mode="keyword")] == [memory_id]
    assert in_another_process(chroma_server, name, memory_id) == "True"
    assert reader.get(memory_id) is None
    assert reader.search("智能客服", mode="keyword") == []  # the stale index entry is skipped


def test_the_server_keeps_our_embedding_function_config(chroma_server):
    name = f"config-{uuid.uuid4().hex}"
    ChromaMemoryStore(client=chroma_server.client(), collection=name)
    stored = chroma_server.client().get_collection(name).configuration_json["embedding_function"]
    assert stored["name"] == "memcourse-sentence-transformer"
    assert stored["config"] == {"model": DEFAULT_MODEL}
