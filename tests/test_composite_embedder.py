"""The MiniLM + USE composite embedder: one vector space whose cosine is exactly
``w · cos_MiniLM + (1 - w) · cos_USE``. It loads offline, reads Chinese through its USE half,
has its own calibrated profile, never shares a collection with another model, and finds a
Chinese paraphrase with no shared word (and an English memory from a Chinese question).

The models load once per module; the vectors are real."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from memcourse.embeddings import (
    KNOWN_MODELS,
    MINILM_MODEL,
    MINILM_USE_MODEL,
    PROFILES,
    USE_MULTILINGUAL_MODEL,
    Embedder,
    profile_for,
    resolve_model,
)
from memcourse.embeddings.composite import MINILM_USE_DROP_UNREAD, MINILM_USE_WEIGHT, CompositeBackend, composite_id
from memcourse.text import keyword_tokens

TEXTS = ["the user likes green tea", "用户喜欢喝绿茶", "Commutes to work by bicycle", "每天早上跑步",
         "代码示例用 Go 语言"]


@pytest.fixture(scope="module")
def composite() -> Embedder:
    return Embedder("minilm+use")


@pytest.fixture(scope="module")
def halves() -> tuple[Embedder, Embedder]:
    return Embedder(MINILM_MODEL), Embedder(USE_MULTILINGUAL_MODEL)


def test_the_composite_is_a_named_model_with_a_stable_id():
    assert MINILM_USE_MODEL in KNOWN_MODELS
    assert resolve_model("minilm+use") == MINILM_USE_MODEL == resolve_model("MiniLM+USE-multilingual")
    assert resolve_model(composite_id(MINILM_USE_WEIGHT, MINILM_USE_DROP_UNREAD)) == MINILM_USE_MODEL
    assert resolve_model(f"{MINILM_USE_MODEL}@w={MINILM_USE_WEIGHT:g}") == MINILM_USE_MODEL  # one space, one id
    other = resolve_model(f"{MINILM_USE_MODEL}@w=0.35,keep-unread")
    assert other != MINILM_USE_MODEL  # another weight is another space, so another collection
    weighted = Embedder(other).backend
    assert isinstance(weighted, CompositeBackend) and weighted.weights[0] == (MINILM_MODEL, 0.35)
    assert not weighted.drop_unread and Embedder(MINILM_USE_MODEL).backend.drop_unread is MINILM_USE_DROP_UNREAD
    assert not profile_for(other).calibrated  # only the registered variant has measured constants
    for bad in ("@w=1.5", "@w=abc", "@w=0.5,sometimes"):
        with pytest.raises(ValueError, match="weight|expected"):
            Embedder(MINILM_USE_MODEL + bad)


def test_it_loads_offline_and_embeds_chinese_and_english(composite):
    vectors = composite.embed(TEXTS)
    assert vectors.shape == (len(TEXTS), 384 + 512) == (len(TEXTS), composite.dimension)
    assert vectors.dtype == np.float32 and np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.allclose(composite.embed_one(TEXTS[1]), vectors[1], atol=1e-6)  # batch and single agree
    assert np.array_equal(composite.embed_query(TEXTS[0]), vectors[0])  # symmetric: a query is a document
    assert composite.embed([]).shape == (0, composite.dimension)


def cosines(embedder, texts):
    vectors = embedder.embed(texts)
    return vectors @ vectors.T


def test_its_cosine_is_the_weighted_sum_of_the_two_models_cosines(composite, halves):
    minilm, use = halves
    w = MINILM_USE_WEIGHT
    english = [t for t in TEXTS if minilm.known_token_ratio(t) >= 0.5]  # texts both halves read
    assert len(english) == 2
    assert np.allclose(cosines(composite, english), w * cosines(minilm, english) + (1 - w) * cosines(use, english),
                       atol=1e-5)
    # the plain concatenation: the identity holds for every text, at any weight
    plain = CompositeBackend("x", weights=((MINILM_MODEL, 0.8), (USE_MULTILINGUAL_MODEL, 0.2)), parts=list(halves))
    v = plain.encode(TEXTS)
    assert np.allclose(v @ v.T, 0.8 * cosines(minilm, TEXTS) + 0.2 * cosines(use, TEXTS), atol=1e-5)


def test_dropping_the_unread_half_leaves_use_alone_on_chinese(halves):
    minilm, use = halves
    dropped = CompositeBackend("x", weights=((MINILM_MODEL, 0.6), (USE_MULTILINGUAL_MODEL, 0.4)), parts=list(halves),
                               drop_unread=True)
    zh_a, zh_b, en = "用户喜欢喝绿茶", "每天早上跑步", "the user likes green tea"
    v = dropped.encode([zh_a, zh_b, en])
    assert np.allclose(v[:2, :384], 0.0)  # MiniLM reads [UNK]s: its half is left out
    u = use.embed([zh_a, zh_b, en])
    assert math.isclose(float(v[0] @ v[1]), float(u[0] @ u[1]), abs_tol=1e-5)  # Chinese/Chinese: cos_USE
    assert math.isclose(float(v[0] @ v[2]), math.sqrt(0.4) * float(u[0] @ u[2]), abs_tol=1e-5)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    nothing = dropped.encode(["🙂🙂"])  # a text neither part reads keeps both halves, not a zero vector
    assert math.isclose(float(np.linalg.norm(nothing)), 1.0, abs_tol=1e-5)


def test_weights_must_sum_to_one_and_parts_match():
    with pytest.raises(ValueError, match="sum to 1"):
        CompositeBackend("x", weights=((MINILM_MODEL, 0.7), (USE_MULTILINGUAL_MODEL, 0.7)))
    with pytest.raises(ValueError, match="same order"):
        CompositeBackend("x", weights=((MINILM_MODEL, 0.5), (USE_MULTILINGUAL_MODEL, 0.5)),
                         parts=[Embedder(USE_MULTILINGUAL_MODEL), Embedder(MINILM_MODEL)])


def test_it_reads_chinese_through_the_use_half_and_holds_one_copy(composite, halves):
    minilm, _ = halves
    assert minilm.known_token_ratio("用户喜欢简短的回答") < 0.5  # MiniLM alone sees [UNK]s
    assert composite.known_token_ratio("用户喜欢简短的回答") >= composite.profile.min_known_tokens
    assert composite.reads_cjk
    composite.embed(["一段只为这个测试写的句子"])
    assert all(part.cached_keys() == [] for part in composite.backend.parts)  # the parts cache nothing
    assert composite.forget("一段只为这个测试写的句子") is True  # so forgetting drops every copy


def test_its_calibrated_profile_loads(composite):
    profile = composite.profile
    assert PROFILES[MINILM_USE_MODEL] is profile and profile.calibrated and profile.reads_cjk
    assert profile.model_id == MINILM_USE_MODEL
    from memcourse.recall.config import RecallConfig

    config = RecallConfig.for_profile("minilm+use")
    assert config.model_id == MINILM_USE_MODEL and config.similarity_floor == profile.similarity_floor
    assert config.dedupe_threshold == profile.dedupe_threshold and config.vector_sharpen == profile.vector_sharpen


def test_a_store_refuses_to_mix_it_with_another_model(tmp_path, composite):
    from memcourse.records import MemoryRecord, MemoryType
    from memcourse.stores.base import StoreError
    from memcourse.stores.chroma import ChromaMemoryStore

    store = ChromaMemoryStore(tmp_path / "db", embedder=composite)
    store.upsert(MemoryRecord(MemoryType.ENTITY, "exercise", "每天早上跑步", user_id="mei"))
    store.close()
    for other in ("minilm", "use-multilingual"):
        with pytest.raises(StoreError, match=re.escape(f"built with embedding model '{MINILM_USE_MODEL}'")):
            ChromaMemoryStore(tmp_path / "db", embedder=Embedder(other))
    minilm_store = ChromaMemoryStore(tmp_path / "minilm", embedder=Embedder("minilm"))
    minilm_store.upsert(MemoryRecord(MemoryType.ENTITY, "exercise", "runs every morning", user_id="mei"))
    minilm_store.close()
    with pytest.raises(StoreError, match=re.escape(f"built with embedding model '{MINILM_MODEL}'")):
        ChromaMemoryStore(tmp_path / "minilm", embedder=composite)


MEMORY = "每天早上跑步"
PARAPHRASE = "我晨练的习惯是什么"
ENGLISH_MEMORY = "Allergic to penicillin; tells every new doctor"
DISTRACTORS = [
    "每周六下午去上吉他课",
    "妈妈有高血压，每天早上要吃降压药",
    "阳台上种了番茄和薄荷，每两天浇一次水",
    "拒绝了深圳那家公司的录用",
    "家里的橘猫叫豆豆，特别怕吸尘器",
    "Moved to a small house by the sea last month",
    "Takes the bus to the office on rainy days",
]


def test_hybrid_recall_finds_a_chinese_paraphrase_with_no_shared_word(tmp_path, composite):
    from memcourse.records import MemoryRecord, MemoryType
    from memcourse.stores.chroma import ChromaMemoryStore

    assert not set(keyword_tokens(PARAPHRASE)) & set(keyword_tokens(MEMORY))  # nothing for BM25 to match
    store = ChromaMemoryStore(tmp_path / "db", embedder=composite)
    store.upsert_many([MemoryRecord(MemoryType.ENTITY, f"note_{i}", text, user_id="mei")
                       for i, text in enumerate([MEMORY, ENGLISH_MEMORY, *DISTRACTORS])])
    found = store.search(PARAPHRASE, user_id="mei", mode="hybrid", limit=3)
    assert found and found[0].content == MEMORY
    across = store.search("我对什么药过敏？", user_id="mei", mode="hybrid", limit=3)  # a Chinese question
    assert across and across[0].content == ENGLISH_MEMORY  # finds the English memory through the USE half
