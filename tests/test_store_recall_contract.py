"""Recall configuration on every store kind: the store's default comes from its embedder's model
profile, a search's ``recall=`` ranks that call only, and queries are embedded as queries.

The first tests take the ``store`` fixture (every kind in ``conftest.STORE_KINDS``). The later
ones build the vector stores with an embedder whose vectors the test chooses (and which records
what it was asked to embed), so cosines are exact: "two memories at cosine 0.88" is a fact of
the test, not a hope about a model.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest

from memcourse.embeddings import E5_SMALL_MODEL, MINILM_MODEL, Embedder
from memcourse.embeddings.profiles import E5_SMALL, MINILM
from memcourse.recall.config import RecallConfig
from memcourse.records import MemoryRecord, MemoryType, Status
from memcourse.stores.contract import FUSION, MODES, capabilities_of

QUERY = "Phase4 memory Python 示例"


def make(clock, subject, content, memory_type=MemoryType.PREFERENCE, **kwargs):
    kwargs.setdefault("created_at", clock())
    return MemoryRecord(memory_type=memory_type, subject=subject, content=content, **kwargs)


@pytest.fixture
def seeded(store, clock):
    store.upsert(make(clock, "response_style", "Python code examples for the Phase4 memory work"))
    store.upsert(make(clock, "phase4_current_task", "Phase4 task: build the memory system in Python",
                      MemoryType.TASK, tags=["phase4"]))
    store.upsert(make(clock, "project_name", "The project is called memory-python-examples", MemoryType.ENTITY))
    clock.advance(days=20)
    return store


def ids(hits):
    return [hit.record.memory_id for hit in hits]


# -- every store kind ------------------------------------------------------------------------
def test_the_default_config_comes_from_the_stores_embedder(store):
    embedder = getattr(store, "embedder", None)
    expected = RecallConfig.for_profile(embedder) if embedder is not None else RecallConfig()
    assert store.recall == expected
    assert isinstance(store.recall, RecallConfig)


def test_a_per_call_config_changes_that_search_and_never_the_stores_default(seeded):
    default = seeded.recall
    full = seeded.search_hits(QUERY, record_access=False)
    assert len(full) == 3, "recall.limit (5) is the default limit; all three memories match"
    one = seeded.search_hits(QUERY, record_access=False, recall=replace(default, limit=1))
    assert ids(one) == ids(full)[:1], "the per-call config's limit"
    assert seeded.recall is default, "the store's default is the same object"
    assert ids(seeded.search_hits(QUERY, record_access=False)) == ids(full), "the next search ranks as before"
    explicit = seeded.search_hits(QUERY, limit=2, record_access=False, recall=replace(default, limit=1))
    assert len(explicit) == 2, "an explicit limit= wins over the config's"


def test_a_config_of_the_wrong_type_is_refused_before_anything_is_read_or_written(seeded):
    before = [(r.memory_id, r.access_count) for r in seeded.list_all()]
    with pytest.raises(TypeError, match="RecallConfig"):
        seeded.search(QUERY, recall={"limit": 1})
    with pytest.raises(ValueError, match="rrf_k"):
        seeded.search(QUERY, recall=replace(seeded.recall, rrf_k=-1))
    assert [(r.memory_id, r.access_count) for r in seeded.list_all()] == before


def test_per_call_fusion_decay_and_confidence_change_the_ranking(seeded, clock):
    if FUSION not in capabilities_of(seeded):
        pytest.skip(f"{type(seeded).__name__} ranks by keyword overlap only: of a RecallConfig it reads limit")
    seeded.upsert(make(clock, "guess", "Maybe Python for the Phase4 memory examples", confidence=0.5))
    default = seeded.recall
    weighted = seeded.search_hits(QUERY, record_access=False)
    assert "guess" not in [h.record.subject for h in weighted], "confidence 0.5 is below the gate's 0.6"
    lenient = seeded.search_hits(QUERY, record_access=False, recall=replace(default, min_confidence=0.4))
    assert "guess" in [h.record.subject for h in lenient], "the per-call gate admits it"

    rrf = seeded.search_hits(QUERY, record_access=False, recall=replace(default, fusion="rrf", rrf_k=1))
    assert {h.breakdown["fusion"] for h in rrf} == {"rrf"}
    assert [h.breakdown["fused"] for h in rrf] != [h.breakdown["fused"] for h in weighted]
    assert rrf[0].breakdown["fused"] > 0.5, "k = 1: rank 1 of one channel alone is worth 1/2"

    still = seeded.search_hits(QUERY, record_access=False, mode="keyword", recall=replace(default, decay_lambda=0))
    assert {h.breakdown["decay"] for h in still} == {1.0}, "no decay in this call"
    aged = seeded.search_hits(QUERY, record_access=False, mode="keyword")
    assert any(h.breakdown["decay"] < 1.0 for h in aged), "the store's own λ decays the 20-day-old task"
    assert seeded.recall is default and {h.breakdown["fusion"] for h in weighted} == {"weighted"}


def test_a_per_call_similarity_floor_cuts_the_vector_channel(seeded):
    if MODES not in capabilities_of(seeded):
        pytest.skip(f"{type(seeded).__name__} has no vector channel")
    found = seeded.search_hits("Python code examples", mode="vector", record_access=False)
    assert found, "the default floor lets the paraphrase through"
    strict = seeded.search_hits("Python code examples", mode="vector", record_access=False,
                                recall=replace(seeded.recall, similarity_floor=1.0))
    assert strict == [], "no stored text is the query itself"
    assert seeded.similarity_floor == seeded.recall.similarity_floor < 1.0


def test_setting_a_knob_attribute_replaces_the_default_config(store):
    if FUSION not in capabilities_of(store):
        pytest.skip("no settable fusion")
    before = store.recall
    store.fusion = "rrf"
    assert store.recall is not before and store.recall.fusion == "rrf" and before.fusion == "weighted"
    assert replace(store.recall, fusion="weighted") == before, "only that knob changed"
    with pytest.raises(ValueError, match="fusion"):
        store.fusion = "borda"
    assert store.recall.fusion == "rrf", "a refused value changes nothing"


# -- vector stores with chosen vectors -------------------------------------------------------
DIM = 384


def unit(*parts: tuple[int, float]) -> np.ndarray:
    vector = np.zeros(DIM, dtype=np.float32)
    for axis, value in parts:
        vector[axis] = value
    return vector / np.linalg.norm(vector)


def at_cosine(axis: int, other: int, cosine: float) -> np.ndarray:
    """A unit vector at ``cosine`` to the basis vector ``axis`` (the rest along ``other``)."""
    return unit((axis, cosine), (other, (1 - cosine**2) ** 0.5))


class ChosenVectors(Embedder):
    """An embedder whose vectors the test chooses (others: a hash, near-orthogonal to all), and
    which records which texts it embedded as documents and which as queries."""

    dimension = DIM

    def __init__(self, model: str, vectors: dict[str, np.ndarray]):
        super().__init__(model)
        self.vectors = vectors
        self.documents: list[str] = []
        self.queries: list[str] = []

    def _vector(self, text: str) -> np.ndarray:
        if text in self.vectors:
            return self.vectors[text]
        raw = np.frombuffer(hashlib.sha512(text.encode()).digest() * 6, dtype=np.uint8)[:DIM]
        return unit(*enumerate(raw.astype(np.float32) - 127.5))

    def _encode(self, texts):
        self.documents.extend(texts)
        return np.stack([self._vector(t) for t in texts])

    def _encode_queries(self, texts):
        self.queries.extend(texts)
        return np.stack([self._vector(t) for t in texts])

    def known_token_ratio(self, text):
        return 1.0


VECTOR_KINDS = ["chroma", "chroma-server", "postgres"]


def vector_store(kind, request, tmp_path, clock, embedder):
    from memcourse.stores.chroma import ChromaMemoryStore

    if kind == "chroma":
        return ChromaMemoryStore(tmp_path / "chroma", clock=clock, embedder=embedder)
    if kind == "chroma-server":
        import uuid

        client = request.getfixturevalue("chroma_server").client()
        return ChromaMemoryStore(client=client, collection=f"t-{uuid.uuid4().hex}", clock=clock, embedder=embedder)
    return request.getfixturevalue("make_postgres_store")(tmp_path, clock, embedder=embedder)


@pytest.mark.parametrize("kind", VECTOR_KINDS)
def test_queries_are_embedded_as_queries_and_memories_as_documents(kind, request, tmp_path, clock):
    embedder = ChosenVectors(E5_SMALL_MODEL, {})  # e5: asymmetric, a query gets its own prefix
    store = vector_store(kind, request, tmp_path, clock, embedder)
    stored = [make(clock, "office", "Alice works in the Berlin office"), make(clock, "tea", "Alice drinks green tea")]
    store.upsert_many(stored)
    question = "where does Alice work?"
    store.search_hits(question, record_access=False)
    assert question in embedder.queries and question not in embedder.documents
    assert all(r.content in embedder.documents and r.content not in embedder.queries for r in stored)
    past = "what did Alice drink back then?"
    store.search_hits(past, record_access=False, as_of=clock() + timedelta(seconds=1))
    assert past in embedder.queries and past not in embedder.documents, "as-of recall embeds the query as a query too"


def near_duplicate_pairs(clock):
    """(older, newer) preference pairs at cosine 0.88 and 0.95, each on its own axes."""
    texts = {
        "The user likes green tea in the morning": unit((10, 1.0)),
        "The user enjoys oolong tea with breakfast": at_cosine(10, 11, 0.88),
        "The user prefers dark mode in the editor": unit((20, 1.0)),
        "The user wants the editor in dark mode": at_cosine(20, 21, 0.95),
    }
    items = list(texts)
    pairs = {
        0.88: (make(clock, "tea_morning", items[0]), make(clock, "tea_breakfast", items[1])),
        0.95: (make(clock, "editor_theme", items[2]), make(clock, "editor_mode", items[3])),
    }
    return texts, pairs


@pytest.mark.parametrize("kind", VECTOR_KINDS)
@pytest.mark.parametrize("model, merged", [(E5_SMALL_MODEL, set()), (MINILM_MODEL, {0.95})])
def test_the_near_duplicate_threshold_is_the_models(kind, model, merged, request, tmp_path, clock):
    """e5's cosines sit high: two distinct memories at 0.88 or 0.95 are not the same fact for it
    (its threshold is 0.976). MiniLM's 0.92 logic is unchanged: 0.95 merges, 0.88 does not."""
    texts, pairs = near_duplicate_pairs(clock)
    store = vector_store(kind, request, tmp_path, clock, ChosenVectors(model, texts))
    profile = E5_SMALL if model == E5_SMALL_MODEL else MINILM
    assert store.dedupe_threshold == store.recall.dedupe_threshold == profile.dedupe_threshold
    for cosine, (older, newer) in pairs.items():
        store.upsert(older)
        clock.advance(minutes=1)
        store.upsert(newer)
        status = store.get(older.memory_id).status
        expected = Status.SUPERSEDED if cosine in merged else Status.ACTIVE
        assert status is expected, f"{model}: a pair at cosine {cosine} -> {status.value}, expected {expected.value}"
        assert store.get(newer.memory_id).status is Status.ACTIVE


@pytest.mark.parametrize("kind", VECTOR_KINDS)
def test_the_similarity_floor_is_the_models_and_a_call_may_lower_it(kind, request, tmp_path, clock):
    question = "which drink does the user like?"
    texts = {
        question: unit((0, 1.0)),
        "The user drinks jasmine tea": at_cosine(0, 1, 0.85),  # above e5's floor (0.795)
        "The user reads crime novels": at_cosine(0, 2, 0.70),  # e5: unrelated; MiniLM would count it
    }
    store = vector_store(kind, request, tmp_path, clock, ChosenVectors(E5_SMALL_MODEL, texts))
    assert store.similarity_floor == E5_SMALL.similarity_floor
    store.upsert_many([make(clock, "drink", "The user drinks jasmine tea"),
                       make(clock, "books", "The user reads crime novels")])
    found = store.search_hits(question, mode="vector", record_access=False)
    assert [h.record.subject for h in found] == ["drink"]
    assert found[0].breakdown["similarity"] == pytest.approx(0.85, abs=1e-5)
    lowered = store.search_hits(question, mode="vector", record_access=False,
                                recall=replace(store.recall, similarity_floor=MINILM.similarity_floor))
    assert [h.record.subject for h in lowered] == ["drink", "books"], "MiniLM's floor, for this call only"
    assert store.similarity_floor == E5_SMALL.similarity_floor
