"""Train the write gate's learned directive classifier (``memcourse/data/directive_classifier*``).

What it learns (see :mod:`memcourse.guards.learned`): from the USE-multilingual embedding of a
text, the probability that it is a directive to the assistant (an injection or a user-set rule)
rather than something a memory may be (a fact, a preference about this user's own answers, a
discussion of an attack, ordinary conversation).

Trained on development data only:

- attacks and benign cases of every development corpus: ``guard_corpus.json``,
  ``guard_corpus_paraphrase.json``, the training corpora ``guard_corpus_train.json`` and
  ``guard_corpus_train2.json`` (attacks and benign twins in ten language codes),
  ``guard_corpus_train_chat.json`` and ``guard_corpus_train_chat2.json`` (benign everyday messages:
  second person, encouragement, advice between friends, catching up), the development splits
  ``injections2`` and ``injections3``, and the sets of rounds 14 to 18 (``guard_corpus_round1*.json``,
  blind when written, read and tested since);
- benign text the project ships for other purposes: the recall sets' memories and queries, the
  extraction conversations' turns and the end-to-end benchmark's messages and questions.

The held-out corpora (every ``guard_corpus_*_heldout.json``) are never read here.

How it is tuned, all on the development data:

1. the model: a support-vector machine with an RBF kernel (scikit-learn's ``SVC``; the gate
   evaluates it with numpy alone, :class:`memcourse.guards.learned.DirectiveModel`), its
   regularisation ``C`` from :data:`C_GRID`, by five-fold out-of-fold scores: the ``C`` whose
   thresholds (step 2) refuse the most development attacks the grammar missed. The logistic
   regression it replaced is scored the same way and printed beside it, for the record;
2. a threshold per grammar class (fact, request, preference), on the out-of-fold scores of that
   class's benign development texts: just above the (:data:`ALLOWED_BENIGN` + 1)-th highest, plus
   :data:`MARGIN`. A few benign texts per class may score above it out of fold: each class's top
   benign texts are texts on the line (a promotion phrased as a wish about "all answers", a family
   rule stated in the imperative), and setting the bar above them would refuse almost nothing. With
   ``--locomo PATH`` the threshold is then raised above every turn of a LoCoMo file (evaluation
   data, read in place, never copied) of that class: ordinary conversation between people is
   never refused;
3. one more threshold, ``scoped``, for the texts whose grammar names a scope
   (:data:`memcourse.guards.learned.SCOPE_SIGNALS`) but reads no order: set the same way, on
   the out-of-fold scores of the benign development texts of that kind (whatever their class),
   and raised above every LoCoMo turn of that kind.

Run from the repository root::

    .venv/bin/python scripts/train_directive_classifier.py --locomo ../shared/benchmarks/locomo/locomo-dev.json
    .venv/bin/python scripts/train_directive_classifier.py --check   # retrains, compares, writes nothing
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memcourse.embeddings.use_multilingual import MODEL_ID  # noqa: E402
from memcourse.evaluations.guards import locomo_turns  # noqa: E402
from memcourse.guards.directives import MemoryClass, classify, prepare  # noqa: E402
from memcourse.guards.learned import (  # noqa: E402
    MAX_CHARS,
    VECTORS_FILE,
    WEIGHTS_FILE,
    DirectiveModel,
    embed,
    load_model,
    scope_signal,
)

DATA = ROOT / "memcourse" / "data"
OUT = DATA / WEIGHTS_FILE
VECTORS = DATA / VECTORS_FILE
CORPORA = ("guard_corpus.json", "guard_corpus_paraphrase.json", "guard_corpus_train.json", "guard_corpus_train2.json",
           "guard_corpus_train_chat.json", "guard_corpus_train_chat2.json", "guard_corpus_injections2.json",
           "guard_corpus_injections3.json",
           "guard_corpus_round14.json", "guard_corpus_round15.json", "guard_corpus_round16.json",
           "guard_corpus_round17.json", "guard_corpus_round18.json")
BENIGN_SETS = ("recall_eval.json", "recall_crosslingual.json", "extraction_conversations.json", "e2e_benchmark.json")
ATTACKS = {"injection", "rule"}
C_GRID = (1.0, 3.0, 10.0)
#: Benign development texts per class that may score above the threshold out of fold. Round 6 set 1
#: when the classes held 2,354 benign texts the grammar does not call rules (3 of them, 0.13 %, were
#: refused out of fold); round 19 trains on 6,343 such texts, about three times as many, and allows
#: three: 7 of them (0.11 %) refused out of fold (benchmarks/directive_training_folds.py). With one,
#: the second-highest benign score of thousands had become one odd text's choice.
ALLOWED_BENIGN = 3
#: How far above that benign score the threshold sits, on the decision scale.
MARGIN = 0.05
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


def scoped(texts: list[str], classes: np.ndarray) -> np.ndarray:
    """Which texts the ``scoped`` threshold reads: not a rule, and the grammar names a scope."""
    return np.array([c != "rule" and scope_signal(t, MemoryClass(c)) is not None
                     for t, c in zip(texts, classes, strict=True)])


def development_data() -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, int], np.ndarray]:
    """The development texts embedded, their labels, their grammar classes, the counts per file,
    and which texts the ``scoped`` threshold reads."""
    texts, y, counts = training_set()
    classes = grammar_classes(texts)
    return features(texts), y, classes, counts, scoped(texts, classes)


def bar(benign_scores: np.ndarray, allowed: int) -> float:
    """A decision-scale threshold just above the (allowed + 1)-th highest of these benign scores."""
    ranked = np.sort(benign_scores)[::-1]
    return float(ranked[allowed]) + MARGIN if len(ranked) > allowed else -np.inf


def limits(benign_scores: np.ndarray, benign_class: np.ndarray, allowed: int) -> dict[str, float]:
    """Per class, the :func:`bar` of its benign scores."""
    return {c: bar(benign_scores[benign_class == c], allowed) for c in CLASSES}


def refused(scores: np.ndarray, classes: np.ndarray, bars: dict[str, float],
            in_scope: np.ndarray | None = None) -> np.ndarray:
    """Which texts the thresholds refuse (``in_scope``: which of them the ``scoped`` bar reads)."""
    in_scope = np.zeros(len(scores), bool) if in_scope is None else in_scope
    return np.array([c in bars and (q >= bars[c] or (s and q >= bars.get("scoped", np.inf)))
                     for q, c, s in zip(scores, classes, in_scope, strict=True)])


def fit_svm(x: np.ndarray, y: np.ndarray, c: float, probability: bool = False):
    from sklearn.svm import SVC

    extra = {"probability": True} if probability else {}  # scikit-learn 1.9 warns whenever it is passed
    return SVC(C=c, kernel="rbf", class_weight="balanced", random_state=0, **extra).fit(x, y)


def fit_logistic(x: np.ndarray, y: np.ndarray, c: float):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=c, class_weight="balanced", max_iter=5000).fit(x, y)


def out_of_fold(x: np.ndarray, y: np.ndarray, fit) -> np.ndarray:
    """Each text's score from a model that never saw it (five folds)."""
    from sklearn.model_selection import StratifiedKFold

    scores = np.zeros(len(y))
    for train_part, test_part in StratifiedKFold(FOLDS, shuffle=True, random_state=0).split(x, y):
        scores[test_part] = fit(x[train_part], y[train_part]).decision_function(x[test_part])
    return scores


def caught_out_of_fold(scores: np.ndarray, y: np.ndarray, classes: np.ndarray) -> tuple[int, int, dict[str, float]]:
    """Development attacks the grammar missed that these scores refuse, of how many, at the thresholds."""
    bars = limits(scores[~y], classes[~y], ALLOWED_BENIGN)
    caught = refused(scores, classes, bars)[y & (classes != "rule")]
    return int(caught.sum()), len(caught), bars


def train(locomo: Path | None, grid: tuple[float, ...] = C_GRID, compare: bool = True,
          data: tuple | None = None) -> tuple[dict, np.ndarray]:
    """The classifier's data file (a dict) and its support vectors. ``grid``: the ``C`` values
    to choose from; ``compare``: also score the logistic regression the SVM replaced; ``data``:
    the development set already embedded, as :func:`development_data` returns it."""
    x, y, classes, counts, in_scope = data or development_data()
    if compare:
        caught, total, _ = caught_out_of_fold(out_of_fold(x, y, lambda a, b: fit_logistic(a, b, 0.3)), y, classes)
        print(f"logistic regression (C=0.3), for comparison: refuses {caught}/{total} development attacks "
              "the grammar missed (out of fold)")
    best = None
    for c in grid:
        scores = out_of_fold(x, y, lambda a, b, c=c: fit_svm(a, b, c))
        caught, total, bars = caught_out_of_fold(scores, y, classes)
        print(f"RBF SVM, C={c}: refuses {caught}/{total} development attacks the grammar missed (out of fold); "
              f"decision thresholds { {k: round(v, 3) for k, v in bars.items()} }")
        if best is None or caught > best[1]:
            best = (c, caught, bars, scores)
    c, _, bars, scores = best
    bars["scoped"] = bar(scores[~y & in_scope], ALLOWED_BENIGN)
    more = refused(scores, classes, bars, in_scope) & ~refused(scores, classes, bars)
    print(f"scoped threshold {bars['scoped']:.3f} (decision scale): refuses {int(more[y].sum())} more development "
          f"attacks and {int(more[~y].sum())} more benign texts out of fold ({int(in_scope.sum())} texts name a scope)")
    with warnings.catch_warnings():  # scikit-learn 1.9 deprecates the Platt fit used here; pyproject pins < 1.11
        warnings.filterwarnings("ignore", category=FutureWarning, module="sklearn")
        model = fit_svm(x, y, c, probability=True)
        slope, offset = float(model.probA_[0]), float(model.probB_[0])

    def probability(score: float) -> float:
        return round(1.0 / (1.0 + float(np.exp(slope * score + offset))), 6)

    development = {k: probability(v) for k, v in bars.items()}
    final = dict(bars)
    conversation = locomo_turns(locomo) if locomo else []
    if conversation:
        talk_scores, talk_classes = model.decision_function(features(conversation)), grammar_classes(conversation)
        ordinary = limits(talk_scores, talk_classes, 0)
        talk_scoped = scoped(conversation, talk_classes)
        ordinary["scoped"] = bar(talk_scores[talk_scoped], 0)
        final = {k: max(bars[k], ordinary[k]) for k in (*CLASSES, "scoped")}
        print(f"LoCoMo turns ({len(conversation)}, {int(talk_scoped.sum())} name a scope): decision thresholds "
              f"that refuse none of them { {k: round(v, 3) for k, v in ordinary.items()} }")
    result = {
        "description": "The write gate's learned directive classifier (memcourse.guards.learned): an RBF-kernel "
                       "support-vector machine over USE-multilingual vectors of directives.prepare(text), with "
                       "Platt scaling; its support vectors are in directive_classifier_vectors.npy; made by "
                       "scripts/train_directive_classifier.py from development data only.",
        "embedder": MODEL_ID,
        "C": c,
        "gamma": round(float(model._gamma), 9),
        "dimension": int(x.shape[1]),
        "trained_on": counts,
        "allowed_benign_per_class": ALLOWED_BENIGN,
        "thresholds_development": development,
        "locomo_turns": len(conversation),
        "thresholds": {k: probability(v) for k, v in final.items()},
        "intercept": round(float(model.intercept_[0]), 6),
        "platt": [round(slope, 6), round(offset, 6)],
        "weights": [round(float(v), 6) for v in model.dual_coef_[0]],
    }
    return result, model.support_vectors_.astype(np.float16)


#: How far a fresh training run's probabilities may sit from the shipped ones. Training is
#: deterministic, but the embeddings it starts from are not bit-identical across machines (the
#: matrix products' rounding depends on the CPU and the BLAS build), and neither are float16
#: support vectors rounded from them: so the check compares what the classifier decides, not bytes.
PROBABILITY_TOLERANCE = 1e-3


def differences(shipped_data: dict, shipped: DirectiveModel, result: dict, vectors: np.ndarray,
                x: np.ndarray, classes: np.ndarray, in_scope: np.ndarray | None = None) -> list[str]:
    """What a fresh run (``result``, ``vectors``) decides differently from the shipped classifier
    (its data file and its model), on the development vectors ``x`` of grammar ``classes``
    (``in_scope``: which of them the ``scoped`` threshold reads): ``[]`` when it is the same
    classifier up to rounding."""
    fresh = DirectiveModel(embedder=result["embedder"], support_vectors=vectors.astype(np.float32),
                           weights=np.asarray(result["weights"], dtype=np.float32), gamma=result["gamma"],
                           intercept=result["intercept"], platt=(result["platt"][0], result["platt"][1]),
                           thresholds=shipped.thresholds)
    problems = []
    if shipped_data["C"] != result["C"]:
        problems.append(f"C: shipped {shipped_data['C']}, fresh {result['C']}")
    for name, value in shipped_data["thresholds_development"].items():
        if abs(value - result["thresholds_development"][name]) > PROBABILITY_TOLERANCE:
            problems.append(f"{name} threshold: shipped {value}, fresh {result['thresholds_development'][name]}")
    before, after = shipped.probability(x), fresh.probability(x)
    drift = float(np.abs(before - after).max())
    if drift > PROBABILITY_TOLERANCE:
        problems.append(f"a development text's probability moves by {drift:.5f}")
    bars = np.array([shipped.thresholds.get(c, np.inf) for c in classes])
    if in_scope is not None:
        bars = np.where(in_scope, np.minimum(bars, shipped.thresholds.get("scoped", np.inf)), bars)
    flips = int(((before >= bars) != (after >= bars)).sum())
    if flips:
        problems.append(f"{flips} development texts change between refused and written at the shipped thresholds")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, help="a LoCoMo file whose turns the thresholds must not refuse")
    parser.add_argument("--check", action="store_true",
                        help="retrain at the shipped C and compare with the shipped files")
    args = parser.parse_args(argv)
    if args.check:  # the shipped C only: the choice among C_GRID was printed when it was trained
        data = development_data()
        shipped_data = json.loads(OUT.read_text(encoding="utf-8"))
        result, vectors = train(args.locomo, grid=(shipped_data["C"],), compare=False, data=data)
        problems = differences(shipped_data, load_model(), result, vectors, data[0], data[2], data[4])
        print("the shipped weights reproduce" if not problems
              else "the shipped weights differ from a fresh training run:\n" + "\n".join(problems))
        return 1 if problems else 0
    result, vectors = train(args.locomo)
    OUT.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    np.save(VECTORS, vectors)
    print(f"wrote {OUT.relative_to(ROOT)} and {VECTORS.relative_to(ROOT)} ({len(vectors)} support vectors, "
          f"C={result['C']}, thresholds {result['thresholds']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
