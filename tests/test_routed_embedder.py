"""The routed MiniLM + USE embedder: a query's weights chosen by its script.

Routing by script (code-switched text, full-width Latin, text with no letters), the three-block
vectors' dot products (exactly MiniLM's scaled cosine for a Latin query, USE's for a Chinese
one), a pure-English store ranking exactly as MiniLM's, a store refusing to mix it with another
model, and hybrid recall across languages. The models load once per module; the vectors are real."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from memcourse.embeddings import (
    KNOWN_MODELS,
    MINILM_MODEL,
    MINILM_USE_MODEL,
    MINILM_USE_ROUTED_MODEL,
    PROFILES,
    USE_MULTILINGUAL_MODEL,
    Embedder,
    resolve_model,
)
from memcourse.embeddings import routed as routed_module
from memcourse.embeddings.routed import DOCUMENT_WEIGHTS, FLOOR, ROUTES, RoutedBackend, route_of, script_counts


@pytest.fixture(scope="module")
def routed() -> Embedder:
    return Embedder("minilm+use-routed")


@pytest.fixture(scope="module")
def halves() -> tuple[Embedder, Embedder]:
    return Embedder(MINILM_MODEL), Embedder(USE_MULTILINGUAL_MODEL)


@pytest.mark.parametrize("text, route", [
    ("What does the user drink in the morning?", "latin"),
    ("Café au lait, naïve résumé", "latin"),  # accented Latin is Latin
    ("ＰＯＳＴＧＲＥＳ backup", "latin"),  # full-width Latin is Latin after NFKC
    ("用户早上喝什么？", "other"),
    ("ユーザーは何を飲みますか", "other"),  # kana
    ("사용자는 무엇을 마십니까", "other"),  # Hangul
    ("Что пьёт пользователь?", "other"),  # a script MiniLM does not read either
    ("我在用 Python 写 memory agent", "mixed"),  # code-switched
    ("ＰＯＳＴＧＲＥＳ 怎么备份", "mixed"),
    ("2024-05-01 14:00", "mixed"),  # no letters: no script to prefer
])
def test_the_route_follows_the_script(text, route):
    assert route_of(text) == route


def test_script_counts_count_latin_words_and_other_letters():
    assert script_counts("我在用 Python 写 memory agent") == (3, 4)
    assert script_counts("ｄｏｃｋｅｒ-compose up") == (3, 0)
    assert script_counts("") == (0, 0)


def test_it_is_a_named_model_with_its_own_id_and_profile(routed):
    assert MINILM_USE_ROUTED_MODEL in KNOWN_MODELS and MINILM_USE_ROUTED_MODEL != MINILM_USE_MODEL
    assert resolve_model("minilm+use-routed") == MINILM_USE_ROUTED_MODEL == resolve_model("Routed")
    assert isinstance(routed.backend, RoutedBackend) and routed.asymmetric
    assert routed.dimension == 384 + 2 * 512
    profile = routed.profile
    assert PROFILES[MINILM_USE_ROUTED_MODEL] is profile and profile.calibrated and profile.reads_cjk
    a, b = DOCUMENT_WEIGHTS
    assert math.isclose(a * a + b * b, 1.0)
    # One floor means each model's own on its route: MiniLM's on the Latin one, USE's on the other.
    assert routed_module.MINILM_FLOOR == PROFILES[MINILM_MODEL].similarity_floor
    assert routed_module.USE_FLOOR == PROFILES[USE_MULTILINGUAL_MODEL].similarity_floor
    assert math.isclose(a / math.sqrt(2) * PROFILES[MINILM_MODEL].similarity_floor,
                        b * PROFILES[USE_MULTILINGUAL_MODEL].similarity_floor)
    assert profile.similarity_floor == round(FLOOR, 3)
    from memcourse.recall.config import RecallConfig

    assert RecallConfig.for_profile("minilm+use-routed").similarity_floor == profile.similarity_floor


def test_a_code_switched_query_minilm_cannot_read_goes_the_use_way(routed):
    assert routed.backend.routes(["I use Python and Go", "我在用 Python 写 memory agent", "代码示例用 Go 语言"]) == \
        ["latin", "mixed", "other"]


def test_the_dot_products_are_each_routes_weighted_cosines(routed, halves):
    minilm, use = halves
    docs = ["The user drinks green tea every morning", "用户每天早上喝绿茶"]
    queries = ["what does the user drink in the morning", "用户早上喝什么", "我在用 Python 写 memory agent"]
    d, q = routed.embed(docs), routed.embed_queries(queries)
    assert np.allclose(np.linalg.norm(d, axis=1), 1, atol=1e-5) and np.allclose(np.linalg.norm(q, axis=1), 1, atol=1e-5)
    cos_m = minilm.embed(queries) @ minilm.embed(docs).T
    cos_u = use.embed(queries) @ use.embed(docs).T
    scores = q @ d.T
    a, b = DOCUMENT_WEIGHTS
    # Latin query: MiniLM's cosine on the English memory, USE's on the Chinese one, on one scale.
    assert np.allclose(scores[0], [cos_m[0, 0] * a / math.sqrt(2), cos_u[0, 1] * a / math.sqrt(2)], atol=1e-5)
    # Chinese query: USE's cosine on both, whatever the memory's language.
    assert np.allclose(scores[1], cos_u[1] * b, atol=1e-5)
    assert np.allclose(ROUTES["other"], (0, 1, 0))
    # A code-switched query MiniLM reads: both models on the English memory, USE (doubled) on the Chinese one.
    assert routed.backend.routes(queries[2:]) == ["mixed"]
    assert np.allclose(scores[2], [(a * cos_m[2, 0] + b * cos_u[2, 0]) / math.sqrt(3),
                                   (a + b) * cos_u[2, 1] / math.sqrt(3)], atol=1e-5)


def test_a_pure_english_store_ranks_exactly_as_minilm(tmp_path, routed):
    from memcourse.records import MemoryRecord, MemoryType
    from memcourse.stores.chroma import ChromaMemoryStore

    memories = ["The user drinks green tea every morning", "Commutes to work by bicycle",
                "Allergic to penicillin; tells every new doctor", "Plays guitar on Saturday afternoons",
                "Moved to a small house by the sea last month", "Takes the bus to the office on rainy days",
                "Prefers short answers with code examples", "Their daughter is called Ana"]
    queries = ["what does the user drink", "how do they get to work", "which medicine must be avoided",
               "what music does the user play", "where do they live now"]
    rankings = {}
    for name, embedder in (("minilm", Embedder("minilm")), ("routed", routed)):
        store = ChromaMemoryStore(tmp_path / name, embedder=embedder)
        store.upsert_many([MemoryRecord(MemoryType.ENTITY, f"note_{i}", text, user_id="ana")
                           for i, text in enumerate(memories)])
        rankings[name] = [[h.content for h in store.search(q, user_id="ana", mode=mode, limit=8)]
                          for q in queries for mode in ("vector", "hybrid")]
        store.close()
    assert rankings["routed"] == rankings["minilm"]  # the same memories in the same order


def test_a_store_refuses_to_mix_it_with_another_model(tmp_path, routed):
    from memcourse.records import MemoryRecord, MemoryType
    from memcourse.stores.base import StoreError
    from memcourse.stores.chroma import ChromaMemoryStore

    store = ChromaMemoryStore(tmp_path / "db", embedder=routed)
    store.upsert(MemoryRecord(MemoryType.ENTITY, "exercise", "每天早上跑步", user_id="mei"))
    store.close()
    for other in ("minilm", "minilm+use"):
        with pytest.raises(StoreError, match=re.escape(f"built with embedding model '{MINILM_USE_ROUTED_MODEL}'")):
            ChromaMemoryStore(tmp_path / "db", embedder=Embedder(other))
    composite_store = ChromaMemoryStore(tmp_path / "composite", embedder=Embedder("minilm+use"))
    composite_store.upsert(MemoryRecord(MemoryType.ENTITY, "exercise", "runs every morning", user_id="mei"))
    composite_store.close()
    with pytest.raises(StoreError, match=re.escape(f"built with embedding model '{MINILM_USE_MODEL}'")):
        ChromaMemoryStore(tmp_path / "composite", embedder=routed)


def test_hybrid_recall_crosses_languages_both_ways(tmp_path, routed):
    from memcourse.records import MemoryRecord, MemoryType
    from memcourse.stores.chroma import ChromaMemoryStore

    memories = ["每天早上跑步", "Allergic to penicillin; tells every new doctor", "每周六下午去上吉他课",
                "妈妈有高血压，每天早上要吃降压药", "家里的橘猫叫豆豆，特别怕吸尘器",
                "Moved to a small house by the sea last month", "Takes the bus to the office on rainy days"]
    store = ChromaMemoryStore(tmp_path / "db", embedder=routed)
    store.upsert_many([MemoryRecord(MemoryType.ENTITY, f"note_{i}", t, user_id="mei") for i, t in enumerate(memories)])
    assert store.search("我晨练的习惯是什么", user_id="mei", mode="hybrid", limit=3)[0].content == memories[0]
    assert store.search("我对什么药过敏？", user_id="mei", mode="hybrid", limit=3)[0].content == memories[1]
    assert store.search("what is the cat called", user_id="mei", mode="hybrid", limit=3)[0].content == memories[4]
