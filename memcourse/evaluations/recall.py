"""Measuring recall: vector vs keyword vs hybrid on one labelled, bilingual set.

"Hybrid search is better" is a claim; this module turns it into numbers. The recall set
(``memcourse/data/recall_eval.json``) holds four users' memories in Chinese, English and a
mix of both, ~110 generated distractors per user, and labelled queries. Each query names the
memories that answer it and a *kind*, so the numbers say not only *whether* a channel works
but *where*:

=========== ====================================================================
paraphrase  the query shares no word with the answer ("Which city is she based in?" vs
            "…a fintech startup in Toronto"): only meaning can find it
exact_id    order numbers, ticket ids, version strings: one rare token decides
negation    one user holds two memories that differ by 不 / not; the query must pick the
            right one (embeddings are known to blur negation)
chinese     Chinese query on Chinese memories (the English-only MiniLM reads most Chinese
            characters as ``[UNK]``; the default model reads them)
english     plain English with shared words
mixed       Chinese and English in one query ("测试环境要上 Kubernetes 吗")
=========== ====================================================================

Three metrics, each averaged over queries (``ranked`` is the store's result list, best first):

- **Recall@k**: the share of a query's relevant memories found in the top ``k``. With one
  relevant memory, 1 if it is in the top ``k``, else 0.
- **MRR** (mean reciprocal rank): ``1 / rank`` of the first relevant memory (1, 0.5, 0.33, …),
  0 if it is not in the results at all. It rewards putting the answer *first*, which is what
  a prompt with room for a few memories needs.

How a run works: for each search mode, a fresh store from ``store_factory`` is loaded with
every memory (so one mode's searches, which update access counts, cannot influence another
mode), then every query is run with ``search_hits(query, limit=10, user_id=..., mode=...,
record_access=False)``, so no query's result depends on the queries before it.
A store whose ``search_hits`` has no ``mode`` parameter (the JSON store) is evaluated once,
as "keyword".

One caveat, kept on purpose: a search records that its results were accessed, and stores
boost often-used memories a little. Within one mode, earlier queries can therefore nudge
later ones, as they would in real use. Each mode starts from a fresh store, so the modes
are compared on equal terms.

Command line: ``memcourse eval [--store chroma|json] [--data-dir DIR] [--dataset FILE]
[--modes vector,keyword,hybrid,hybrid-rrf] [--quiet]``. ``hybrid-rrf`` runs hybrid search with
plain Reciprocal Rank Fusion (the store's ``fusion = "rrf"``), so the table shows what the
default fusion gains over the textbook baseline.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from memcourse.evaluations.recall_set import KINDS, EvalQuery, EvalSet, load_eval_set
from memcourse.records import MemoryRecord, Status
from memcourse.stores.contract import BATCH, FUSION, capabilities_of
from memcourse.stores.contract import MODES as MODES_CAPABILITY

__all__ = [
    "MODES",
    "EvalReport",
    "QueryResult",
    "evaluate",
    "main",
    "recall_at_k",
    "reciprocal_rank",
]

MODES = ("vector", "keyword", "hybrid", "hybrid-rrf")
#: "hybrid-rrf" is hybrid search with plain Reciprocal Rank Fusion (``store.fusion = "rrf"``):
#: the teachable baseline the default fusion is measured against.
BASELINE_FUSION_MODE = "hybrid-rrf"
#: What :func:`evaluate` runs unless told otherwise (``memcourse eval`` runs all of MODES).
DEFAULT_MODES = ("vector", "keyword", "hybrid")
SEARCH_LIMIT = 10


# -- metrics ------------------------------------------------------------------------------
def recall_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int) -> float:
    """Share of ``relevant`` ids found in ``ranked[:k]``.

    >>> recall_at_k(["a", "b", "c"], {"c", "z"}, 3)
    0.5
    """
    relevant = set(relevant)
    if not relevant:
        raise ValueError("a query needs at least one relevant id")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be an int >= 1, got {k!r}")
    return len(relevant & set(ranked[:k])) / len(relevant)


def reciprocal_rank(ranked: Sequence[str], relevant: Iterable[str]) -> float:
    """``1 / rank`` of the first relevant id (rank is 1-based), 0.0 if none is ranked.

    >>> reciprocal_rank(["a", "b", "c"], {"c"})
    0.3333333333333333
    """
    relevant = set(relevant)
    if not relevant:
        raise ValueError("a query needs at least one relevant id")
    for rank, doc_id in enumerate(ranked, start=1):
        if doc_id in relevant:
            return 1.0 / rank
    return 0.0


# -- running ------------------------------------------------------------------------------
@dataclass
class QueryResult:
    """One query in one mode: what came back, and how good that was."""

    mode: str
    query: EvalQuery
    ranked: list[str]
    relevant: set[str]
    recall: dict[int, float]
    rr: float

    @property
    def rank(self) -> int | None:
        """1-based rank of the first relevant memory, or None if it was not returned."""
        return round(1 / self.rr) if self.rr else None


@dataclass
class EvalReport:
    """Per-query results plus summaries by mode, query kind and query language."""

    modes: tuple[str, ...]
    k_values: tuple[int, ...]
    results: list[QueryResult] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # mode -> why it was not run
    notes: list[str] = field(default_factory=list)  # anything that makes the numbers less clean
    n_memories: int = 0
    dataset: str = ""

    def groups(self) -> list[str]:
        kinds = [k for k in KINDS if any(r.query.kind == k for r in self.results)]
        langs = [g for g in ("zh", "en", "mixed") if any(r.query.language == g for r in self.results)]
        return ["all"] + [f"kind:{k}" for k in kinds] + [f"lang:{g}" for g in langs]

    def _select(self, mode: str, group: str) -> list[QueryResult]:
        chosen = [r for r in self.results if r.mode == mode]
        if group == "all":
            return chosen
        axis, _, value = group.partition(":")
        if axis == "kind":
            return [r for r in chosen if r.query.kind == value]
        if axis == "lang":
            return [r for r in chosen if r.query.language == value]
        raise ValueError(f"unknown group {group!r}; use 'all', 'kind:<kind>' or 'lang:<zh|en|mixed>'")

    def metrics(self, mode: str, group: str = "all") -> dict[str, float]:
        """``{"queries": n, "recall@1": …, "recall@5": …, "mrr": …}`` for one mode and group."""
        chosen = self._select(mode, group)
        out: dict[str, float] = {"queries": len(chosen)}
        for k in self.k_values:
            out[f"recall@{k}"] = statistics.fmean(r.recall[k] for r in chosen) if chosen else float("nan")
        out["mrr"] = statistics.fmean(r.rr for r in chosen) if chosen else float("nan")
        return out

    def mrr(self, mode: str, group: str = "all") -> float:
        return self.metrics(mode, group)["mrr"]

    def evaluated_modes(self) -> list[str]:
        return [m for m in self.modes if m not in self.skipped]

    def as_rows(self) -> list[dict[str, Any]]:
        """Plain dicts, one per (mode, group): ready for a DataFrame or a bar chart."""
        rows = []
        for mode in self.evaluated_modes():
            for group in self.groups():
                rows.append({"mode": mode, "group": group, **self.metrics(mode, group)})
        return rows

    def misses(self, mode: str, k: int = 1) -> list[QueryResult]:
        """Queries whose answer was not in the top ``k`` in ``mode`` (to read, not to tune)."""
        return [r for r in self.results if r.mode == mode and r.recall[k] < 1.0]

    def table(self) -> str:
        """An aligned text table: one row per group, one column block per mode."""
        modes = self.evaluated_modes()
        metric_names = [f"R@{k}" for k in self.k_values] + ["MRR"]
        group_width = max(len(g) for g in self.groups() + ["group"])
        block_width = 6 * len(metric_names) - 1
        head1 = " " * (group_width + 5) + " | ".join(m.center(block_width) for m in modes)
        head2 = f"{'group':<{group_width}} {'n':>3} | " + " | ".join(
            " ".join(f"{name:>5}" for name in metric_names) for _ in modes
        )
        lines = [head1.rstrip(), head2, "-" * len(head2)]
        for group in self.groups():
            n = len(self._select(modes[0], group)) if modes else 0
            cells = []
            for mode in modes:
                values = self.metrics(mode, group)
                numbers = [values[f"recall@{k}"] for k in self.k_values] + [values["mrr"]]
                cells.append(" ".join(f"{v:5.2f}" for v in numbers))
            lines.append(f"{group:<{group_width}} {n:>3} | " + " | ".join(cells))
        footer = f"{len({r.query.id for r in self.results})} queries, {self.n_memories} memories"
        if self.dataset:
            footer += f" ({self.dataset})"
        lines.append(footer)
        for mode, why in self.skipped.items():
            lines.append(f"mode {mode!r} not run: {why}")
        lines.extend(f"note: {note}" for note in self.notes)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def supports_mode(store: Any) -> bool:
    """Whether the store declares search modes (``search_hits(mode=...)``; the Chroma store
    does): :func:`memcourse.stores.contract.capabilities_of`."""
    return MODES_CAPABILITY in capabilities_of(store)


def _progress(items: Sequence[Any], enabled: bool, desc: str):
    if not enabled:
        return items
    from tqdm.auto import tqdm

    return tqdm(items, desc=desc, leave=False)


def _load(store: Any, records: list[MemoryRecord], progress: bool, desc: str) -> None:
    """Upsert every record, in batches when the store declares ``upsert_many`` (one embedding
    call per batch instead of one per record)."""
    if BATCH in capabilities_of(store):
        batches = [records[i : i + 100] for i in range(0, len(records), 100)]
        for batch in _progress(batches, progress, desc + " in batches"):
            store.upsert_many(batch)
        return
    for record in _progress(records, progress, desc):
        store.upsert(record)


def _lost_answers(store: Any, eval_set: EvalSet) -> list[str]:
    """Labelled memories that are not active after loading (a store that dedupes near-duplicates
    may supersede one): reported, because such a query cannot be answered in this store."""
    lost = []
    for key, record in eval_set.memories.items():
        stored = store.get(record.memory_id)
        if stored is None or stored.status is not Status.ACTIVE:
            why = "missing" if stored is None else f"{stored.status.value}"
            if stored is not None and stored.superseded_by:
                why += f" by {stored.superseded_by}"
            lost.append(f"{key} ({why})")
    return lost


def _run_queries(store: Any, eval_set: EvalSet, mode: str, with_mode: bool, k_values, progress) -> list[QueryResult]:
    results = []
    for query in _progress(eval_set.queries, progress, f"queries ({mode})"):
        # Read-only: a query must not change the access statistics the next query is ranked by.
        kwargs = {"limit": SEARCH_LIMIT, "user_id": query.user_id, "record_access": False}
        if with_mode:
            kwargs["mode"] = "hybrid" if mode == BASELINE_FUSION_MODE else mode
        hits = store.search_hits(query.text, **kwargs)
        ranked = [hit.record.memory_id for hit in hits]
        relevant = eval_set.relevant_ids(query)
        results.append(
            QueryResult(
                mode=mode,
                query=query,
                ranked=ranked,
                relevant=relevant,
                recall={k: recall_at_k(ranked, relevant, k) for k in k_values},
                rr=reciprocal_rank(ranked, relevant),
            )
        )
    return results


def evaluate(
    store_factory: Callable[[], Any],
    *,
    modes: Sequence[str] = DEFAULT_MODES,
    k_values: Sequence[int] = (1, 5),
    progress: bool = True,
    eval_set: EvalSet | None = None,
) -> EvalReport:
    """Load the recall set into fresh stores and measure each search mode.

    ``store_factory()`` must return a new, empty store each time it is called (one per mode).
    Modes a store cannot run (no ``mode`` parameter: only "keyword") are listed in
    ``report.skipped`` with the reason.
    """
    modes = tuple(modes)
    unknown = [m for m in modes if m not in MODES]
    if not modes or unknown:
        raise ValueError(f"modes must be a non-empty subset of {MODES}, got {modes}")
    k_values = tuple(k_values)
    for k in k_values:
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= SEARCH_LIMIT:
            raise ValueError(f"k values must be ints in 1..{SEARCH_LIMIT}, got {k!r}")
    eval_set = eval_set or load_eval_set()
    records = eval_set.records()
    report = EvalReport(modes, k_values, n_memories=len(records), dataset=eval_set.name)
    for mode in modes:
        store = store_factory()
        with_mode = supports_mode(store)
        if not with_mode and mode != "keyword":
            report.skipped[mode] = f"{type(store).__name__}.search_hits has no mode= (keyword only)"
            continue
        if mode == BASELINE_FUSION_MODE:
            if FUSION not in capabilities_of(store):
                report.skipped[mode] = f"{type(store).__name__} has no fusion choice (declares no {FUSION!r})"
                continue
            store.fusion = "rrf"
        _load(store, records, progress, f"loading {len(records)} memories ({mode})")
        active = len(store.list_all())
        if active < len(records):
            report.notes.append(
                f"{mode}: {active} of {len(records)} memories active after loading "
                "(the store superseded near-duplicates)"
            )
        for lost in _lost_answers(store, eval_set):
            report.notes.append(f"{mode}: labelled memory not active after loading: {lost}")
        report.results.extend(_run_queries(store, eval_set, mode, with_mode, k_values, progress))
    return report


# -- command line -------------------------------------------------------------------------
def _store_factory(kind: str, parent: Path, model: str | None = None) -> Callable[[], Any]:
    """Fresh stores of one kind; a Chroma store embeds with ``model`` (default: the library's)."""
    def new_directory() -> Path:
        return Path(tempfile.mkdtemp(prefix=f"eval-{kind}-", dir=parent))

    if kind == "json":
        from memcourse.stores.json_store import JsonMemoryStore

        return lambda: JsonMemoryStore(new_directory() / "memories.json")
    if kind == "chroma":
        from memcourse.embeddings import default_embedder
        from memcourse.stores.chroma import ChromaMemoryStore  # slow import: only here

        embedder = default_embedder(model)  # one loaded model and cache for every store of the run
        # the store ranks with this model's profile (RecallConfig.for_profile): floor, threshold, exponent
        return lambda: ChromaMemoryStore(path=str(new_directory()), embedder=embedder)
    raise ValueError(f"unknown store {kind!r}")


def main(argv: list[str] | None = None) -> int:
    """``memcourse eval``: print the recall table for one store kind."""
    parser = argparse.ArgumentParser(
        prog="memcourse eval",
        description="Measure Recall@1, Recall@5 and MRR of vector, keyword and hybrid recall (and hybrid "
        "with plain RRF) "
        "on the bilingual recall set.",
    )
    parser.add_argument("--store", choices=("chroma", "json"), default="chroma",
                        help="store to evaluate (json supports keyword mode only; default: chroma)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="directory to build the evaluation stores in (default: a temporary "
                        "directory, deleted afterwards)")
    parser.add_argument("--dataset", type=Path, default=None,
                        help="a recall set JSON file (default: the packaged memcourse/data/recall_eval.json)")
    parser.add_argument("--modes", default=",".join(MODES),
                        help="comma-separated search modes (default: vector,keyword,hybrid,hybrid-rrf; hybrid-rrf is "
                        "hybrid with plain RRF fusion, the baseline the default fusion improves on)")
    parser.add_argument("--model", default=None,
                        help="embedding model for the chroma store: minilm, use-multilingual, e5-small, or a "
                        "sentence-transformers name or path (default: $MEMCOURSE_EMBEDDING_MODEL, else the "
                        "library's default)")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--"]:  # "memcourse eval -- --store json": the separator is not ours
        argv = argv[1:]
    args = parser.parse_args(argv)

    modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
    if args.store == "json" and args.modes == ",".join(MODES):
        modes = ("keyword",)
    try:
        eval_set = load_eval_set(args.dataset)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"memcourse eval: cannot read the recall set: {error}", file=sys.stderr)
        return 2
    cleanup = args.data_dir is None
    parent = Path(tempfile.mkdtemp(prefix="memcourse-eval-")) if cleanup else args.data_dir
    parent.mkdir(parents=True, exist_ok=True)
    try:
        try:
            factory = _store_factory(args.store, parent, args.model)
            report = evaluate(factory, modes=modes, progress=not args.quiet, eval_set=eval_set)
        except ValueError as error:
            print(f"memcourse eval: {error}", file=sys.stderr)
            return 2
    finally:
        if cleanup:
            shutil.rmtree(parent, ignore_errors=True)
    if args.store == "chroma":
        from memcourse.embeddings import resolve_model

        print(f"store: chroma, embedding model {resolve_model(args.model)}")
    else:
        print(f"store: {args.store}")
    print(report.table())
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
