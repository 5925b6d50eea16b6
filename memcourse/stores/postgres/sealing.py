"""Crypto-shredding: forgetting that holds in a database which keeps old versions.

PostgreSQL never overwrites a row: ``DELETE`` marks it dead and the bytes stay in the heap page
until ``VACUUM`` reuses the space, in the write-ahead log until the segment is recycled, and in
every replica and backup for as long as they live. A ``forget`` that only deletes rows leaves
the text readable on disk (``tests/test_postgres_forget.py`` measures it with a canary).

So what a person wrote never reaches the database in clear. Each user has a random 32-byte
secret, kept **outside** the database in a small key file (SQLite with ``secure_delete``: a
deleted key's bytes are overwritten in place; a key kept *in* PostgreSQL would itself live on in
the WAL). From the secret three keys are derived (HKDF-SHA256):

- a content key: the whole record (subject, content, history, tags, metadata) is sealed with
  AES-256-GCM, bound to its memory id and user id (a sealed blob copied to another row fails);
- a token key: the keyword channel stores HMAC-SHA256 of each token (first 10 bytes), so the
  database can match ``keywords && ARRAY[...]`` without holding the words;
- a rotation: the embedding is multiplied by a random orthogonal matrix seeded by the secret
  (a signed permutation and eight Householder reflections).
  Cosine similarity is unchanged, so the HNSW index and the tenant-filtered search work as
  before, but the stored vector is not the model's vector of the text.

**Row keys.** A memory id can be derived from what the person said (the pipeline's
``entity:我的船叫_…`` ids, LangGraph's ``lg:<key>:…``), and an id in a plain column would outlive
the forget in the same heap pages and WAL. So the database never holds an id in clear either:
the row's key (``agent_memory.id``, ``superseded_by``, the postings' ``memory_id``, the advisory
locks) is ``HMAC-SHA256(id key, memory id)`` (first 16 bytes, hex), where the id key is derived
from one random secret of the *store*, kept in the same key file (:class:`RowKeys`). Lookups by
id compute the HMAC, so ``get(memory_id)`` needs no user; the clear id exists only inside the
sealed record (the user's content key), and the seal is bound to the row key. It is a store
secret and not the user's because a lookup by id does not know the user; the price: whoever
holds both the key file *and* a copy of the database can test a guessed id against old WAL.

Forgetting a user's last memory (or the user) destroys the secret: every copy of every row of
theirs, in heap pages, WAL, replicas and backups, becomes noise.

**What still leaks**, said plainly: the plain columns (user and agent ids, type, status,
timestamps, importance, access counts; the source conversation id is a keyed hash under the
user's token key); for one user, *which* of their
records share a token and how long each is in tokens (HMAC is deterministic per key, so
frequency analysis over many records of one user could guess common words); and while the key
lives, the rotated vectors keep the distances between one user's memories, and anyone who has
~384 (text, stored vector) pairs of one user could solve for the rotation. A rotation is a
mask, not encryption; the AES-GCM content is the part that stays secret. After the key is
destroyed none of these can be tied back to words. A memory forgotten while its user keeps
other memories is deleted (and its dead row vacuumed), but its sealed copy in old WAL and
backups stays decryptable with the user's surviving key: per-memory keys would close that,
at the price of a key file as large as the store.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any, Literal, cast, overload

import numpy as np
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from memcourse.stores.base import StoreError

__all__ = ["KeyStore", "RowKeys", "UserKeys", "TOKEN_BYTES", "ROW_KEY_BYTES"]

TOKEN_BYTES = 10
ROW_KEY_BYTES = 16
NONCE_BYTES = 12
#: Householder reflections in a user's rotation (see UserKeys.rotate).
REFLECTIONS = 8


def _derive(secret: bytes, purpose: bytes, length: int = 32) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None, info=b"memcourse/" + purpose).derive(secret)


class UserKeys:
    """The three keys of one user, derived from their secret."""

    def __init__(self, user_id: str, secret: bytes):
        self.user_id = user_id
        self._aead = AESGCM(_derive(secret, b"content"))
        self._token_key = _derive(secret, b"tokens")
        self._rotation_seed = _derive(secret, b"rotation")
        self._rotation: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def seal(self, row_key: str, record: dict[str, Any]) -> bytes:
        """``record`` encrypted, bound to its row (:class:`RowKeys`) and its user."""
        nonce = os.urandom(NONCE_BYTES)
        data = json.dumps(record, ensure_ascii=False, sort_keys=True).encode("utf-8")
        return nonce + self._aead.encrypt(nonce, data, self._bound(row_key))

    def open(self, row_key: str, sealed: bytes) -> dict[str, Any]:
        sealed = bytes(sealed)
        data = self._aead.decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], self._bound(row_key))
        return cast(dict[str, Any], json.loads(data.decode("utf-8")))  # sealed by seal(): a JSON object

    def _bound(self, row_key: str) -> bytes:
        return json.dumps([row_key, self.user_id]).encode("utf-8")

    def tag(self, value: str | None) -> str | None:
        """A keyed hash of a plain column's value (the source conversation id): equal values
        stay equal for this user, and nothing of the value is readable once the key is gone."""
        return None if value is None else self.tokens([value])[0]

    def tokens(self, tokens: list[str]) -> list[str]:
        """Keyed hashes of ``tokens``, in order, repeats kept (BM25 needs term frequencies)."""
        key = self._token_key
        return [hmac.new(key, token.encode("utf-8"), hashlib.sha256).hexdigest()[: 2 * TOKEN_BYTES] for token in tokens]

    def rotate(self, vectors: np.ndarray) -> np.ndarray:
        """``vectors`` (rows) times this user's orthogonal matrix: cosines between rotated
        vectors equal those between the originals. The matrix is a random signed permutation
        followed by :data:`REFLECTIONS` random Householder reflections (each ``x - 2u(u·x)``):
        orthogonal, O(d) to make and to apply. (A dense random rotation needs a QR of a d×d
        matrix: measured 6 s per user on a loaded 2-core machine.)"""
        vectors = np.asarray(vectors, dtype=np.float64)
        dim = vectors.shape[-1]
        if self._rotation is None or self._rotation[0].shape[0] != dim:
            generator = np.random.default_rng(np.frombuffer(self._rotation_seed, dtype=np.uint32))
            permutation = generator.permutation(dim)
            signs = generator.choice([-1.0, 1.0], size=dim)
            normals = generator.standard_normal((REFLECTIONS, dim))
            normals /= np.linalg.norm(normals, axis=1, keepdims=True)
            self._rotation = (permutation, signs, normals)
        permutation, signs, normals = self._rotation
        rotated = vectors[..., permutation] * signs
        for normal in normals:
            rotated = rotated - 2.0 * np.outer(rotated @ normal, normal).reshape(rotated.shape)
        return np.asarray(rotated, dtype=np.float32)


class RowKeys:
    """Memory id -> row key: ``HMAC-SHA256`` under the store's id key, first
    :data:`ROW_KEY_BYTES` bytes in hex (collisions need ~2**64 ids). Deterministic, so every
    process using the same key file finds the same row; :attr:`check` is the key of a fixed
    string, recorded in the schema so that a store opened with another key file is refused."""

    def __init__(self, secret: bytes):
        self._key = _derive(secret, b"row keys")
        self.check = self("memcourse/row-key-check")

    def __call__(self, memory_id: str) -> str:
        return hmac.new(self._key, memory_id.encode("utf-8"), hashlib.sha256).hexdigest()[: 2 * ROW_KEY_BYTES]


class KeyStore:
    """Per-user secrets in a SQLite file, shared by every process that uses the same path.

    ``secure_delete`` overwrites a deleted key's bytes in the file; the rollback journal (the
    default mode, not WAL) is deleted after each commit. The file must not be copied into the
    backups of the database it protects: a key kept next to the data shreds nothing.
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA secure_delete = ON")
            self._conn.execute("PRAGMA journal_mode = DELETE")
            self._conn.execute("CREATE TABLE IF NOT EXISTS user_keys (user_id TEXT PRIMARY KEY, secret BLOB NOT NULL)")
            self._conn.execute("CREATE TABLE IF NOT EXISTS store_keys (name TEXT PRIMARY KEY, secret BLOB NOT NULL)")
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot open the key store ({error})") from None
        self._lock = threading.Lock()
        if os.name != "nt":
            os.chmod(self.path, 0o600)

    @overload
    def get(self, user_id: str, *, create: Literal[True]) -> UserKeys: ...

    @overload
    def get(self, user_id: str, *, create: bool = False) -> UserKeys | None: ...

    def get(self, user_id: str, *, create: bool = False) -> UserKeys | None:
        """The user's keys; with ``create``, made (once, whichever process is first) if missing."""
        with self._lock:
            row = self._conn.execute("SELECT secret FROM user_keys WHERE user_id = ?", (user_id,)).fetchone()
            if row is None and create:  # a write only when the key is missing: commits fsync
                self._conn.execute("INSERT OR IGNORE INTO user_keys VALUES (?, ?)", (user_id, os.urandom(32)))
                row = self._conn.execute("SELECT secret FROM user_keys WHERE user_id = ?", (user_id,)).fetchone()
        return None if row is None else UserKeys(user_id, bytes(row[0]))

    def row_keys(self) -> RowKeys:
        """The store's row keys (its secret made once, by whichever process is first)."""
        select = "SELECT secret FROM store_keys WHERE name = 'row keys'"
        with self._lock:
            row = self._conn.execute(select).fetchone()
            if row is None:
                self._conn.execute("INSERT OR IGNORE INTO store_keys VALUES ('row keys', ?)", (os.urandom(32),))
                row = self._conn.execute(select).fetchone()
        return RowKeys(bytes(row[0]))

    def destroy(self, user_id: str) -> bool:
        """Delete the user's secret (overwritten in the file); returns whether there was one."""
        with self._lock:
            cursor = self._conn.execute("DELETE FROM user_keys WHERE user_id = ?", (user_id,))
        return cursor.rowcount > 0

    def close(self) -> None:
        with self._lock:
            self._conn.close()
