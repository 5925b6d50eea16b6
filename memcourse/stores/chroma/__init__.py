"""A memory store on Chroma, with hybrid recall and a real lifecycle.

Same contract as :class:`~memcourse.stores.json_store.JsonMemoryStore` (one test suite checks
both), plus what a vector database makes possible and what production memory needs.

**Where things are kept** depends on how Chroma runs, because forgetting and concurrency
have different answers in each case:

* *Embedded* (``ChromaMemoryStore(path)``, or a ``PersistentClient``/``EphemeralClient``):
  records (subject, content, history, everything a person wrote) live in a SQLite database
  of ours next to Chroma's files, with ``secure_delete``; Chroma gets only vectors under
  opaque random ids and filter scalars with random tenant tokens
  (:mod:`memcourse.stores.chroma.embedded`). Forgetting is one ``DELETE`` in our database; Chroma's
  own log and free pages never held text. One process per path (a second one is refused
  at open, see :mod:`memcourse.stores.chroma.locks`).
* *Server* (``client=chromadb.HttpClient(...)`` against ``chroma run``): many processes share
  one collection, so records live in Chroma as append-only version rows
  (:mod:`memcourse.stores.chroma.server`): concurrent updates cannot lose a version. The
  server keeps deleted bytes until its operator runs ``chroma vacuum``.

Either way, every store object and thread of this process that opens the same collection
shares one lock, one keyword index and one record connection, so they behave as one store.

**Recall** (``search(..., mode="hybrid"|"vector"|"keyword")``): the vector channel asks
Chroma for neighbours of this user's active memories the model could read (cosine ≥
``similarity_floor``), the keyword channel asks BM25 (jieba-aware) restricted to the same
user, and :func:`memcourse.recall.hybrid.rank_hits` fuses, decays, boosts and admits.

**Lifecycle.** Upsert by id updates in place (``created_at`` kept, replaced content kept in
``history``). A *near-duplicate* (cosine ≥ 0.92, same user, agent and type, different id,
both texts readable by the model; the decision is :func:`memcourse.recall.dedupe.may_supersede`)
supersedes the older record: it becomes ``superseded`` with ``superseded_by`` pointing at the
new one. An upsert whose ``memory_id`` already belongs to another user or agent is refused:
ids are not a way into another tenant's memories. ``forget`` removes every copy.

**Search scopes live in this process.** The BM25 index and the catalog of which active
memory belongs to which user, agent and type are kept in memory and rebuilt when a store
opens. Processes sharing a server call :meth:`refresh` to see each other's new memories in
search; until then a search fails closed (it misses them, never leaks them), and every
record is checked again after loading. ``get``, ``list_all`` and ``history`` always read
the stored records.

**One idea per file** in this package:

* :mod:`.store`: the public verbs and the lifecycle (open, upsert, close, the contract's
  primitives; the verbs every store shares come from :mod:`memcourse.stores.contract`);
* :mod:`.search`: channel search (vector with the pre-/post-filter choice and passage
  rescoring, keyword, fusion) and as-of search;
* :mod:`.supersede`: near-duplicate supersede;
* :mod:`.access`: the write-behind of access statistics;
* :mod:`.records`: the record-keeper Protocol, with its :mod:`.embedded` and :mod:`.server`
  implementations;
* :mod:`.catalog`: the keyword index and the scope allow-lists;
* :mod:`.locks`: process sharing and the embedded path's lock.
"""

from memcourse.stores.chroma.store import MODES, ChromaMemoryStore

__all__ = ["ChromaMemoryStore", "MODES"]
