"""Documents beside memories, behind a permission boundary (seed 002, §7).

"Never put user memories and knowledge-base documents in one vector store without a
permission boundary." A memory belongs to one user; a document belongs to a tenant and is
readable by its owner, by members of the groups on its ACL, or by the whole tenant. Mixing
both in one collection means a memory search can surface a document (or the reverse), and a
top-k taken before the permission filter can be full of other people's chunks.

So a :class:`DocumentCollection` lives *beside* a :class:`~memcourse.stores.chroma.ChromaMemoryStore`
(same Chroma database, its own collection ``<memories>-documents``, its own record table) and:

- every chunk carries its :class:`Access` (tenant, owner, groups, tenant-wide or not);
- :meth:`DocumentCollection.search` puts the caller's scope *into the Chroma query's where
  clause*, so the top-k is taken among readable chunks only (never post-filtered);
- Chroma holds only vectors, opaque random row ids and random scope tokens, never text nor
  tenant, owner or group names (as the embedded memory store does,
  :mod:`memcourse.stores.chroma.embedded`); the text lives in our SQLite with
  ``secure_delete``, so :meth:`DocumentCollection.delete` leaves no trace;
- an empty ACL fails closed: only the owner reads the chunk; a caller with no groups reads
  only their own and tenant-wide chunks;
- there is no way from here into the memory store. A document's text becomes a user's
  memory only through :func:`remember_from_document`, which runs the write gate on it as
  ``tool_observed`` text, for a caller allowed to read it.

The JSON and Postgres stores have no document collection: :func:`documents_beside` says so.
"""

from __future__ import annotations

import secrets
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memcourse.errors import MemcourseError
from memcourse.records import Source
from memcourse.validation import check_scope_id

if TYPE_CHECKING:
    from memcourse.policy import MemoryPolicy, PolicyDecision
    from memcourse.stores.chroma import ChromaMemoryStore

__all__ = ["Access", "Caller", "DocumentChunk", "DocumentCollection", "DocumentHit", "DocumentAccessError",
           "documents_beside", "remember_from_document"]

DB_FILE = "memcourse-documents.sqlite3"
MAX_CHUNK_CHARS = 4000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS chunks (
    collection TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL,
    row_id TEXT NOT NULL UNIQUE, tenant TEXT NOT NULL, owner TEXT NOT NULL,
    groups TEXT NOT NULL, tenant_wide INTEGER NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (collection, chunk_id)
);
CREATE TABLE IF NOT EXISTS doc_tokens (
    collection TEXT NOT NULL, name TEXT NOT NULL, token TEXT NOT NULL, PRIMARY KEY (collection, name)
);
"""


class DocumentAccessError(MemcourseError, PermissionError):
    """The caller may not do this with this document (nothing was written or returned)."""


@dataclass(frozen=True)
class Access:
    """Who may read a chunk: its ``owner``; members of any of ``groups``; everyone in
    ``tenant`` when ``tenant_wide``. Never anyone outside ``tenant``. No groups and not
    tenant-wide: the owner alone (an empty ACL closes, it never opens)."""

    tenant: str
    owner: str
    groups: frozenset[str] = field(default_factory=frozenset)
    tenant_wide: bool = False

    def __post_init__(self) -> None:
        check_scope_id(self.tenant, "tenant")
        check_scope_id(self.owner, "owner")
        if isinstance(self.groups, str) or not all(isinstance(g, str) for g in self.groups):
            raise TypeError("groups must be a collection of group names, not a string")
        object.__setattr__(self, "groups", frozenset(check_scope_id(g, "groups") for g in self.groups))
        if not isinstance(self.tenant_wide, bool):
            raise TypeError("tenant_wide must be True or False")

    def readable_by(self, caller: Caller) -> bool:
        return caller.tenant == self.tenant and (
            caller.user_id == self.owner or self.tenant_wide or bool(self.groups & caller.groups))


@dataclass(frozen=True)
class Caller:
    """Who is asking: a user of a tenant, with the groups the deployment (never the
    conversation) says they are in."""

    tenant: str
    user_id: str
    groups: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        check_scope_id(self.tenant, "tenant")
        check_scope_id(self.user_id, "user_id")
        if isinstance(self.groups, str) or not all(isinstance(g, str) for g in self.groups):
            raise TypeError("groups must be a collection of group names, not a string")
        object.__setattr__(self, "groups", frozenset(check_scope_id(g, "groups") for g in self.groups))


@dataclass(frozen=True)
class DocumentChunk:
    """One passage of a document; ``chunk_id`` is ``<document_id>#<n>``."""

    chunk_id: str
    document_id: str
    text: str
    access: Access


@dataclass(frozen=True)
class DocumentHit:
    """A document chunk found for a caller: never a :class:`~memcourse.records.MemoryRecord`."""

    chunk: DocumentChunk
    distance: float


class DocumentCollection:
    """The documents beside one embedded :class:`ChromaMemoryStore` (see the module docstring)."""

    def __init__(self, memories: ChromaMemoryStore):
        if getattr(memories, "server", False):
            raise MemcourseError("documents beside a Chroma *server* collection are not built: a server keeps "
                                 "deleted text until vacuumed; use an embedded store (path= or a PersistentClient)")
        self.embedder = memories.embedder
        name = f"{memories.collection.name}-documents"
        self.collection = memories.client.get_or_create_collection(name, configuration={"hnsw": {"space": "cosine"}})
        self.name = name
        target = str(memories.path / DB_FILE) if memories.path is not None else ":memory:"
        self.db = sqlite3.connect(target, timeout=30, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA secure_delete = ON")
        self.db.execute("PRAGMA journal_mode = DELETE")
        self.db.executescript(_SCHEMA)

    # -- writing ------------------------------------------------------------------------
    def add(self, document_id: str, chunks: list[str], access: Access) -> list[DocumentChunk]:
        """Store a document's chunks under ``access`` (replacing an earlier version of the same
        document of the same tenant; another tenant's document id is refused)."""
        check_scope_id(document_id, "document_id")
        if not isinstance(access, Access):
            raise TypeError(f"access must be an Access, got {type(access).__name__}")
        if isinstance(chunks, str) or not chunks or not all(isinstance(c, str) and c.strip() for c in chunks):
            raise ValueError("chunks must be a non-empty list of non-empty strings")
        if any(len(c) > MAX_CHUNK_CHARS for c in chunks):
            raise ValueError(f"a chunk holds at most {MAX_CHUNK_CHARS} characters")
        owner = self.db.execute("SELECT tenant, owner FROM chunks WHERE collection = ? AND document_id = ? LIMIT 1",
                                [self.name, document_id]).fetchone()
        if owner is not None and tuple(owner) != (access.tenant, access.owner):
            raise DocumentAccessError(f"document_id {document_id!r} belongs to another tenant or owner; "
                                      "a document never changes hands: delete it and add a new one")
        vectors = self.embedder.embed(chunks)
        self.delete(document_id, access.tenant)
        stored, rows, metas = [], [], []
        self.db.execute("BEGIN")
        try:
            for n, text in enumerate(chunks):
                chunk = DocumentChunk(f"{document_id}#{n}", document_id, text, access)
                row = secrets.token_hex(16)
                self.db.execute("INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                [self.name, chunk.chunk_id, document_id, row, access.tenant, access.owner,
                                 "\n".join(sorted(access.groups)), int(access.tenant_wide), text])
                stored.append(chunk)
                rows.append(row)
                metas.append(self._scalars(access))
            self.collection.add(ids=rows, embeddings=vectors, metadatas=metas)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return stored

    def delete(self, document_id: str, tenant: str) -> int:
        """Forget a document of ``tenant``: its text (overwritten on disk), its vectors and
        its cached embeddings. Returns how many chunks went."""
        check_scope_id(document_id, "document_id")
        check_scope_id(tenant, "tenant")
        rows = self.db.execute("SELECT row_id, text FROM chunks WHERE collection = ? AND document_id = ? "
                               "AND tenant = ?", [self.name, document_id, tenant]).fetchall()
        if not rows:
            return 0
        self.db.execute("DELETE FROM chunks WHERE collection = ? AND document_id = ? AND tenant = ?",
                        [self.name, document_id, tenant])
        self.collection.delete(ids=[row for row, _ in rows])
        self.embedder.evict([text for _, text in rows])
        return len(rows)

    # -- reading ------------------------------------------------------------------------
    def search(self, query: str, caller: Caller, *, limit: int = 5) -> list[DocumentHit]:
        """The ``limit`` chunks nearest ``query`` among those ``caller`` may read; the scope is
        in the query itself, so other people's chunks never take a place in the top-k."""
        if not isinstance(caller, Caller):
            raise TypeError(f"caller must be a Caller, got {type(caller).__name__}")
        if not isinstance(query, str) or not query.strip():
            raise ValueError("query must be a non-empty string")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError("limit must be a positive integer")
        where = self._where(caller)
        if where is None:
            return []
        result = self.collection.query(query_embeddings=self.embedder.embed([query]), n_results=limit,
                                       where=where, include=["distances"])
        hits = []
        for row, distance in zip(result["ids"][0], result["distances"][0], strict=True):
            chunk = self._chunk(row)
            if chunk is not None and chunk.access.readable_by(caller):  # a second check, never the filter
                hits.append(DocumentHit(chunk, float(distance)))
        return hits

    def get(self, chunk_id: str, caller: Caller) -> DocumentChunk | None:
        """One chunk, or ``None`` when it does not exist *or the caller may not read it*."""
        row = self.db.execute("SELECT row_id FROM chunks WHERE collection = ? AND chunk_id = ?",
                              [self.name, chunk_id]).fetchone()
        chunk = self._chunk(row[0]) if row else None
        return chunk if chunk is not None and chunk.access.readable_by(caller) else None

    def count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM chunks WHERE collection = ?", [self.name]).fetchone()[0])

    # -- scope tokens -------------------------------------------------------------------
    def _token(self, name: str, *, create: bool) -> str | None:
        row = self.db.execute("SELECT token FROM doc_tokens WHERE collection = ? AND name = ?",
                              [self.name, name]).fetchone()
        if row is not None or not create:
            return row[0] if row else None
        token = secrets.token_hex(16)
        self.db.execute("INSERT INTO doc_tokens VALUES (?, ?, ?)", [self.name, name, token])
        return token

    def _scalars(self, access: Access) -> dict[str, Any]:
        scalars: dict[str, Any] = {"tenant": self._token(f"t\n{access.tenant}", create=True),
                                   "owner": self._token(f"o\n{access.tenant}\n{access.owner}", create=True),
                                   "tenant_wide": access.tenant_wide}
        for group in access.groups:
            scalars[f"g_{self._token(f'g{chr(10)}{access.tenant}{chr(10)}{group}', create=True)}"] = True
        return scalars

    def _where(self, caller: Caller) -> dict[str, Any] | None:
        tenant = self._token(f"t\n{caller.tenant}", create=False)
        if tenant is None:
            return None  # no document of this tenant exists
        readers: list[dict[str, Any]] = [{"tenant_wide": True}]
        owner = self._token(f"o\n{caller.tenant}\n{caller.user_id}", create=False)
        if owner is not None:
            readers.append({"owner": owner})
        for group in sorted(caller.groups):
            token = self._token(f"g\n{caller.tenant}\n{group}", create=False)
            if token is not None:
                readers.append({f"g_{token}": True})
        reader = readers[0] if len(readers) == 1 else {"$or": readers}
        return {"$and": [{"tenant": tenant}, reader]}

    def _chunk(self, row_id: str) -> DocumentChunk | None:
        row = self.db.execute("SELECT chunk_id, document_id, text, tenant, owner, groups, tenant_wide FROM chunks "
                              "WHERE collection = ? AND row_id = ?", [self.name, row_id]).fetchone()
        if row is None:
            return None
        chunk_id, document_id, text, tenant, owner, groups, tenant_wide = row
        access = Access(tenant, owner, frozenset(g for g in groups.split("\n") if g), bool(tenant_wide))
        return DocumentChunk(chunk_id, document_id, text, access)


def documents_beside(memories: Any) -> DocumentCollection:
    """The document collection beside a memory store; a clear error for stores that have none."""
    from memcourse.stores.chroma import ChromaMemoryStore

    if not isinstance(memories, ChromaMemoryStore):
        raise MemcourseError(f"{type(memories).__name__} has no document collection: documents need their own "
                             "collection with per-chunk access scopes, built for the embedded Chroma store only")
    return DocumentCollection(memories)


def remember_from_document(chunk: DocumentChunk, caller: Caller, policy: MemoryPolicy, *,
                           agent_id: str | None = None) -> PolicyDecision:
    """The only way a document's text becomes a memory: for a caller allowed to read it, through
    the write gate, as ``tool_observed`` text of that caller. The decision may well be "no"."""
    if not chunk.access.readable_by(caller):
        raise DocumentAccessError(f"{caller.user_id!r} may not read {chunk.chunk_id!r}")
    kwargs: dict[str, Any] = {} if agent_id is None else {"agent_id": agent_id}
    decision = policy.decide(chunk.text, source=Source.TOOL_OBSERVED, user_id=caller.user_id,
                             conversation_id=f"document:{chunk.chunk_id}", **kwargs)
    if decision.record is not None:
        decision.record.metadata["document_id"] = chunk.document_id
    return decision
