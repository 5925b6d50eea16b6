"""Passages: a memory of several sentences is also scored by its best sentence, in context.

Unit tests for the splitting, the label and the formula, then the store: a turn whose answer
is buried in small talk must outrank a single sentence that is merely on the topic, in every
vector-using mode; forgetting must take the passages' cached vectors and readability with it.
"""

from __future__ import annotations

import contextlib
import sqlite3

import pytest

from memcourse.embeddings import Embedder, cache_key
from memcourse.recall.hybrid import MIN_KNOWN_TOKENS
from memcourse.recall.passages import (
    MAX_PASSAGES,
    PASSAGE_WEIGHT,
    best_passage_similarity,
    label,
    passage_similarity,
    passage_texts,
    passages,
    sentences,
)
from memcourse.records import MemoryRecord, MemoryType
from memcourse.stores.chroma import ChromaMemoryStore
from memcourse.stores.chroma.embedded import DB_FILE


# -- splitting ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, expected",
    [
        ("One fact only", []),
        ("One fact only.", []),
        ("First. Second!  Third?", ["First.", "Second!", "Third?"]),
        ("Wait… what? Really.", ["Wait…", "what?", "Really."]),
        ("用户喜欢短回答。周五交报告！要不要提醒？", ["用户喜欢短回答。", "周五交报告！", "要不要提醒？"]),
        ("Mixed 中文句子。Then English.", ["Mixed 中文句子。", "Then English."]),
        ("line one\nline two\r\n\r\nline three", ["line one", "line two", "line three"]),
        # numbers, versions, abbreviations without a space and addresses stay whole
        ("Upgrade to Python 3.11.6 by 5.5 pm", []),
        ("See https://example.com/a.b?c=d for details", []),
        ("Costs $4.99, i.e.less than last year", []),
        ("   ", []),
        ("", []),
    ],
)
def test_sentences_split_where_sentences_end_in_either_script(text, expected):
    assert sentences(text) == expected


def test_sentences_needs_text():
    with pytest.raises(TypeError):
        sentences(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Tim: Hi! Fantasy books.", "Tim"),
        ("Ticket SUP-7: closed. Customer happy.", "Ticket SUP-7"),
        ("用户：喜欢短回答。不要表情。", "用户"),
        ("  Dr Chen : call back. Soon.", "Dr Chen"),
        ("Meet at 10:30. Bring slides.", None),  # a time is not a label
        ("https://x.io is down. Again.", None),  # nor is a scheme
        ("No label here. None at all.", None),
        ("It ended. Then: a surprise.", None),  # a colon after a sentence end labels nothing
        ("A label much longer than forty characters in all: x. y.", None),
    ],
)
def test_label_is_what_a_text_opens_with(text, expected):
    assert label(text) == expected


def test_every_passage_keeps_the_texts_label():
    assert passages("Tim: Hi John! I've been reading fantasy books. Loving it.") == [
        "Tim: Hi John!",
        "Tim: I've been reading fantasy books.",
        "Tim: Loving it.",
    ]
    assert passages("用户：周末去爬山。开始学大提琴。") == ["用户：周末去爬山。", "用户: 开始学大提琴。"]
    assert passages("No label. Two sentences.") == ["No label.", "Two sentences."]
    assert passages("Tim: just one sentence.") == []
    assert passage_texts(["a. b.", "c", "Tim: d. e."]) == ["a.", "b.", "Tim: d.", "Tim: e."]


def test_a_long_text_has_at_most_max_passages_covering_every_sentence_in_order():
    text = "Log: " + " ".join(f"Step {i} done." for i in range(1, 101))
    got = passages(text)
    assert len(got) == MAX_PASSAGES
    assert all(p.startswith("Log: ") for p in got)
    words = " ".join(p.removeprefix("Log: ") for p in got)
    assert words == " ".join(f"Step {i} done." for i in range(1, 101))
    sizes = [p.count("done.") for p in got]
    assert max(sizes) - min(sizes) <= 1  # runs of nearly equal length
    exactly = " ".join(f"S{i}." for i in range(MAX_PASSAGES))
    assert passages(exactly) == sentences(exactly)  # at the bound nothing is grouped


# -- the formula ----------------------------------------------------------------------------
@pytest.mark.parametrize("whole", [-0.2, 0.0, 0.31, 0.5, 0.9])
@pytest.mark.parametrize("best", [None, -0.1, 0.0, 0.3, 0.6, 1.0])
def test_passage_similarity_never_lowers_the_whole_and_never_passes_the_best(whole, best):
    mixed = passage_similarity(whole, best)
    if best is None:
        assert mixed == whole
        return
    assert mixed >= whole - 1e-12
    assert mixed <= max(whole, best) + 1e-12
    if best > whole:
        assert mixed == pytest.approx(PASSAGE_WEIGHT * whole + (1 - PASSAGE_WEIGHT) * best)


# -- with the real model --------------------------------------------------------------------
QUERY = "When did Maria start learning the cello?"
ANSWER = ("Maria: Sorry for the late reply, the week was a blur. Work was hectic and the kids had the flu. "
          "Oh, and I started learning the cello last month!")
ON_TOPIC = "Maria: Our neighbour plays the cello beautifully, we hear her every night."


@pytest.fixture
def embedder() -> Embedder:
    """The English model: it leaves Chinese unread, which the tests of skipping need."""
    return Embedder("minilm")


def test_the_buried_answer_passes_the_on_topic_sentence_only_with_passages(embedder):
    """The premise of the module, measured: by whole-text cosine the single on-topic sentence
    wins; by passage similarity the turn that answers does."""
    query = embedder.embed_one(QUERY)
    whole = dict(zip(("answer", "topic"), (embedder.embed([ANSWER, ON_TOPIC]) @ query).tolist(), strict=True))
    best = best_passage_similarity(query, {"answer": ANSWER, "topic": ON_TOPIC}, embedder, min_known=MIN_KNOWN_TOKENS)
    assert set(best) == {"answer"}  # one sentence: no passages
    assert whole["topic"] > whole["answer"]
    assert passage_similarity(whole["answer"], best["answer"]) > passage_similarity(whole["topic"], None)


def test_unreadable_passages_take_no_part(embedder):
    """A sentence the model cannot read has a vector that means nothing: skipped."""
    query = embedder.embed_one("What does the user like?")
    text = "The user likes tea. 用户喜欢短回答而且不喜欢表情符号"
    [readable, unreadable] = passages(text)
    assert embedder.known_token_ratio(unreadable) < MIN_KNOWN_TOKENS <= embedder.known_token_ratio(readable)
    got = best_passage_similarity(query, {"m": text}, embedder, min_known=MIN_KNOWN_TOKENS)
    assert got["m"] == pytest.approx(float(embedder.embed_one(readable) @ query), abs=1e-6)
    only_unreadable = best_passage_similarity(query, {"m": "用户喜欢短回答。不喜欢表情符号。"}, embedder,
                                              min_known=MIN_KNOWN_TOKENS)
    assert only_unreadable == {}


def test_known_token_ratios_match_one_at_a_time_and_are_forgotten(embedder):
    texts = ["The user likes tea", "用户喜欢短回答", "Phase4 memory", ""]
    batch = embedder.known_token_ratios(texts)
    assert batch == [Embedder("minilm").known_token_ratio(t) for t in texts]
    assert embedder.known_token_ratios(texts) == batch  # remembered, the same
    key = cache_key(embedder.model_id, texts[0])
    assert key in embedder._ratios
    embedder.forget(texts[0])
    assert key not in embedder._ratios
    embedder.evict()
    assert not embedder._ratios
    with pytest.raises(TypeError):
        embedder.known_token_ratios("one text")  # type: ignore[arg-type]


def test_a_subclass_readability_rule_is_used_for_batches_too():
    class Lenient(Embedder):
        def known_token_ratio(self, text):
            return 1.0

    assert Lenient().known_token_ratios(["用户喜欢短回答", "x"]) == [1.0, 1.0]


# -- in the store ---------------------------------------------------------------------------
@pytest.fixture
def store(tmp_path, clock):
    store = ChromaMemoryStore(tmp_path / "db", clock=clock)
    for subject, content in (("answer", ANSWER), ("topic", ON_TOPIC),
                             ("other", "Maria: I practise every evening after dinner.")):
        store.upsert(MemoryRecord(MemoryType.EVENT, subject, content, created_at=clock()))
    return store


@pytest.mark.parametrize("mode", ["vector", "hybrid"])
def test_the_store_ranks_the_answer_first_by_its_best_passage(store, mode):
    hits = store.search_hits(QUERY, limit=3, mode=mode, record_access=False)
    assert hits[0].record.subject == "answer"
    by_subject = {h.record.subject: h for h in hits}
    # the breakdown reports the similarity that was ranked on: above the whole text's cosine
    whole = float(store.embedder.embed_one(ANSWER) @ store.embedder.embed_query(QUERY))
    assert by_subject["answer"].breakdown["similarity"] > whole + 0.05


def test_as_of_search_scores_passages_too(store, clock):
    hits = store.search_hits(QUERY, limit=3, mode="vector", record_access=False, as_of=clock())
    assert hits[0].record.subject == "answer"


def test_writing_warms_and_forgetting_clears_the_passage_cache(store):
    answer = next(r for r in store.list_all() if r.subject == "answer")
    pieces = passages(answer.content)
    assert pieces and all(store.embedder.is_cached(p) for p in pieces)  # warmed at write
    store.search_hits(QUERY, limit=3, mode="vector", record_access=False)
    keys = {cache_key(store.embedder.model_id, p) for p in pieces}
    assert keys & set(store.embedder._ratios)
    assert store.forget(answer.memory_id)
    assert not any(store.embedder.is_cached(p) for p in pieces)
    assert not keys & set(store.embedder._ratios)
    assert not keys & set(store.embedder.cached_keys())


def test_an_updated_text_is_scored_by_its_new_passages(store):
    answer = next(r for r in store.list_all() if r.subject == "answer")
    answer.content = "Maria: The week was a blur. Work was hectic. Nothing else new."
    store.upsert(answer)
    hits = store.search_hits(QUERY, limit=3, mode="vector", record_access=False)
    assert hits[0].record.subject != "answer"


# -- kept next to the record (embedded store) ------------------------------------------------
def _reopened(tmp_path, clock):
    """The store of the ``store`` fixture, opened again by a fresh process-like embedder whose
    only cached vector is the question's."""
    embedder = Embedder()
    embedder.embed_queries([QUERY])
    embedder.reset_stats()
    return ChromaMemoryStore(tmp_path / "db", clock=clock, embedder=embedder), embedder


def test_a_reopened_store_reads_passage_vectors_instead_of_embedding_them(store, tmp_path, clock):
    store.close()
    reopened, embedder = _reopened(tmp_path, clock)
    hits = reopened.search_hits(QUERY, limit=3, mode="vector", record_access=False)
    assert hits[0].record.subject == "answer"
    assert embedder.stats.model_calls == 0, "passage vectors came from the record database"


def test_a_row_without_stored_passages_is_computed_and_still_ranked(store, tmp_path, clock):
    """Databases written before passages were kept (the column is NULL) still rank by them."""
    answer = next(r for r in store.list_all() if r.subject == "answer")
    store.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "db" / DB_FILE)) as db:
        db.execute("UPDATE records SET passages = NULL")
        db.commit()
    reopened, embedder = _reopened(tmp_path, clock)
    assert reopened._records.passage_vectors([answer.memory_id], embedder.dimension) == {}
    hits = reopened.search_hits(QUERY, limit=3, mode="vector", record_access=False)
    assert hits[0].record.subject == "answer"
    assert embedder.stats.model_calls >= 1, "computed, since none were stored"


def test_stored_passages_follow_the_text_and_go_with_the_record(store):
    dim = store.embedder.dimension
    answer = next(r for r in store.list_all() if r.subject == "answer")
    stored = store._records.passage_vectors([answer.memory_id], dim)[answer.memory_id]
    assert stored.shape == (len(passages(ANSWER)), dim)
    expected = store.embedder.embed(passages(ANSWER))
    assert abs(stored - expected).max() < 1e-6
    answer.content = "Maria: Nothing new this week."  # one sentence: no passages any more
    store.upsert(answer)
    assert store._records.passage_vectors([answer.memory_id], dim) == {}
    answer.content = "Maria: Busy week. I started the cello!"
    store.upsert(answer)
    assert store._records.passage_vectors([answer.memory_id], dim)[answer.memory_id].shape == (2, dim)
    assert store.forget(answer.memory_id)
    assert store._records.passage_vectors([answer.memory_id], dim) == {}


def test_only_readable_passages_are_stored(tmp_path, clock):
    store = ChromaMemoryStore(tmp_path / "zh", clock=clock, embedder=Embedder("minilm"))  # reads no Chinese
    text = "The user likes green tea in the morning and strong coffee after a long lunch. 用户喜欢短回答"
    assert store.embedder.known_token_ratio(text) >= MIN_KNOWN_TOKENS
    [record] = store.upsert_many([MemoryRecord(MemoryType.EVENT, "mixed", text, created_at=clock())])
    assert store._records.passage_vectors([record.memory_id], 384)[record.memory_id].shape == (1, 384)
    [chinese] = store.upsert_many([MemoryRecord(MemoryType.EVENT, "zh", "用户喜欢短回答。不喜欢表情符号。",
                                                created_at=clock())])
    assert store._records.passage_vectors([chinese.memory_id], 384) == {}  # unreadable text: none computed


def test_a_server_store_ranks_by_passages_through_the_cache(chroma_server, clock):
    import uuid

    server = ChromaMemoryStore(client=chroma_server.client(), collection=f"t-{uuid.uuid4().hex}", clock=clock)
    for subject, content in (("answer", ANSWER), ("topic", ON_TOPIC)):
        server.upsert(MemoryRecord(MemoryType.EVENT, subject, content, created_at=clock()))
    assert server._records.passage_vectors([r.memory_id for r in server.list_all()], server.embedder.dimension) == {}
    hits = server.search_hits(QUERY, limit=2, mode="vector", record_access=False)
    assert hits[0].record.subject == "answer"
