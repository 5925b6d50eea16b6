"""The recall explorer: move λ, RRF k, the limit, the mode and the fusion, watch the ranking change.

:func:`recall_explorer_view` is the plain function (tests call it): it runs one hybrid,
vector or keyword search and returns one dict per hit with every number behind its rank.
:func:`render_recall_html` turns those dicts into the result table, and
:func:`recall_explorer` wires ipywidgets controls to the two.

**Moving a knob re-ranks; it never rebuilds.** Every control is a knob of the store's
:class:`~memcourse.recall.config.RecallConfig`, so each move is one search with a per-call
config, ``store.search_hits(query, recall=replace(store.recall, rrf_k=k, ...))``: the store's
own default is untouched, nothing is copied and nothing is embedded again.

**Exploring must not change what is explored.** A search records an access for every memory
it returns (``access_count`` + 1, ``last_accessed_at`` = now), and both feed the ranking (access
boost, time decay). So the explorer searches with ``record_access=False``: same settings, same
answer, every time, and the store is only read.

**What it shows does not depend on later cells.** The widget ranks the store *as it was when
its cell ran*: when it is built it copies the store's active records once into a throwaway
in-memory Chroma collection frozen at that moment (:func:`recall_snapshot`; it shares the
store's embedder, whose cache already holds the vectors), and every control re-ranks that
snapshot. Otherwise a later cell that searches the store for real (each search records an
access, which raises the access boost) would change the explorer's table after Run All, before
the learner touched it. Re-run the explorer's cell to see the store as it is now.

**Switching the model re-embeds, once.** ``recall_explorer(store, models=("minilm",
"use-multilingual"))`` adds a model menu. Another model is another vector space, so choosing it
builds a second snapshot of the same records embedded by that model, with that model's own
profile (floor, near-duplicate threshold, dense exponent: a cosine constant belongs to its
model), and every knob then re-ranks that snapshot. Each model's snapshot is built once, when it
is first chosen; the store itself is never re-embedded.

Stable hooks for browser tests and custom styling:

- the whole explorer is a ``VBox`` with class ``memcourse-recall-explorer``;
- controls: ``memcourse-recall-query`` (Text), ``memcourse-recall-mode`` (ToggleButtons),
  ``memcourse-recall-fusion`` (ToggleButtons: ``rrf``, ``weighted``),
  ``memcourse-recall-lambda`` (FloatSlider), ``memcourse-recall-k`` (IntSlider, used by
  ``rrf`` only), ``memcourse-recall-limit`` (IntSlider), ``memcourse-recall-model`` (Dropdown,
  only with ``models=``);
- the table is in an ``HTML`` widget with class ``memcourse-recall-result``; each hit is a
  ``<tr class="memcourse-hit" data-rank=".." data-memory-id="..">``.
"""

from __future__ import annotations

import html
import math
import uuid
import weakref
from dataclasses import replace
from datetime import datetime
from typing import Any, Callable

from memcourse.course.i18n import t
from memcourse.recall.config import RecallConfig
from memcourse.recall.decay import DEFAULT_LAMBDA, last_used
from memcourse.recall.fusion import DEFAULT_K
from memcourse.recall.hybrid import MODES
from memcourse.records import DEFAULT_USER, parse_timestamp

__all__ = [
    "RECALL_EXPLORER_CLASS",
    "RECALL_RESULT_CLASS",
    "RECALL_HIT_CLASS",
    "RECALL_CONTROL_CLASSES",
    "recall_explorer",
    "recall_explorer_view",
    "recall_snapshot",
    "render_recall_html",
]

RECALL_EXPLORER_CLASS = "memcourse-recall-explorer"
RECALL_RESULT_CLASS = "memcourse-recall-result"
RECALL_HIT_CLASS = "memcourse-hit"
RECALL_CONTROL_CLASSES = {
    "query": "memcourse-recall-query",
    "mode": "memcourse-recall-mode",
    "fusion": "memcourse-recall-fusion",
    "lambda": "memcourse-recall-lambda",
    "k": "memcourse-recall-k",
    "limit": "memcourse-recall-limit",
    "model": "memcourse-recall-model",
}
#: Plain RRF first (the one with a knob to feel), then the library's default.
FUSIONS = ("rrf", "weighted")
#: Column headers, each its own cell (padded and ruled, so none runs into its neighbour).
COLUMNS = ("#", "memory", "vec rank", "kw rank", "cosine", "BM25", "fused", "× decay", "× boost",
           "× task", "= final", "days idle")
TABLE_STYLE = (
    "<style>.memcourse-recall-table{border-collapse:collapse;font-size:90%}"
    ".memcourse-recall-table th,.memcourse-recall-table td{padding:3px 8px;border-bottom:1px solid #ddd;"
    "text-align:right;vertical-align:top}"
    ".memcourse-recall-table th{white-space:nowrap;border-bottom:2px solid #999}"
    ".memcourse-recall-table td:nth-child(2),.memcourse-recall-table th:nth-child(2){text-align:left}</style>"
)
EMPTY_QUERY = "Type a question to see what recall returns."
NO_HITS = "No memory matched this query in this mode."


def recall_snapshot(store: Any, *, now: datetime | None = None, embedder: Any = None) -> Any:
    """A throwaway in-memory Chroma store holding ``store``'s active records (every user's, so
    BM25's statistics are the store's own), frozen at ``now`` (default: the store's clock),
    with the store's default recall config. Built once per explorer; it never supersedes (it
    mirrors the store as it is) and its access counts are never written anywhere.

    With ``embedder`` (another model), the copy embeds the records with it and ranks with that
    model's profile instead of the store's."""
    import chromadb
    from chromadb.config import Settings

    from memcourse.stores.chroma import ChromaMemoryStore

    moment = _now_of(store, now)
    same_model = embedder is None or embedder.model_id == store.embedder.model_id
    config = store.recall if same_model else RecallConfig.for_profile(embedder.profile)
    copy = ChromaMemoryStore(
        client=chromadb.EphemeralClient(settings=Settings(anonymized_telemetry=False)),
        collection=f"recall-explorer-{uuid.uuid4().hex}",
        embedder=store.embedder if same_model else embedder,
        clock=lambda: moment,
        recall=replace(config, dedupe_threshold=math.inf),  # never supersede inside the copy
        access_flush_seconds=float("inf"),
    )
    records = store.list_all()
    if records:
        copy.upsert_many(records)
    weakref.finalize(copy, _drop_collection, copy.client, copy.collection.name)
    return copy


def _drop_collection(client: Any, name: str) -> None:
    try:
        client.delete_collection(name)
    except Exception:  # the client may already be gone at interpreter exit
        pass


def _now_of(store: Any, now: datetime | None) -> datetime:
    clock: Callable[[], datetime] | None = getattr(store, "_clock", None)
    return parse_timestamp(now if now is not None else (clock() if clock else datetime.now().astimezone()), "now")


def explorer_config(store: Any, *, rrf_k: float, decay_lambda: float, limit: int, fusion: str) -> RecallConfig:
    """The per-call config a position of the controls stands for: the store's default with the
    explorer's four knobs replaced (checked by :class:`RecallConfig`, which names a bad one)."""
    return replace(store.recall, rrf_k=rrf_k, decay_lambda=decay_lambda, limit=limit, fusion=fusion)


def recall_explorer_view(
    store: Any,
    query: str,
    *,
    mode: str = "hybrid",
    rrf_k: float = DEFAULT_K,
    decay_lambda: float = DEFAULT_LAMBDA,
    limit: int = 5,
    user_id: str = DEFAULT_USER,
    now: datetime | None = None,
    fusion: str = "rrf",
) -> list[dict[str, Any]]:
    """Rank ``user_id``'s memories in ``store`` (a store with search modes and a
    ``recall`` config: Chroma, PostgreSQL, or a :func:`recall_snapshot`) for ``query``.

    Returns one dict per hit, best first, with keys ``rank``, ``memory_id``, ``subject``,
    ``memory_type``, ``content``, ``vector_rank``, ``keyword_rank``, ``similarity``,
    ``keyword_score``, ``fused``, ``decay``, ``boost``, ``task_priority``, ``final``,
    ``days_since_use`` and ``access_count``. An empty or blank query returns ``[]``.
    ``fusion`` is ``"rrf"`` (plain RRF with ``rrf_k``) or ``"weighted"`` (the library's
    default, which ignores ``rrf_k``).

    One search with a per-call config (:func:`explorer_config`) and ``record_access=False``:
    the store's records, access counts, timestamps and default config are exactly as they were,
    and calling again with the same arguments returns the same rows. ``now`` is the moment the
    ranking is for: the store's clock must read it (a snapshot is frozen at its own).
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}; got {mode!r}")
    if fusion not in FUSIONS:
        raise ValueError(f"fusion must be one of {', '.join(FUSIONS)}; got {fusion!r}")
    config = explorer_config(store, rrf_k=rrf_k, decay_lambda=decay_lambda, limit=limit, fusion=fusion)
    if not isinstance(query, str):
        raise TypeError(f"query must be a string, got {type(query).__name__}")
    if not query.strip():
        return []
    moment = _now_of(store, None)
    if now is not None and parse_timestamp(now, "now") != moment:
        raise ValueError(f"now={now!r} is not the store's time ({moment.isoformat()}): explore "
                         "recall_snapshot(store, now=...) to rank the store as at another moment")
    hits = store.search_hits(query, user_id=user_id, mode=mode, record_access=False, recall=config)
    rows = []
    for rank, hit in enumerate(hits, start=1):
        parts = hit.breakdown
        record = hit.record  # as stored: record_access=False recorded nothing
        used = last_used(record)
        rows.append(
            {
                "rank": rank,
                "memory_id": record.memory_id,
                "subject": record.subject,
                "memory_type": record.memory_type.value,
                "content": record.content,
                "vector_rank": parts.get("vector_rank"),
                "keyword_rank": parts.get("keyword_rank"),
                "similarity": parts.get("similarity"),
                "keyword_score": parts.get("keyword_score"),
                "fused": parts["fused"],
                "decay": parts["decay"],
                "boost": parts["boost"],
                "task_priority": parts.get("task_priority", 1.0),
                "final": parts["final"],
                "days_since_use": max(0.0, (moment - used).total_seconds() / 86_400),
                "access_count": record.access_count,
            }
        )
    return rows


def _num(value: Any, digits: int) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def render_recall_html(rows: list[dict[str, Any]] | None, *, query: str = "") -> str:
    """The result table for :func:`recall_explorer_view` rows. Every value is escaped."""
    esc = html.escape
    if rows is None or not query.strip():
        return f'<div class="memcourse-recall-empty">{esc(t(EMPTY_QUERY))}</div>'
    if not rows:
        return f'<div class="memcourse-recall-empty">{esc(t(NO_HITS))}</div>'
    head = "<tr>" + "".join(f"<th>{esc(t(name))}</th>" for name in COLUMNS) + "</tr>"
    body = []
    for row in rows:
        content = row["content"] if len(row["content"]) <= 60 else row["content"][:59] + "…"
        body.append(
            f'<tr class="{RECALL_HIT_CLASS}" data-rank="{row["rank"]}" data-memory-id="{esc(row["memory_id"])}">'
            f"<td>{row['rank']}</td>"
            f'<td title="{esc(row["memory_id"])}"><b>{esc(row["memory_type"])}:{esc(row["subject"])}</b><br>'
            f'<span style="color:#555">{esc(content)}</span></td>'
            f"<td>{row['vector_rank'] or '–'}</td><td>{row['keyword_rank'] or '–'}</td>"
            f"<td>{_num(row['similarity'], 2)}</td><td>{_num(row['keyword_score'], 2)}</td>"
            f"<td>{row['fused']:.5f}</td><td>{row['decay']:.3f}</td><td>{row['boost']:.2f}</td>"
            f"<td>{row['task_priority']:.1f}</td><td><b>{row['final']:.5f}</b></td>"
            f"<td>{row['days_since_use']:.0f}</td></tr>"
        )
    return f'{TABLE_STYLE}<table class="memcourse-recall-table">{head}{"".join(body)}</table>'


def recall_explorer(
    store: Any,
    query: str = "",
    *,
    user_id: str = DEFAULT_USER,
    mode: str = "hybrid",
    rrf_k: int = DEFAULT_K,
    decay_lambda: float = DEFAULT_LAMBDA,
    limit: int = 5,
    now: datetime | None = None,
    fusion: str = "rrf",
    models: tuple[str, ...] = (),
):
    """A live recall explorer over ``store`` as it is now (read-only, and a snapshot: later
    changes to the store, such as the accesses a later search records, do not show; see the
    module docstring). ``models`` (names for ``Embedder``) adds a menu to rank with another model."""
    import ipywidgets as widgets

    from memcourse.embeddings import Embedder, resolve_model
    from memcourse.recall.decay import half_life_days

    moment = _now_of(store, now)  # every snapshot is the store as of this cell
    current = store.embedder.model_id
    snapshots = {current: recall_snapshot(store, now=moment)}

    def snapshot_for(name: str) -> Any:
        if name not in snapshots:
            snapshots[name] = recall_snapshot(store, now=moment, embedder=Embedder(name))
        return snapshots[name]

    choices = [current] + [resolve_model(name) for name in models]
    model_menu = widgets.Dropdown(options=list(dict.fromkeys(choices)), value=current, description=t("Model"))

    query_box = widgets.Text(value=query, description=t("Query"), continuous_update=True,
                             layout=widgets.Layout(width="95%"))
    mode_buttons = widgets.ToggleButtons(options=list(MODES), value=mode, description=t("Mode"))
    fusion_buttons = widgets.ToggleButtons(options=list(FUSIONS), value=fusion, description=t("Fusion"))
    lam = widgets.FloatSlider(value=decay_lambda, min=0.0, max=0.3, step=0.01, description=t("λ (decay)"),
                              readout_format=".2f", continuous_update=True)
    k = widgets.IntSlider(value=int(rrf_k), min=1, max=120, step=1, description=t("RRF k"), continuous_update=True)
    top = widgets.IntSlider(value=limit, min=1, max=10, step=1, description=t("limit"), continuous_update=True)
    half_life = widgets.HTML()
    result = widgets.HTML()
    controls = ((query_box, "query"), (mode_buttons, "mode"), (fusion_buttons, "fusion"), (lam, "lambda"), (k, "k"),
                (top, "limit"), (model_menu, "model"))
    for control, key in controls:
        control.add_class(RECALL_CONTROL_CLASSES[key])
    result.add_class(RECALL_RESULT_CLASS)

    def update(_change: Any = None) -> None:
        half_life.value = (
            t("no decay") if lam.value == 0 else t("half-life ≈ {days:.1f} days", days=half_life_days(lam.value))
        )
        k.disabled = fusion_buttons.value != "rrf"  # weighted fusion has no k
        text = query_box.value
        rows = recall_explorer_view(  # one search on the snapshot with this position's config
            snapshot_for(model_menu.value), text, mode=mode_buttons.value, rrf_k=k.value, decay_lambda=lam.value,
            limit=top.value, user_id=user_id, fusion=fusion_buttons.value,
        ) if text.strip() else None
        result.value = render_recall_html(rows, query=text)

    for control, _ in controls:
        control.observe(update, names="value")
    update()
    box = widgets.VBox([
        *([model_menu] if len(model_menu.options) > 1 else []),
        query_box,
        mode_buttons,
        fusion_buttons,
        widgets.HBox([lam, half_life]),
        widgets.HBox([k, top]),
        result,
    ])
    box.add_class(RECALL_EXPLORER_CLASS)
    return box
