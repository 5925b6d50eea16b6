"""Score variants of the learned reader's ``scoped`` signal on the development sets (issue 22, round 15).

Which grammar features make a text "name a scope" (:data:`memcourse.guards.learned.SCOPE_SIGNALS`)
was chosen here, on development data only, by a rule written before the variants ran:

    attacks gained - 2 × benign texts lost, over every development set at once

where "gained" and "lost" are texts the gate wrote without the scoped threshold and refuses with
it, and each variant's threshold is re-derived by the training script's rule (just above the second
highest out-of-fold benign score among the training texts that name a scope, plus the margin; then
above every LoCoMo development turn that names one). Benign texts count twice: the targets ask
0.97 of them and 0.90 of attacks.

The sets: round 14's helper rounds (``guard_corpus_round14.json``), round 15's (``guard_corpus_round15.json``:
the blind r18 and the attack a15), the injections corpora (``injections2``, ``injections3``). No held-out
split is read. Run from the repository root (about five minutes)::

    .venv/bin/python scripts/scoped_threshold_variants.py --locomo ../shared/benchmarks/locomo/locomo-dev.json
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

import train_directive_classifier as training  # noqa: E402
from guard_families import refused  # noqa: E402

from memcourse.evaluations.guards import locomo_turns  # noqa: E402
from memcourse.guards import learned  # noqa: E402
from memcourse.guards.directives import _any, classify, prepare  # noqa: E402

DATA = ROOT / "memcourse" / "data"
SETS = ("guard_corpus_round14.json", "guard_corpus_round15.json", "guard_corpus_injections2.json",
        "guard_corpus_injections3.json")
FIRST = frozenset({"identity", "disclosure", "authority", "permission", "exfiltration", "ai_reader", "promotion",
                   "widening", "filing", "treated", "all_talk"})
#: name -> (features, exempt the user's own place, the grammar classes in which "every conversation"
#: (all_talk; widening too in the shipped variant) is no scope)
VARIANTS = {
    "first version": (FIRST, False, set()),
    "own place exempt": (FIRST, True, set()),
    "promotion out, own place exempt": (FIRST - {"promotion"}, True, set()),
    "promotion out": (FIRST - {"promotion"}, False, set()),
    "also no 'every conversation' in a preference": (FIRST - {"promotion"}, True, {"preference"}),
    "shipped: nor 'every conversation/chat' in a preference or request": (FIRST - {"promotion"}, True,
                                                                          {"preference", "request"}),
}
FEATURES = sorted(FIRST | {"own_place"})


def described(texts: list[str]) -> list[tuple[str, frozenset[str]]]:
    """Each text's grammar class and the features it names."""
    return [(classify(t).memory_class.value, frozenset(f for f in FEATURES if _any(f, prepare(t)))) for t in texts]


def names_a_scope(memory_class: str, features: frozenset[str], variant: tuple) -> bool:
    chosen, own_place, own_answers = variant
    if memory_class == "rule" or (own_place and "own_place" in features):
        return False
    every_conversation = {"all_talk", "widening"} if own_answers == {"preference", "request"} else {"all_talk"}
    return bool(features & (chosen - every_conversation if own_answers and memory_class in own_answers else chosen))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, required=True, help="a LoCoMo file whose turns must not be refused")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore", category=FutureWarning, module="sklearn")  # see train_directive_classifier.py
    model = learned.load_model()
    platt_a, platt_b = model.platt
    probability = lambda score: 1.0 / (1.0 + np.exp(platt_a * score + platt_b))  # noqa: E731

    texts, y, _ = training.training_set()
    x = training.features(texts)
    oof = training.out_of_fold(x, y, lambda a, b: training.fit_svm(a, b, json.loads(training.OUT.read_text())["C"]))
    train_described = described(texts)
    talk = locomo_turns(args.locomo)
    talk_scores = model.decision(training.features(talk))
    talk_described = described(talk)

    learned.load_model = lambda: replace(model, thresholds={k: v for k, v in model.thresholds.items() if k != "scoped"})
    cases = [(name, c) for name in SETS for c in json.loads((DATA / name).read_text(encoding="utf-8"))["cases"]
             if c["label"] in ("injection", "rule", "benign")]
    written = [(name, c) for name, c in cases if not refused(c["base"])]
    learned.load_model = lambda: model
    dev_described = described([c["base"] for _, c in written])
    dev_probability = [learned.directive_probability(c["base"]) for _, c in written]
    print(f"{len(cases)} development cases, {len(written)} written without the scoped threshold")

    for label, variant in VARIANTS.items():
        train_scoped = np.array([names_a_scope(c, f, variant) for c, f in train_described])
        talk_scoped = np.array([names_a_scope(c, f, variant) for c, f in talk_described])
        threshold = float(probability(max(training.bar(oof[~y & train_scoped], training.ALLOWED_BENIGN),
                                          training.bar(talk_scores[talk_scoped], 0))))
        gained = lost = 0
        for (_, case), (c, f), p in zip(written, dev_described, dev_probability, strict=True):
            if names_a_scope(c, f, variant) and p >= threshold:
                gained += case["label"] != "benign"
                lost += case["label"] == "benign"
        print(f"{label:66} threshold {threshold:.3f}  attacks gained {gained:3}  benign lost {lost:3}  "
              f"score {gained - 2 * lost:+d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
