"""Benchmark: memcourse recall on LoCoMo, long conversations nobody here wrote.

LoCoMo (Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM Agents",
ACL 2024) holds long two-person conversations, split into dated sessions, and questions whose
*evidence* (the turns that answer them) is annotated. The project ships no copy: download the
``locomo10`` release (snap-research/locomo, ``data/locomo10.zip``) and pass its JSON file.

What a run does:

* Every turn becomes one ``event`` memory of its conversation's user (user id = the
  conversation's ``sample_id``), **written at its session's time** (``created_at`` =
  ``updated_at`` = the session's date), which is what a real store holds. Content is
  ``"Speaker: text"``, plus ``[shares a photo: caption]`` when the turn shared an image.
* Questions are asked after the conversation's last session (the store's clock is set to a
  day later), one user's questions against that user's memories only.
* Recall@k = the share of a question's evidence turns found in the top k; MRR@10 = 1/rank of
  the first evidence turn in the top 10 (0 if none). Categories follow LoCoMo's own
  evaluation code: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial
  (unanswerable: reported separately, not in "1-4").
* Malformed evidence ids are repaired when unambiguous (``"D8:6; D9:17"`` -> two ids,
  ``"D:11:26"`` -> ``D11:26``, ``"D30:05"`` -> ``D30:5``) and dropped (and counted) when they
  name no turn; a question left without evidence is skipped (and counted).

Modes, all in the same run on the same data:

===================== =====================================================================
memcourse hybrid      ``ChromaMemoryStore.search_hits(mode="hybrid")``: the library default
memcourse hybrid-rrf  the same store, fused with plain RRF (the teachable baseline)
memcourse keyword     the store's BM25 channel alone
memcourse vector      the store's dense channel alone
memcourse hybrid-     two *time ablations* of the default hybrid (same store, same index;
  no-time,            only the recency factor in ``rank_hits`` is swapped while they run):
  exp-decay           none at all, and the textbook ``exp(-0.05·days)`` multiplied into the
                      fused score (what the library did before the bounded recency factor)
bm25s                 plain ``bm25s`` with its English stopwords and Snowball stemmer
chroma                a plain Chroma collection with the run's model, filtered by user
naive rrf             RRF (k = 60) of the two plain baselines' top 50
===================== =====================================================================

Run (from the repository root)::

    .venv/bin/python benchmarks/locomo.py --data PATH/TO/locomo10.json
    .venv/bin/python benchmarks/locomo.py --data PATH --conversations conv-26,conv-30 --json out.json

Results and how the defaults were tuned: docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memcourse.records import MemoryRecord, MemoryType  # noqa: E402

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
K_VALUES = (5, 10)
DEPTH = 10  # results asked of every mode
_DIA = re.compile(r"D(\d+):(\d+)")
_DATE = re.compile(r"(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})", re.I)
_MONTHS = {m: i for i, m in enumerate(
    "january february march april may june july august september october november december".split(), 1)}


# -- the data ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    caption: str
    session: int
    when: datetime

    @property
    def content(self) -> str:
        text = f"{self.speaker}: {self.text}".strip()
        if self.caption:
            text += f" [shares a photo: {self.caption}]"
        return text


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    evidence: tuple[str, ...]


@dataclass
class Conversation:
    sample_id: str
    turns: list[Turn]
    questions: list[Question]

    @property
    def asked_at(self) -> datetime:
        """Questions are asked the day after the last session."""
        return max(t.when for t in self.turns) + timedelta(days=1)


@dataclass
class DataReport:
    """What loading had to repair or drop, so a reader can judge the numbers."""

    repaired: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    skipped_questions: int = 0


def parse_session_time(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` -> an aware UTC datetime."""
    match = _DATE.search(text or "")
    if not match:
        raise ValueError(f"cannot read the session date {text!r}")
    hour, minute, half, day, month, year = match.groups()
    month_number = _MONTHS.get(month.lower())
    if month_number is None:
        raise ValueError(f"unknown month in session date {text!r}")
    hour = int(hour) % 12 + (12 if half.lower() == "pm" else 0)
    return datetime(int(year), month_number, int(day), hour, int(minute), tzinfo=timezone.utc)


#: One evidence id as annotators wrote it: "D8:6", "D:11:26", "D30:05", "D 4 : 3".
_EVIDENCE_ID = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")


def repair_evidence(raw: object, known: set[str], report: DataReport, where: str) -> list[str]:
    """Turn one annotated evidence entry into known dia_ids (see the module docstring).

    Every id-shaped piece of the entry is read and written the canonical way; one that names
    no turn is dropped and reported, and so is whatever is left that is not a separator."""
    text = str(raw)
    found = []
    for match in _EVIDENCE_ID.finditer(text):
        fixed = f"D{int(match.group(1))}:{int(match.group(2))}"
        if fixed not in known:
            report.dropped.append(f"{where}: {match.group(0)!r}")
        elif match.group(0) == fixed:
            found.append(fixed)
        else:
            found.append(fixed)
            report.repaired.append(f"{where}: {match.group(0)!r} -> {fixed}")
    for rest in re.split(r"[;,\s]+", _EVIDENCE_ID.sub(" ", text)):
        if rest:
            report.dropped.append(f"{where}: {rest!r}")
    if len(found) > 1 and text not in known:
        report.repaired.append(f"{where}: {text!r} -> {', '.join(found)}")
    return found


def load_locomo(path: str | Path, only: Sequence[str] | None = None) -> tuple[list[Conversation], DataReport]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected LoCoMo's list of conversations")
    report = DataReport()
    conversations = []
    for item in data:
        sample_id = str(item["sample_id"])
        if only and sample_id not in only:
            continue
        conv = item["conversation"]
        turns = []
        sessions = sorted(
            (int(key.split("_")[1]), key) for key in conv if re.fullmatch(r"session_\d+", key)
        )
        for number, key in sessions:
            when = parse_session_time(conv.get(f"{key}_date_time", ""))
            for turn in conv[key]:
                turns.append(Turn(str(turn["dia_id"]), turn["speaker"], turn.get("text", ""),
                                  turn.get("blip_caption", "") or "", number, when))
        known = {t.dia_id for t in turns}
        questions = []
        for position, qa in enumerate(item.get("qa", [])):
            evidence: list[str] = []
            for raw in qa.get("evidence", []):
                evidence.extend(repair_evidence(raw, known, report, f"{sample_id} q{position}"))
            if not evidence:
                report.skipped_questions += 1
                continue
            questions.append(Question(qa["question"], int(qa["category"]), tuple(dict.fromkeys(evidence))))
        conversations.append(Conversation(sample_id, turns, questions))
    if only:
        missing = set(only) - {c.sample_id for c in conversations}
        if missing:
            raise ValueError(f"no conversation named {', '.join(sorted(missing))} in {path}")
    return conversations, report


def turn_record(conv: Conversation, turn: Turn) -> MemoryRecord:
    """One turn as one event memory, written at its session's time."""
    return MemoryRecord(
        memory_type=MemoryType.EVENT,
        subject=f"{conv.sample_id} turn {turn.dia_id}",
        content=turn.content,
        user_id=conv.sample_id,
        confidence=0.9,
        source_conversation_id=f"{conv.sample_id}-session-{turn.session}",
        created_at=turn.when,
        updated_at=turn.when,
    )


# -- scoring -------------------------------------------------------------------------------
@dataclass
class ModeResult:
    mode: str
    per_question: list[tuple[int, dict[int, float], float]] = field(default_factory=list)  # (category, R@k, RR)
    index_s: float = 0.0
    query_ms: list[float] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, category: int, ranked: Sequence[str], evidence: Sequence[str]) -> None:
        wanted = set(evidence)
        recall = {k: len(wanted & set(ranked[:k])) / len(wanted) for k in K_VALUES}
        rr = next((1.0 / r for r, d in enumerate(ranked[:DEPTH], 1) if d in wanted), 0.0)
        self.per_question.append((category, recall, rr))

    def summary(self, categories: Iterable[int]) -> dict[str, float]:
        chosen = [q for q in self.per_question if q[0] in set(categories)]
        if not chosen:
            return {"n": 0}
        out: dict[str, float] = {"n": len(chosen)}
        for k in K_VALUES:
            out[f"R@{k}"] = statistics.fmean(q[1][k] for q in chosen)
        out["MRR@10"] = statistics.fmean(q[2] for q in chosen)
        return out


def refused_by_read_gate(conversations: list[Conversation]) -> list[str]:
    """Turns the read gate would never admit (a guard mistook them for a secret or an
    injection): they cannot be recalled, so they are counted and named."""
    from memcourse.recall.admission import admit

    refused = []
    for conv in conversations:
        for turn in conv.turns:
            decision = admit(turn_record(conv, turn), now=conv.asked_at)
            if not decision:
                refused.append(f"{conv.sample_id} {turn.dia_id}: {decision.reason}")
    return refused


def timed(result: ModeResult, search: Callable[[], list[str]]) -> list[str]:
    start = time.perf_counter()
    ranked = search()
    result.query_ms.append((time.perf_counter() - start) * 1000)
    return ranked


# -- the runs ------------------------------------------------------------------------------
class Clock:
    """A settable clock for the store (questions are asked after each conversation)."""

    def __init__(self) -> None:
        self.now = datetime(2000, 1, 1, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now


MODES = ("hybrid", "hybrid-rrf", "keyword", "vector", "hybrid-no-time", "hybrid-exp-decay")


@contextmanager
def recency_rule(mode: str):
    """While a time ablation runs, ``rank_hits`` uses its recency rule instead of the
    library's bounded :func:`memcourse.recall.decay.recency_factor`."""
    from memcourse.recall import hybrid
    from memcourse.recall.decay import decay_factor

    rules = {
        "hybrid-no-time": lambda record, now, lam=0.05: 1.0,
        "hybrid-exp-decay": lambda record, now, lam=0.05: decay_factor(record.updated_at, now, lam=lam),
    }
    if mode not in rules:
        yield
        return
    original = hybrid.recency_factor
    hybrid.recency_factor = rules[mode]
    try:
        yield
    finally:
        hybrid.recency_factor = original


@contextmanager
def passage_rule(weight: float | None, labels: bool):
    """While the store runs, passages use ``weight`` (None: the library's) and, without
    ``labels``, no text has a label (each passage is the bare sentence)."""
    from memcourse.recall import passages

    saved = passages.PASSAGE_WEIGHT, passages.label
    if weight is not None:
        passages.PASSAGE_WEIGHT = weight
    if not labels:
        passages.label = lambda text: None
    try:
        yield
    finally:
        passages.PASSAGE_WEIGHT, passages.label = saved


def run_store(
    conversations: list[Conversation], modes: Sequence[str], workdir: Path, embedder, open_store: Callable | None = None
) -> dict[str, ModeResult]:
    """The library's modes through one store per fusion (all users in one store): a
    ChromaMemoryStore, or what ``open_store(path=, embedder=, clock=, **knobs)`` opens
    (benchmarks/recall_parity_postgres.py passes the PostgreSQL store's)."""
    from memcourse.recall import passages
    from memcourse.recall.config import RecallConfig
    from memcourse.stores.chroma import ChromaMemoryStore

    open_store = open_store or ChromaMemoryStore
    results: dict[str, ModeResult] = {}
    stores: dict[str, tuple[Any, float, list[str]]] = {}
    clock = Clock()
    fusions = sorted({"rrf" if m == "hybrid-rrf" else "default" for m in modes})
    for fusion in fusions:
        start = time.perf_counter()
        kwargs = {"fusion": "rrf"} if fusion == "rrf" else {}
        kwargs.update(embedder.profile.store_arguments())  # the model's floor and near-duplicate threshold
        # the model's profile for every cosine knob, and the passage weight passage_rule set for this run
        kwargs["recall"] = RecallConfig.for_profile(embedder, passage_weight=passages.PASSAGE_WEIGHT)
        store = open_store(path=workdir / f"store-{fusion}", embedder=embedder, clock=clock, **kwargs)
        for conv in conversations:
            clock.now = conv.asked_at  # the records carry their own session times
            store.upsert_many([turn_record(conv, t) for t in conv.turns])
        index_s = time.perf_counter() - start
        notes = []
        total = sum(len(c.turns) for c in conversations)
        active = sum(len(store.list_all(user_id=c.sample_id)) for c in conversations)
        if active < total:
            notes.append(f"{total - active} of {total} turns not active after loading (superseded)")
        stores[fusion] = (store, index_s, notes)
    for mode in modes:
        fusion = "rrf" if mode == "hybrid-rrf" else "default"
        store, index_s, notes = stores[fusion]
        store_mode = "hybrid" if mode.startswith("hybrid") else mode
        result = results[f"memcourse {mode}"] = ModeResult(f"memcourse {mode}", index_s=index_s, notes=list(notes))
        with recency_rule(mode):
            for conv in conversations:
                clock.now = conv.asked_at
                for q in conv.questions:
                    hits = timed(result, partial(store.search_hits, q.text, limit=DEPTH, user_id=conv.sample_id,
                                                 mode=store_mode, record_access=False))
                    result.add(q.category, [dia_id_of(hit.record) for hit in hits], q.evidence)
    return results


def dia_id_of(record: MemoryRecord) -> str:
    """The turn a recalled memory came from (its subject ends with the dia_id)."""
    return record.subject.rsplit(" ", 1)[-1]


def run_baselines(conversations: list[Conversation], workdir: Path, embedder) -> dict[str, ModeResult]:
    """Plain bm25s (stemmed), plain Chroma (the run's model, user filter), and naive RRF of the two."""
    import bm25s
    import chromadb
    import Stemmer
    from chromadb.config import Settings

    stemmer = Stemmer.Stemmer("english")
    bm25 = ModeResult("bm25s")
    dense = ModeResult("chroma")
    fused = ModeResult("naive rrf")
    # bm25s: one index per conversation (one user's memories).
    start = time.perf_counter()
    indexes = {}
    for conv in conversations:
        corpus = bm25s.tokenize([t.content for t in conv.turns], stopwords="en", stemmer=stemmer, show_progress=False)
        model = bm25s.BM25()
        model.index(corpus, show_progress=False)
        indexes[conv.sample_id] = model
    bm25.index_s = time.perf_counter() - start
    # Chroma: one collection, every user, filtered by user at query time.
    start = time.perf_counter()
    client = chromadb.PersistentClient(
        path=str(workdir / "plain-chroma"), settings=Settings(anonymized_telemetry=False)
    )
    collection = client.create_collection("plain", configuration={"hnsw": {"space": "cosine"}}, embedding_function=None)
    for conv in conversations:
        texts = [t.content for t in conv.turns]
        collection.add(ids=[f"{conv.sample_id}/{t.dia_id}" for t in conv.turns], embeddings=embedder.embed(texts),
                       documents=texts, metadatas=[{"user": conv.sample_id} for _ in conv.turns])
    dense.index_s = time.perf_counter() - start
    fused.index_s = bm25.index_s + dense.index_s
    depth = 50

    def bm25_search(conv: Conversation, q: Question, limit: int) -> list[str]:
        model, n = indexes[conv.sample_id], len(conv.turns)
        tokens = bm25s.tokenize([q.text], stopwords="en", stemmer=stemmer, show_progress=False)
        if not tokens.vocab:
            return []
        docs, scores = model.retrieve(tokens, k=min(limit, n), show_progress=False)
        return [conv.turns[int(d)].dia_id for d, s in zip(docs[0], scores[0], strict=True) if s > 0]

    def dense_search(conv: Conversation, q: Question, limit: int) -> list[str]:
        out = collection.query(query_embeddings=embedder.embed_queries([q.text]), n_results=min(limit, len(conv.turns)),
                               where={"user": conv.sample_id}, include=[])
        return [i.split("/", 1)[1] for i in out["ids"][0]]

    def rrf_search(conv: Conversation, q: Question) -> list[str]:
        score: dict[str, float] = {}
        for ranking in (bm25_search(conv, q, depth), dense_search(conv, q, depth)):
            for rank, doc in enumerate(ranking, 1):
                score[doc] = score.get(doc, 0.0) + 1.0 / (60 + rank)
        return sorted(score, key=lambda d: -score[d])[:DEPTH]

    for conv in conversations:
        for q in conv.questions:
            ranked_bm25 = timed(bm25, partial(bm25_search, conv, q, DEPTH))
            ranked_dense = timed(dense, partial(dense_search, conv, q, DEPTH))
            bm25.add(q.category, ranked_bm25, q.evidence)
            dense.add(q.category, ranked_dense, q.evidence)
            fused.add(q.category, timed(fused, partial(rrf_search, conv, q)), q.evidence)
    return {r.mode: r for r in (bm25, dense, fused)}


# -- report --------------------------------------------------------------------------------
def table(results: dict[str, ModeResult]) -> str:
    groups = [("1-4", (1, 2, 3, 4))] + [(f"{c} {CATEGORIES[c]}", (c,)) for c in (1, 2, 3, 4)] + [("5 "
               "adversarial", (5,))]
    lines = []
    width = max(len(m) for m in results) + 1
    head = f"{'mode':<{width}}" + "".join(f"| {g:^23}" for g, _ in groups)
    sub = " " * width + "".join("|  R@5   R@10  MRR@10   " for _ in groups)
    lines += [head, sub, "-" * len(sub)]
    for mode, result in results.items():
        cells = []
        for _, cats in groups:
            s = result.summary(cats)
            cells.append(f"| {s['R@5']:5.3f}  {s['R@10']:5.3f}  {s['MRR@10']:5.3f}  " if s["n"] else "|   -" + " " * 20)
        lines.append(f"{mode:<{width}}" + "".join(cells))
    counts = [f"{g}: {results[next(iter(results))].summary(c)['n']}" for g, c in groups]
    lines.append("questions " + ", ".join(counts))
    lines.append("")
    lines.append(f"{'mode':<{width}} index (s)  query p50 (ms)  p95 (ms)")
    for mode, result in results.items():
        qs = sorted(result.query_ms)
        p50 = statistics.median(qs) if qs else float("nan")
        p95 = qs[min(len(qs) - 1, int(0.95 * len(qs)))] if qs else float("nan")
        lines.append(f"{mode:<{width}} {result.index_s:9.1f}  {p50:14.1f}  {p95:8.1f}")
    for result in results.values():
        lines.extend(f"note ({result.mode}): {n}" for n in result.notes)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, type=Path, help="a LoCoMo JSON file (locomo10.json or a subset)")
    parser.add_argument("--conversations", default="", help="comma-separated sample_ids (default: all)")
    parser.add_argument("--modes", default="hybrid,hybrid-rrf,keyword,vector",
                        help=f"memcourse modes, from: {', '.join(MODES)} (default: the first four)")
    parser.add_argument("--no-baselines", action="store_true", help="skip bm25s / plain Chroma / naive RRF")
    parser.add_argument("--json", type=Path, help="also write the summary numbers to this file")
    parser.add_argument("--passage-weight", type=float, default=None,
                        help="the whole text's share of a multi-sentence memory's similarity "
                             "(memcourse.recall.passages.PASSAGE_WEIGHT; 1 = whole text only), to re-run the tuning "
                             "grid")
    parser.add_argument("--no-passage-labels", action="store_true",
                        help="passages without the label their text opens with (the ablation in docs/benchmarks.md)")
    args = parser.parse_args(argv)
    if args.passage_weight is not None and not 0.0 <= args.passage_weight <= 1.0:
        print("locomo: --passage-weight must be in [0, 1]", file=sys.stderr)
        return 2
    only = [s.strip() for s in args.conversations.split(",") if s.strip()] or None
    try:
        conversations, report = load_locomo(args.data, only)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"locomo: cannot read {args.data}: {error}", file=sys.stderr)
        return 2
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    bad = [m for m in modes if m not in MODES]
    if bad:
        print(f"locomo: unknown mode(s) {', '.join(bad)}", file=sys.stderr)
        return 2
    turns = sum(len(c.turns) for c in conversations)
    questions = sum(len(c.questions) for c in conversations)
    print(f"{len(conversations)} conversations, {turns} turns, {questions} questions "
          f"({len(report.repaired)} evidence ids repaired, {len(report.dropped)} dropped, "
          f"{report.skipped_questions} questions without evidence skipped)")
    for line in report.repaired + [f"dropped {d}" for d in report.dropped]:
        print(f"  {line}")
    refused = refused_by_read_gate(conversations)
    print(f"{len(refused)} turns refused by the read gate (they cannot be recalled)")
    for line in refused:
        print(f"  {line}")
    from memcourse.embeddings import default_embedder

    embedder = default_embedder()
    start = time.perf_counter()
    embedder.embed([t.content for c in conversations for t in c.turns])  # the model load and embedding, once
    print(f"model load + embedding {turns} turns: {time.perf_counter() - start:.1f} s (shared by every mode)")
    with (
        tempfile.TemporaryDirectory(prefix="locomo-") as tmp,
        passage_rule(args.passage_weight, not args.no_passage_labels),
    ):
        results = run_store(conversations, modes, Path(tmp), embedder)
        if not args.no_baselines:
            results.update(run_baselines(conversations, Path(tmp), embedder))
    print(table(results))
    if args.json:
        summary = {mode: {g: r.summary(c) for g, c in [("1-4", (1, 2, 3, 4))] + [(str(k), (k,)) for k in CATEGORIES]}
                   for mode, r in results.items()}
        args.json.write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
