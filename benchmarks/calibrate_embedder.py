"""Calibrate an embedding model's profile: map MiniLM's cosine constants onto another model.

Every constant that reads a cosine (memcourse.embeddings.profiles.ModelProfile) was tuned for
all-MiniLM-L6-v2. A cosine means something different in another model's space (e5's sit in
0.75-0.99), so this script moves each constant to the *same rank* in the other model's
distribution of cosines, measured on development data only:

* **similarity floor**: the share of (question, non-evidence turn) pairs of LoCoMo's dev
  conversations whose cosine is at or above MiniLM's floor (0.30); the other model's floor is
  the cosine that leaves the same share above it.
* **near-duplicate threshold**: the same mapping over (turn, turn) pairs of one conversation
  (a random sample, seeded), from MiniLM's 0.92. Checked (not tuned) on the restatement /
  distinct-fact pairs below, in English and Chinese: how many true restatements reach it, how
  many distinct facts would be merged.
* **dense fusion exponent**: the share of evidence among the vector channel's top 50, by
  normalised score (from the model's floor to the query's best), fitted to ``norm^p`` as
  benchmarks/relevance_curves.py does; the library's 1.5 was read off MiniLM's fit, so the
  other model gets ``1.5 · p_model / p_minilm`` (whole-turn cosines, no passages).
* **reads Chinese**: the mean known-token share of the Chinese sentences below is at or
  above the guard (``min_known_tokens``, 0.5).

The passage weight and the guard itself are not cosines of one model's scale (a mix of two
cosines of the same model, a share of tokens) and stay as MiniLM's.

Run (from the repository root; ~1-3 minutes per model on 2 cores)::

    .venv/bin/python benchmarks/calibrate_embedder.py --data ../shared/benchmarks/locomo/locomo-dev.json \\
        --models minilm,use-multilingual,e5-small,minilm+use
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from locomo import load_locomo  # noqa: E402
from relevance_curves import curve  # noqa: E402

from memcourse.embeddings import MINILM_MODEL, Embedder, profile_for  # noqa: E402

REFERENCE = profile_for(MINILM_MODEL)
VECTOR_DEPTH = 50
TURN_PAIRS_PER_CONVERSATION = 40_000

#: Development pairs written for this script: (a, b) says the same fact twice (restated) or
#: two different facts on one topic (distinct). Not used by any evaluation set.
RESTATED = {
    "en": [
        ("The user prefers short answers", "The user likes answers to be brief"),
        ("Lives in Lyon with two cats", "Has two cats and lives in Lyon"),
        ("Works as a nurse at the city hospital", "Is a nurse employed by the city hospital"),
        ("Allergic to peanuts", "Has a peanut allergy"),
        ("Wants code examples in Go", "Prefers Go for code samples"),
        ("Runs every morning before work", "Goes for a run each morning before starting work"),
        ("Their daughter is called Ana", "Ana is the name of their daughter"),
        ("Does not drink coffee after noon", "Avoids coffee in the afternoon"),
        ("Plans to visit Japan in October", "Is planning a trip to Japan this October"),
        ("Uses a standing desk at home", "Works at a standing desk in the home office"),
    ],
    "zh": [
        ("用户喜欢简短的回答", "用户希望回答简短一些"),
        ("住在杭州西湖区", "家在杭州的西湖区"),
        ("对花生过敏", "有花生过敏症"),
        ("每天早上跑步", "每天早晨都去跑步"),
        ("女儿叫小雨", "他的女儿名叫小雨"),
        ("下午不喝咖啡", "午后不再喝咖啡"),
        ("计划十月去日本旅游", "打算今年十月去日本玩"),
        ("在家用站立式办公桌", "家里办公用的是站立桌"),
        ("代码示例用 Go 语言", "写代码示例时用 Go"),
        ("在市医院当护士", "是市医院的一名护士"),
    ],
}
DISTINCT = {
    "en": [
        ("The user prefers short answers", "The user prefers answers with examples"),
        ("Lives in Lyon with two cats", "Lives in Paris with one dog"),
        ("Works as a nurse at the city hospital", "Works as a teacher at the city school"),
        ("Allergic to peanuts", "Allergic to cats"),
        ("Wants code examples in Go", "Wants code examples in Rust"),
        ("Runs every morning before work", "Swims every evening after work"),
        ("Their daughter is called Ana", "Their son is called Leo"),
        ("Does not drink coffee after noon", "Drinks green tea after lunch"),
        ("Plans to visit Japan in October", "Visited Korea last spring"),
        ("Uses a standing desk at home", "Uses a laptop stand at the office"),
    ],
    "zh": [
        ("用户喜欢简短的回答", "用户喜欢带例子的回答"),
        ("住在杭州西湖区", "住在南京鼓楼区"),
        ("对花生过敏", "对猫毛过敏"),
        ("每天早上跑步", "每天晚上游泳"),
        ("女儿叫小雨", "儿子叫小明"),
        ("下午不喝咖啡", "午饭后喝绿茶"),
        ("计划十月去日本旅游", "去年春天去了韩国"),
        ("在家用站立式办公桌", "在公司用笔记本支架"),
        ("代码示例用 Go 语言", "代码示例用 Rust 语言"),
        ("在市医院当护士", "在市中学当老师"),
    ],
}


def share_at_or_above(values: np.ndarray, threshold: float) -> float:
    return float((values >= threshold).mean())


def mapped(values: np.ndarray, share: float) -> float:
    """The cosine that leaves ``share`` of ``values`` at or above it."""
    return float(np.quantile(values, 1.0 - share))


def measure(embedder: Embedder, conversations) -> dict[str, object]:
    """The raw distributions one model produces on the development data."""
    rng = random.Random(2026)
    unrelated, turn_pairs, rows = [], [], []
    for conv in conversations:
        vectors = embedder.embed([t.content for t in conv.turns])
        ids = [t.dia_id for t in conv.turns]
        questions = [q for q in conv.questions if q.category in (1, 2, 3, 4)]
        queries = embedder.embed_queries([q.text for q in questions])
        cosines = queries @ vectors.T
        for q, row in zip(questions, cosines, strict=True):
            evidence = set(q.evidence)
            unrelated.append(row[[i for i, d in enumerate(ids) if d not in evidence]])
            top = np.argsort(-row)[:VECTOR_DEPTH]
            rows.append([(float(row[i]), ids[i] in evidence) for i in top])
        n = len(ids)
        a = np.array([rng.randrange(n) for _ in range(TURN_PAIRS_PER_CONVERSATION)])
        b = np.array([rng.randrange(n) for _ in range(TURN_PAIRS_PER_CONVERSATION)])
        keep = a != b
        turn_pairs.append(np.einsum("ij,ij->i", vectors[a[keep]], vectors[b[keep]]))
    pairs = {}
    for name, table in (("restated", RESTATED), ("distinct", DISTINCT)):
        for lang, items in table.items():
            left = embedder.embed([x for x, _ in items])
            right = embedder.embed([y for _, y in items])
            pairs[(name, lang)] = np.einsum("ij,ij->i", left, right)
    zh = [s for lang in ("zh",) for table in (RESTATED, DISTINCT) for pair in table[lang] for s in pair]
    return {
        "unrelated": np.concatenate(unrelated),
        "turn_pairs": np.concatenate(turn_pairs),
        "rows": rows,
        "pairs": pairs,
        "zh_known": float(np.mean(embedder.known_token_ratios(zh))),
    }


def exponent(rows, floor: float) -> float:
    """The fitted ``norm^p`` of the vector channel's candidates above ``floor``."""
    points = []
    for row in rows:
        kept = [(c, e) for c, e in row if c >= floor]
        if not kept:
            continue
        best = kept[0][0]
        span = best - floor
        for c, e in kept:
            points.append(((c - floor) / span if span > 0 else 1.0, e))
    return curve(points)[2]


def calibrate(found: dict[str, object], reference: dict[str, object]) -> dict[str, float]:
    """The mapped floor, near-duplicate threshold and dense exponent of one model's distributions
    (``found``, from :func:`measure`), against MiniLM's (``reference``)."""
    floor_share = share_at_or_above(reference["unrelated"], REFERENCE.similarity_floor)
    dup_share = share_at_or_above(reference["turn_pairs"], REFERENCE.dedupe_threshold)
    p_reference = exponent(reference["rows"], REFERENCE.similarity_floor)
    floor = mapped(found["unrelated"], floor_share)
    p = exponent(found["rows"], floor)
    return {"floor": floor, "threshold": mapped(found["turn_pairs"], dup_share), "fit": p,
            "sharpen": REFERENCE.vector_sharpen * p / p_reference, "floor_share": floor_share,
            "dup_share": dup_share, "p_reference": p_reference}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, type=Path, help="LoCoMo development JSON (locomo-dev.json)")
    parser.add_argument("--models", default="minilm,use-multilingual,e5-small,minilm+use",
                        help="comma-separated models")
    args = parser.parse_args(argv)
    conversations, _ = load_locomo(args.data)
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    reference = measure(Embedder(MINILM_MODEL), conversations)
    base = calibrate(reference, reference)
    print(f"reference {MINILM_MODEL}: {base['floor_share']:.4f} of unrelated question/turn pairs >= floor "
          f"{REFERENCE.similarity_floor}; {base['dup_share']:.6f} of turn pairs >= {REFERENCE.dedupe_threshold}; "
          f"vector exponent fit {base['p_reference']:.2f} (library {REFERENCE.vector_sharpen})")
    header = (f"{'model':<26} {'floor':>6} {'dedupe':>7} {'sharpen':>7} {'fit p':>6} {'zh known':>8} "
              f"{'reads zh':>8} | restated>=t en zh | distinct>=t en zh")
    print(header)
    for model in models:
        embedder = Embedder(model)
        found = reference if embedder.model_id == MINILM_MODEL else measure(embedder, conversations)
        mapping = calibrate(found, reference)
        threshold = mapping["threshold"]
        pairs = found["pairs"]
        counts = [f"{int((pairs[(k, lang)] >= threshold).sum())}/{len(pairs[(k, lang)])}"
                  for k in ("restated", "distinct") for lang in ("en", "zh")]
        reads = found["zh_known"] >= REFERENCE.min_known_tokens
        print(f"{embedder.model_id:<26} {mapping['floor']:6.3f} {threshold:7.3f} {mapping['sharpen']:7.2f} "
              f"{mapping['fit']:6.2f} {found['zh_known']:8.2f} {str(reads):>8} | {counts[0]:>7} {counts[1]:>5} "
              f"| {counts[2]:>7} {counts[3]:>5}")
        for (kind, lang), values in sorted(pairs.items()):
            print(f"    {kind:<8} {lang}: cosine min {values.min():.3f} median {np.median(values):.3f} "
                  f"max {values.max():.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
