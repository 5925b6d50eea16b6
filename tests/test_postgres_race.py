"""Several processes writing and forgetting the same ids on one PostgreSQL store.

Two writers update ten shared ids (each id belongs to one of two users), a hostile process
writes the same ids as a third user, and a forgetter forgets them, all at once. Every call is
stamped before and after with a number from one database sequence, which orders events across
processes. Afterwards:

- **0 resurrected**: no version whose write had returned before a forget of its id started is
  still there (current or in history);
- **0 lost**: every write that started after the last forget of its id had ended is there;
- **0 cross-tenant**: every version of a record was written by the record's own user.

This is the race the Chroma server documents as open (a write racing a forget can recreate the
memory; the owner check can race between processes); on PostgreSQL each decision is one
transaction under the id's lock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
from standin import STANDIN_EMBEDDER

WORKER = STANDIN_EMBEDDER + '''
import json, random, sys
import psycopg
from memcourse.records import MemoryRecord
from memcourse.stores.base import TenancyError
from memcourse.stores.postgres import PostgresMemoryStore

StandInEmbedder.dimension = 384
role, dsn, schema, keys, seed, rounds, out = sys.argv[1:8]
rng = random.Random(int(seed))
store = PostgresMemoryStore(dsn, schema=schema, key_store=keys, embedder=StandInEmbedder())
seq = psycopg.connect(dsn, autocommit=True)
def stamp():
    return seq.execute("SELECT nextval(%s)", (schema + ".race_seq",)).fetchone()[0]
from memcourse.text import keyword_tokens
import os, time
keyword_tokens("热身 warm up")  # load the tokenizer before the race, not during it
open(out + ".ready", "w").close()
while not os.path.exists(os.path.join(os.path.dirname(out), "go")):
    time.sleep(0.01)
log = []
n = 0
# A forgetter keeps going until one of its forgets removed something (a loaded machine can let
# every forget run before the first write lands, and then the race proves nothing).
while n < int(rounds) or (role == "forget" and not any(entry[3] for entry in log) and n < 50 * int(rounds)):
    n += 1
    memory_id = f"race-{rng.randrange(10)}"
    owner = "mallory" if role == "hostile" else f"u{int(memory_id[-1]) % 2}"
    before = stamp()
    if role == "forget":
        result = store.forget(memory_id)
    else:
        content = f"{owner}|{role}{seed}|{n}"
        try:
            store.upsert(MemoryRecord("event", "race", content, memory_id=memory_id, user_id=owner))
            result = content
        except TenancyError:
            result = None
    log.append([memory_id, before, stamp(), result])
retries = store.retries  # read before close: a closed store has no pool left to ask
store.close()
json.dump({"role": role, "log": log, "retries": retries}, open(out, "w"))
'''


def test_writers_racing_forgets_lose_nothing_resurrect_nothing_and_never_cross_tenants(postgres_dsn, tmp_path):
    schema = f"race_{uuid.uuid4().hex}"
    keys = tmp_path / "keys.sqlite"
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    # The store creates the schema; the sequence that orders events lives in it too.
    from memcourse.stores.postgres import PostgresMemoryStore

    exec(STANDIN_EMBEDDER, namespace := {})
    namespace["StandInEmbedder"].dimension = 384
    reader = PostgresMemoryStore(postgres_dsn, schema=schema, key_store=keys, embedder=namespace["StandInEmbedder"]())
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE SEQUENCE {schema}.race_seq")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[1]), *sys.path])}
    roles = [("write", 1), ("write", 2), ("hostile", 3), ("forget", 4), ("forget", 5)]
    workers = [
        subprocess.Popen([sys.executable, str(script), role, postgres_dsn, schema, str(keys), str(seed), "60",
                          str(tmp_path / f"{role}{seed}.json")], env=env, stderr=subprocess.PIPE, text=True)
        for role, seed in roles
    ]
    deadline = time.monotonic() + 120
    while not all((tmp_path / f"{role}{seed}.json.ready").exists() for role, seed in roles):
        assert time.monotonic() < deadline and all(w.poll() is None for w in workers), "a worker did not start"
        time.sleep(0.05)
    (tmp_path / "go").touch()  # everyone starts at once
    for worker in workers:
        _, errors = worker.communicate(timeout=300)
        assert worker.returncode == 0, errors[-3000:]
    logs = [json.loads((tmp_path / f"{role}{seed}.json").read_text()) for role, seed in roles]
    writes = [entry for log in logs if log["role"] != "forget" for entry in log["log"] if entry[3] is not None]
    forgets = [entry for log in logs if log["role"] == "forget" for entry in log["log"]]
    assert writes and any(entry[3] for entry in forgets), "the race must include real writes and real forgets"

    final: dict[str, tuple[str, list[str]]] = {}  # id -> (owner, every version's content)
    for record in reader.list_all():
        final[record.memory_id] = (record.user_id, [e.content for e in record.history] + [record.content])
    resurrected = lost = cross = 0
    for memory_id, before, after, content in writes:
        present = memory_id in final and content in final[memory_id][1]
        forgotten_later = any(f_id == memory_id and f_before > after for f_id, f_before, _, _ in forgets)
        if present and forgotten_later:
            resurrected += 1
        last_forget_end = max((f_after for f_id, _, f_after, _ in forgets if f_id == memory_id), default=-1)
        if before > last_forget_end and not present:
            lost += 1
    for owner, versions in final.values():
        cross += sum(1 for content in versions if content.split("|")[0] != owner)
    reader.close()
    assert (resurrected, lost, cross) == (0, 0, 0)
