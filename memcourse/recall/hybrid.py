"""Hybrid ranking: from each channel's candidates to a final, explained list of hits.

A store finds candidates (the vector channel asks Chroma for neighbours, the keyword
channel asks BM25); this module decides the order. Keeping the decision here, away from
storage, means the ranking can be read, tested and improved without touching how records
are kept, and every store that has channels ranks the same way.

The steps, each visible in a hit's ``breakdown``:

1. *Fusion.* The default (``fusion="weighted"``) mixes the channels' normalised scores
   with per-query weights (:func:`channel_weights`, :func:`memcourse.recall.fusion.weighted_fusion`):

   - the dense channel gets 0.6 when BM25's best match contains none of the query's words,
     falling linearly to 0.2 when it contains all of them (then keyword matching has
     probably found the answer), times the share of the query the embedding model can read
     (0 for a Chinese query with an English-only model such as MiniLM);
   - the keyword channel gets the rest;
   - each channel's normalised score is raised to its own power (:data:`SHARPEN`: 3 for
     BM25, 1.5 for cosine), the shape of how likely its candidates are to be relevant;
   - the dense channel's score for a memory of several sentences is passage-aware (half its
     whole text's cosine, half its best passage's: :mod:`memcourse.recall.passages`), which
     the store computes before handing ``similarity`` over.

   ``fusion="rrf"`` is plain Reciprocal Rank Fusion (k = 60), the teachable baseline.
   An *exact identifier* in the query (an order number, a ticket, a version: see
   :func:`memcourse.text.identifiers`) is routed first: a memory containing it gets
   ``ID_BONUS`` (1.0, as much as the best fused score) per identifier share, so it can never
   lose to a fusion tie.
2. *Product rules*: ``final = fused × decay × boost × task_priority``, where ``decay`` is
   the bounded recency factor (age may take at most 10 % from an event, nothing from a
   preference: :func:`memcourse.recall.decay.recency_factor`), ``boost`` the capped access
   bonus times the importance factor (0.95-1.05), and ``task_priority`` (×1.5) applies to a
   *task* memory when the query names its subject or speaks of tasks ("任务", "progress").
3. *Admission gate*: relevant, active, unexpired, confident, permitted, safe; run only on
   candidates that can still make the top ``limit``; its text checks are decided once per
   version of a memory (:mod:`memcourse.recall.verdicts`).

How the constants were chosen (on LoCoMo's development conversations only, tuned on three
and checked on the other two; the shipped bilingual set was never used to tune):
docs/benchmarks.md.
"""

from __future__ import annotations

import math
import unicodedata
from datetime import datetime
from typing import Callable, Iterable, Literal, Mapping, get_args

from memcourse.recall.admission import MIN_CONFIDENCE
from memcourse.recall.decay import DEFAULT_LAMBDA, access_boost, importance_factor, recency_factor
from memcourse.recall.fusion import DEFAULT_K, rrf, weighted_fusion
from memcourse.recall.hit import Hit
from memcourse.recall.keyword import TASK_CUES
from memcourse.recall.verdicts import VERDICTS
from memcourse.records import MemoryRecord, MemoryType, parse_timestamp
from memcourse.text import MONTH_NAMES, identifiers, keyword_tokens, token_set, tokenize

#: The search modes every vector store takes (the JSON store is keyword-only).
SearchMode = Literal["hybrid", "vector", "keyword"]
MODES: tuple[SearchMode, ...] = get_args(SearchMode)
FUSIONS = ("weighted", "rrf")
#: Cosine similarity at which a vector hit starts to count (all-MiniLM-L6-v2: unrelated
#: English sentences measure up to ~0.35, paraphrases 0.5 and more). Also the zero point of
#: the dense channel's normalised score, so a hit just above it adds almost nothing.
SIMILARITY_FLOOR = 0.30
#: A text whose model tokens are mostly [UNK] has a vector that means nothing.
MIN_KNOWN_TOKENS = 0.5
#: The dense channel's weight when BM25's best match holds none / all of the query's words
#: (and the model can read the whole query); in between, linear in that coverage.
DENSE_WEIGHT_MAX, DENSE_WEIGHT_MIN = 0.6, 0.2
#: The power each channel's normalised score is raised to before mixing. ``norm^p`` is read
#: as "how likely is this candidate relevant, compared with the channel's best": measured
#: on LoCoMo's development conversations (docs/benchmarks.md), the share of candidates that
#: are evidence grows like norm^3.4 (conv-26/30/41; norm^3.1 on conv-42/43) for BM25 and
#: norm^1.8 (1.6) for cosine. BM25's runners-up share the query's common words and names
#: with its best match, so they reach a large part of its score without being about the
#: question; a cosine's runner-up at the same normalised score is more often a paraphrase
#: of the answer. Equal exponents overrate keyword runners-up against dense candidates.
SHARPEN = {"keyword": 3.0, "vector": 1.5}
#: BM25's parameters in the stores (short memories: length matters less than in documents).
BM25_PARAMS = {"k1": 1.2, "b": 0.5}
#: What a memory holding every exact identifier of the query adds to its fused score.
ID_BONUS = 1.0
#: Multiplier for a task memory the query is about.
TASK_PRIORITY = 1.5
#: How deep each channel looks before fusion.
VECTOR_DEPTH, KEYWORD_DEPTH = 50, 50
#: The largest access boost times the largest importance factor: decay is <= 1, so
#: fused × this × task priority bounds a candidate's final score.
MAX_BOOST = access_boost(10**9) * importance_factor(1.0)


def keyword_text(record: MemoryRecord) -> str:
    """What the keyword channel indexes for a memory: subject, content, tags, and the date
    it was written, spelled the ways a question names a date ("8 May 2023", "2023年5月8日"),
    so "what did we discuss in May 2023?" can find it. (The date is that of ``created_at``:
    for a conversation turn, when it was said.)"""
    day = record.created_at
    date = f"{day.day} {MONTH_NAMES[day.month - 1]} {day.year} {day.year}年{day.month}月{day.day}日"
    return " ".join([record.subject, record.content, *record.tags, date])


def names_task(query_tokens: set[str], record: MemoryRecord) -> bool:
    """Is the query about this task? It names the task's subject, or talks about tasks."""
    if record.memory_type is not MemoryType.TASK:
        return False
    return bool(query_tokens & token_set(record.subject)) or bool(query_tokens & TASK_CUES)


def best_multiplier(memory_type: str | None) -> float:
    """The most the product rules can lift a fused score (unknown type: assume a task)."""
    task = memory_type is None or memory_type == MemoryType.TASK.value
    return MAX_BOOST * (TASK_PRIORITY if task else 1.0)


def coverage(query: str, text: str) -> float:
    """Share of the query's distinct keyword tokens that ``text`` contains (0..1).

    >>> round(coverage("When did Jon visit Paris?", "Jon: I was in Paris last week"), 2)   # jon, paris
    0.67
    """
    wanted = set(keyword_tokens(query))
    return len(wanted & set(keyword_tokens(text))) / len(wanted) if wanted else 0.0


def channel_weights(best_keyword_coverage: float, *, readability: float = 1.0) -> dict[str, float]:
    """The per-query weights of the two channels (they sum to 1).

    The evidence each channel has for *this* query: how much of the query BM25's best match
    contains (``best_keyword_coverage``: all of it, and keyword matching has likely found
    the answer; one word in four, and the answer may well be a paraphrase only the dense
    channel can see), and how much of the query the embedding model can read
    (``readability``, ``Embedder.known_token_ratio``: 0 for Chinese with the English model).
    The dense weight runs from ``DENSE_WEIGHT_MAX`` (best keyword match covers nothing) down
    to ``DENSE_WEIGHT_MIN`` (covers everything), times readability.

    >>> channel_weights(1.0)
    {'vector': 0.2, 'keyword': 0.8}
    >>> channel_weights(0.25)
    {'vector': 0.5, 'keyword': 0.5}
    >>> channel_weights(0.5, readability=0.0)   # the model cannot read the query
    {'vector': 0.0, 'keyword': 1.0}
    """
    for name, value in (("best_keyword_coverage", best_keyword_coverage), ("readability", readability)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    dense = DENSE_WEIGHT_MAX - (DENSE_WEIGHT_MAX - DENSE_WEIGHT_MIN) * best_keyword_coverage
    vector = round(dense * readability, 12)
    return {"vector": vector, "keyword": round(1.0 - vector, 12)}


def admitted(record: MemoryRecord, *, now: datetime, min_confidence: float) -> bool:
    """The admission gate's verdict, ``bool(admit(record, now=now, ...))``, with the text
    checks decided once per version (:mod:`memcourse.recall.verdicts`); expiry and
    confidence are checked every time."""
    if record.is_expired(now) or record.confidence < min_confidence:
        return False
    return VERDICTS.passes(record)


def check_fusion(fusion: object) -> str:
    """``fusion`` must be one of :data:`FUSIONS`; returns it."""
    if not isinstance(fusion, str) or fusion not in FUSIONS:
        raise ValueError(f"fusion must be one of {', '.join(FUSIONS)}; got {fusion!r}")
    return fusion


def _fuse(
    fusion: str,
    rankings: Mapping[str, list[str]],
    similarity: Mapping[str, float],
    keyword_score: Mapping[str, float],
    readability: float,
    rrf_k: float,
    similarity_floor: float,
    best_coverage: float,
    sharpen: Mapping[str, float],
) -> tuple[list[tuple[str, float, dict[str, int | None]]], dict[str, float]]:
    """Fused candidates ``(id, score, channel ranks)`` best first, and the weights used."""
    if fusion == "rrf":
        return rrf(rankings, k=rrf_k), {}
    ranks: dict[str, dict[str, int | None]] = {}
    for channel, ids in rankings.items():
        for position, doc_id in enumerate(ids, start=1):
            ranks.setdefault(doc_id, dict.fromkeys(rankings))
            if ranks[doc_id][channel] is None:
                ranks[doc_id][channel] = position
    dense = {d: similarity.get(d, similarity_floor) for d in rankings.get("vector", [])}
    scores = {"vector": dense, "keyword": {d: keyword_score.get(d, 0.0) for d in rankings.get("keyword", [])}}
    weights = channel_weights(best_coverage, readability=readability)
    fused = weighted_fusion(scores, weights, floors={"vector": similarity_floor}, sharpen=sharpen)
    return [(doc_id, score, ranks[doc_id]) for doc_id, score, _ in fused], weights


def rank_hits(
    query: str,
    *,
    rankings: Mapping[str, list[str]],
    fetch: Callable[[Iterable[str]], dict[str, MemoryRecord]],
    type_of: Callable[[str], str | None],
    user_id: str,
    now: datetime,
    limit: int,
    mode: str,
    similarity: Mapping[str, float] | None = None,
    keyword_score: Mapping[str, float] | None = None,
    rrf_k: float = DEFAULT_K,
    decay_lambda: float = DEFAULT_LAMBDA,
    min_confidence: float = MIN_CONFIDENCE,
    fusion: str = "weighted",
    readability: float = 1.0,
    similarity_floor: float = SIMILARITY_FLOOR,
    sharpen: Mapping[str, float] = SHARPEN,
) -> list[Hit]:
    """Fuse channel rankings into at most ``limit`` admitted hits, best first.

    ``rankings`` maps a channel name (``"vector"``, ``"keyword"``) to candidate ids, best
    first; ``similarity``/``keyword_score`` give each channel's raw scores (cosine, BM25),
    which the weighted fusion mixes. ``fetch(ids)`` loads records (a store's read);
    ``type_of(id)`` says a candidate's memory type without loading it (``None`` if
    unknown), so that loading can stop early. ``fusion`` is ``"weighted"`` (default) or
    ``"rrf"`` (uses ``rrf_k``); ``readability`` is the share of the query the embedding
    model can read; ``similarity_floor`` the cosine the vector channel cut at; ``sharpen`` the
    per-channel exponents of the weighted fusion. A store passes these from its
    :class:`~memcourse.recall.config.RecallConfig` (``**config.ranking_arguments()``).
    """
    check_fusion(fusion)
    now = parse_timestamp(now, "now")
    if isinstance(min_confidence, bool) or not isinstance(min_confidence, (int, float)) or not (
        math.isfinite(min_confidence) and 0.0 <= min_confidence <= 1.0
    ):
        raise ValueError(f"min_confidence must be in [0, 1], got {min_confidence!r}")
    similarity = similarity or {}
    keyword_score = keyword_score or {}
    records: dict[str, MemoryRecord] = {}  # loaded so far
    best_coverage = 0.0
    keyword_ranking = rankings.get("keyword")
    top_keyword = keyword_ranking[0] if keyword_ranking else None
    if fusion == "weighted" and top_keyword is not None and rankings.get("vector"):
        records.update(fetch([top_keyword]))
        if top_keyword in records:
            best_coverage = coverage(query, keyword_text(records[top_keyword]))
    fused, weights = _fuse(
        fusion, rankings, similarity, keyword_score, readability, rrf_k, similarity_floor, best_coverage, sharpen
    )
    query_tokens = token_set(query)
    wanted_ids = set(identifiers(query))
    scored: dict[str, Hit] = {}  # loaded and scored (not yet admitted)
    verdicts: dict[str, bool] = {}  # admission decisions, each taken once

    def score(step: list[tuple[str, float, dict[str, int | None]]]) -> None:
        missing = [doc_id for doc_id, _, _ in step if doc_id not in records]
        if missing:
            records.update(fetch(missing))
        for doc_id, fused_score, ranks in step:
            record = records.get(doc_id)
            if record is None or record.user_id != user_id:
                continue  # deleted by another process since the index was built
            id_share = 0.0
            if wanted_ids and ranks.get("keyword") is not None:  # only BM25 can have matched an id token
                text = keyword_text(record)
                folded = unicodedata.normalize("NFKC", text).lower()
                if any(wanted in folded for wanted in wanted_ids):  # cheap test before tokenising
                    id_share = len(wanted_ids & set(tokenize(text))) / len(wanted_ids)
            fused_total = fused_score + ID_BONUS * id_share
            decay = recency_factor(record, now, lam=decay_lambda)
            access = access_boost(record.access_count)
            importance = importance_factor(record.importance)
            boost = access * importance
            priority = TASK_PRIORITY if names_task(query_tokens, record) else 1.0
            final = fused_total * decay * boost * priority
            sim = similarity.get(doc_id)
            breakdown = {
                "mode": mode,
                "fusion": fusion,
                "weights": dict(weights),
                "vector_rank": ranks.get("vector"),
                "keyword_rank": ranks.get("keyword"),
                "vector_distance": None if sim is None else 1.0 - sim,
                "similarity": sim,
                "keyword_score": keyword_score.get(doc_id),
                "identifier": id_share,
                "fused": fused_total,
                "decay": decay,
                "access_boost": access,
                "importance": importance,
                "boost": boost,
                "task_priority": priority,
                "final": final,
            }
            scored[doc_id] = Hit(record, final, breakdown)

    def best_admitted() -> list[Hit]:
        """The scored hits that pass the admission gate, best first, at most ``limit``.
        The gate runs only on hits that could make the list (it scans text: not free)."""
        kept = []
        in_order = sorted(scored.values(),
                          key=lambda h: (-h.score, -h.record.updated_at.timestamp(), h.record.memory_id))
        for hit in in_order:
            doc_id = hit.record.memory_id
            if doc_id not in verdicts:
                verdicts[doc_id] = admitted(hit.record, now=now, min_confidence=min_confidence)
            if verdicts[doc_id]:
                kept.append(hit)
                if len(kept) == limit:
                    break
        return kept

    # Load and score the top 2×limit fused candidates, admit the best of them, then load
    # only those of the rest that could still reach the top `limit`: the product rules
    # multiply a fused score by at most MAX_BOOST (× TASK_PRIORITY for a task), decay only
    # lowers it, and an identifier adds at most ID_BONUS (only to a candidate BM25 found: an
    # id is a token, so a memory holding it has a BM25 score), so a candidate whose best case is
    # below the current limit-th admitted score cannot climb into the result. Exact, and it
    # skips most loads and most runs of the gate.
    bonus = ID_BONUS if wanted_ids else 0.0
    score(fused[: 2 * limit])
    rest = fused[2 * limit :]
    while True:
        hits = best_admitted()
        if len(hits) >= limit:
            kth = hits[limit - 1].score
            rest = [
                c for c in rest
                if (c[1] + (bonus if c[2].get("keyword") is not None else 0.0)) * best_multiplier(type_of(c[0])) >= kth
            ]
        if not rest:
            return hits
        score(rest)
        rest = []
