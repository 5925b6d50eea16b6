"""Which development data should the learned directive reader train on, and how many benign texts
may its thresholds let through? Two measurements behind round 19 (docs/security.md), both on
development data only.

1. *Training sets, on attacks they never saw.* The later development corpora (``injections2``,
   ``injections3``, rounds 14-18) are cut into five folds. For each fold, a reader is trained on the
   round-6 corpora alone, on those plus the other four folds, and on those plus the benign chat
   corpus ``guard_corpus_train_chat2.json``; each scores the held fold. Printed: the held fold's
   attacks (that the grammar does not already call rules) refused at fixed counts of its benign texts
   refused, how many LoCoMo development turns that bar would refuse, and the figures at the bars
   that refuse no LoCoMo turn (how the shipped thresholds end).
2. *How many benign texts per class* (``ALLOWED_BENIGN``): out-of-fold scores over every
   development text, thresholds at 1, 2, 3, 5, 8 allowed per class (raised above every LoCoMo turn
   of the class, as the training script does), attacks and benign texts refused.

Run from the repository root (about ten minutes on two cores)::

    .venv/bin/python benchmarks/directive_training_folds.py --locomo ../shared/benchmarks/locomo/locomo-dev.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memcourse.evaluations.guards import locomo_turns  # noqa: E402

_spec = importlib.util.spec_from_file_location("training", ROOT / "scripts" / "train_directive_classifier.py")
training = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(training)

ROUND_6 = ("guard_corpus.json", "guard_corpus_paraphrase.json", "guard_corpus_train.json", "guard_corpus_train2.json",
           "guard_corpus_train_chat.json")
LATER = ("guard_corpus_injections2.json", "guard_corpus_injections3.json", "guard_corpus_round14.json",
         "guard_corpus_round15.json", "guard_corpus_round16.json", "guard_corpus_round17.json",
         "guard_corpus_round18.json")
CHAT = "guard_corpus_train_chat2.json"
C = 3.0


def origins(texts: list[str]) -> np.ndarray:
    """Which file each training text came from (the shipped benign sets: "other")."""
    found = {}
    for name in training.CORPORA:
        for case in json.loads((training.DATA / name).read_text(encoding="utf-8"))["cases"]:
            found[case["base"]] = name
    return np.array([found.get(t, "other") for t in texts])


def bars_above(turn_scores: np.ndarray, turn_classes: np.ndarray) -> dict[str, float]:
    return {c: float(turn_scores[turn_classes == c].max()) if (turn_classes == c).any() else -np.inf
            for c in training.CLASSES}


def training_sets(x, y, classes, origin, turns_x, turns_classes) -> None:
    from sklearn.model_selection import StratifiedKFold

    later = np.flatnonzero(np.isin(origin, LATER))
    folds = list(StratifiedKFold(5, shuffle=True, random_state=1).split(later, y[later]))
    not_rule = classes[later] != "rule"
    attack, benign = y[later] & not_rule, ~y[later] & not_rule
    print(f"held folds: {int(attack.sum())} attacks and {int(benign.sum())} benign texts the grammar does not "
          "call rules")
    for name, always in (("round-6 corpora only", ROUND_6 + ("other",)),
                         ("+ the other folds", ROUND_6 + ("other",)),
                         ("+ the other folds + chat2", ROUND_6 + ("other", CHAT))):
        base = np.flatnonzero(np.isin(origin, always))
        scores, refused, turns_over = np.zeros(len(later)), np.zeros(len(later), bool), []
        for train_part, test_part in folds:
            rows = base if name == "round-6 corpora only" else np.concatenate([base, later[train_part]])
            model = training.fit_svm(x[rows], y[rows], C)
            scores[test_part] = model.decision_function(x[later[test_part]])
            turn_scores = model.decision_function(turns_x)
            turns_over.append(turn_scores)
            refused[test_part] = training.refused(scores[test_part], classes[later[test_part]],
                                                  bars_above(turn_scores, turns_classes))
        cells = []
        for budget in (0, 5, 10, 20, 40):
            bar = np.sort(scores[benign])[::-1][budget]
            cells.append(f"{budget:2} benign: {int((scores[attack] > bar).sum()):3} attacks "
                         f"(LoCoMo {np.mean([(t > bar).sum() for t in turns_over]):.0f})")
        print(f"{name:28} " + " | ".join(cells))
        print(f"{'':28} at bars above every LoCoMo turn: {int(refused[attack].sum())} attacks, "
              f"{int(refused[benign].sum())} benign texts refused")


def allowed_sweep(x, y, classes, in_scope, turns_x, turns_classes) -> None:
    scores = training.out_of_fold(x, y, lambda a, b: training.fit_svm(a, b, C))
    turns = bars_above(training.fit_svm(x, y, C).decision_function(turns_x), turns_classes)
    judged = classes != "rule"
    print(f"out of fold, every development text: {int((y & judged).sum())} attacks and "
          f"{int((~y & judged).sum())} benign texts the grammar does not call rules")
    for allowed in (1, 2, 3, 5, 8):
        bars = {k: max(v, turns[k]) for k, v in training.limits(scores[~y], classes[~y], allowed).items()}
        bars["scoped"] = training.bar(scores[~y & in_scope], allowed)
        refused = training.refused(scores, classes, bars, in_scope)
        attacks, benign = int(refused[y & judged].sum()), int(refused[~y & judged].sum())
        rounded = {k: round(v, 3) for k, v in bars.items()}
        print(f"allowed {allowed}: attacks {attacks:4}, benign {benign:3}   bars {rounded}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, required=True, help="LoCoMo development file (read in place)")
    args = parser.parse_args(argv)
    texts, y, _ = training.training_set()
    classes = training.grammar_classes(texts)
    x, in_scope = training.features(texts), training.scoped(texts, classes)
    turns = locomo_turns(args.locomo)
    turns_x, turns_classes = training.features(turns), training.grammar_classes(turns)
    training_sets(x, y, classes, origins(texts), turns_x, turns_classes)
    allowed_sweep(x, y, classes, in_scope, turns_x, turns_classes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
