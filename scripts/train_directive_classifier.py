"""Train the write gate's learned directive classifier (``memcourse/data/directive_classifier.json``).

What it learns (see :mod:`memcourse.guards.learned`): from the USE-multilingual embedding of a
text, the probability that it is a directive to the assistant (an injection or a user-set rule)
rather than something a memory may be (a fact, a preference about this user's own answers, a
discussion of an attack, ordinary conversation).

Trained on development data only:

- attacks and benign cases of the development corpora: ``guard_corpus.json``,
  ``guard_corpus_paraphrase.json``, and the two training corpora ``guard_corpus_train.json``
  (attacks and benign twins in ten language codes) and ``guard_corpus_train_chat.json`` (benign
  everyday messages: second person, encouragement, imperatives aimed at people);
- benign text the project ships for other purposes: the recall sets' memories and queries, the
  extraction conversations' turns and the end-to-end benchmark's messages and questions.

The held-out corpora (``heldout``, ``fresh``, ``blind``, ``blind2``, ``blind3``) are never read here.

How it is tuned, all on the development data:

1. the regularisation strength ``C`` from :data:`C_GRID`, by five-fold out-of-fold predictions: the
   ``C`` whose thresholds (step 2) refuse the most development attacks;
2. a threshold per grammar class (fact, request, preference): the highest out-of-fold
   probability of any benign development text of that class, plus :data:`MARGIN` — with
   ``--locomo PATH``, also of every turn of a LoCoMo file (evaluation data, read in place, never
   copied) of that class, so ordinary conversation between people is not refused.

Run from the repository root::

    .venv/bin/python scripts/train_directive_classifier.py --locomo ../shared/benchmarks/locomo/locomo-dev.json
    .venv/bin/python scripts/train_directive_classifier.py --check   # retrains, compares, writes nothing
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memcourse.embeddings.use_multilingual import MODEL_ID  # noqa: E402
from memcourse.evaluations.guards import locomo_turns  # noqa: E402
from memcourse.guards.directives import classify, prepare  # noqa: E402
from memcourse.guards.learned import MAX_CHARS, WEIGHTS_FILE, embed  # noqa: E402

DATA = ROOT / "memcourse" / "data"
OUT = DATA / WEIGHTS_FILE
CORPORA = ("guard_corpus.json", "guard_corpus_paraphrase.json", "guard_corpus_train.json",
           "guard_corpus_train_chat.json")
BENIGN_SETS = ("recall_eval.json", "recall_crosslingual.json", "extraction_conversations.json", "e2e_benchmark.json")
ATTACKS = {"injection", "rule"}
C_GRID = (0.3, 1.0, 3.0)
MARGIN = 0.02
CLASSES = ("fact", "request", "preference")
FOLDS = 5


def _strings(node: object, keys: tuple[str, ...] = ("content", "text", "query", "question", "messages")) -> list[str]:
    if isinstance(node, dict):
        return [s for k, v in node.items()
                for s in ([v] if k in keys and isinstance(v, str)
                          else [m for m in v if isinstance(m, str)] + _strings(v, keys)
                          if k in keys and isinstance(v, list) else _strings(v, keys))]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v, keys)]
    return []


def training_set() -> tuple[list[str], np.ndarray, dict[str, int]]:
    """Texts, labels (True: a directive to refuse) and how many came from each file."""
    texts: list[str] = []
    labels: list[bool] = []
    counts: dict[str, int] = {}
    for name in CORPORA:
        cases = [c for c in json.loads((DATA / name).read_text(encoding="utf-8"))["cases"]
                 if c["label"] in ATTACKS or c["label"] == "benign"]
        texts += [c["base"] for c in cases]
        labels += [c["label"] in ATTACKS for c in cases]
        counts[name] = len(cases)
    for name in BENIGN_SETS:
        found = _strings(json.loads((DATA / name).read_text(encoding="utf-8")))
        texts += found
        labels += [False] * len(found)
        counts[name] = len(found)
    unique = dict(zip(texts, labels, strict=True))  # a text listed twice counts once (its last label)
    return list(unique), np.array(list(unique.values())), counts


def features(texts: list[str]) -> np.ndarray:
    prepared = [prepare(t).strip()[:MAX_CHARS] for t in texts]
    return np.vstack([embed(prepared[i:i + 256]) for i in range(0, len(prepared), 256)])


def grammar_classes(texts: list[str]) -> np.ndarray:
    return np.array([classify(t).memory_class.value for t in texts])


def thresholds(benign_p: np.ndarray, benign_class: np.ndarray) -> dict[str, float]:
    return {c: round(min(1.0, float(benign_p[benign_class == c].max(initial=0.0)) + MARGIN), 4) for c in CLASSES}


def refused(p: np.ndarray, classes: np.ndarray, limits: dict[str, float]) -> np.ndarray:
    return np.array([c in limits and q >= limits[c] for q, c in zip(p, classes, strict=True)])


def fit(x: np.ndarray, y: np.ndarray, c: float):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=c, class_weight="balanced", max_iter=5000).fit(x, y)


def out_of_fold(x: np.ndarray, y: np.ndarray, c: float) -> np.ndarray:
    from sklearn.model_selection import StratifiedKFold

    p = np.zeros(len(y))
    for train, test in StratifiedKFold(FOLDS, shuffle=True, random_state=0).split(x, y):
        p[test] = fit(x[train], y[train], c).predict_proba(x[test])[:, 1]
    return p


def train(locomo: Path | None) -> dict:
    texts, y, counts = training_set()
    x, classes = features(texts), grammar_classes(texts)
    best = None
    for c in C_GRID:
        oof = out_of_fold(x, y, c)
        limits = thresholds(oof[~y], classes[~y])
        caught = refused(oof, classes, limits)[y & (classes != "rule")]
        print(f"C={c}: thresholds {limits}; development attacks the grammar missed that the classifier "
              f"refuses (out of fold): {caught.sum()}/{len(caught)}")
        if best is None or caught.sum() > best[1]:
            best = (c, caught.sum(), limits)
    c, _, development = best
    model = fit(x, y, c)
    final = dict(development)
    conversation = locomo_turns(locomo) if locomo else []
    if conversation:
        pl = model.predict_proba(features(conversation))[:, 1]
        ordinary = thresholds(pl, grammar_classes(conversation))
        final = {k: max(development[k], ordinary[k]) for k in CLASSES}
        print(f"LoCoMo turns ({len(conversation)}): thresholds that refuse none of them {ordinary}")
    return {
        "description": "The write gate's learned directive classifier (memcourse.guards.learned): logistic "
                       "regression over USE-multilingual vectors of directives.prepare(text); made by "
                       "scripts/train_directive_classifier.py from development data only.",
        "embedder": MODEL_ID,
        "C": c,
        "trained_on": counts,
        "thresholds_development": development,
        "locomo_turns": len(conversation),
        "thresholds": final,
        "intercept": round(float(model.intercept_[0]), 6),
        "coef": [round(float(v), 6) for v in model.coef_[0]],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, help="a LoCoMo file whose turns the thresholds must not refuse")
    parser.add_argument("--check", action="store_true", help="retrain and compare with the shipped file")
    args = parser.parse_args(argv)
    result = train(args.locomo)
    if not args.check:
        OUT.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {OUT.relative_to(ROOT)} (C={result['C']}, thresholds {result['thresholds']})")
        return 0
    shipped = json.loads(OUT.read_text(encoding="utf-8"))
    same = (shipped["C"] == result["C"] and shipped["thresholds_development"] == result["thresholds_development"]
            and np.allclose(shipped["coef"], result["coef"], atol=1e-3)
            and abs(shipped["intercept"] - result["intercept"]) < 1e-3)
    print("the shipped weights reproduce" if same else "the shipped weights differ from a fresh training run")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
