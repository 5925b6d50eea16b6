"""Families of attacks and their look-alikes, the form the write gate's later rounds are tested in.

A family is one category of attack with the benign sentences that look most like it: the
attacks must be refused, the look-alikes written. A test module writes its families and gets
its two tests from :func:`family_tests`::

    test_attacks_are_refused, test_look_alikes_are_written = family_tests(FAMILIES)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import pytest

from memcourse import MemoryPolicy
from memcourse.vocabulary import GUARD_REFUSALS

POLICY = MemoryPolicy()

Families = dict[str, tuple[list[str], list[str]]]


def helper_round(name: str) -> tuple[list[str], list[str]]:
    """A helper round kept in ``tests/data/<name>.json``: (attacks refused, look-alikes written) since it
    was tuned on; what the gate still gets wrong is listed apart in the file and not asserted."""
    data = json.loads((Path(__file__).parent / "data" / f"{name}.json").read_text(encoding="utf-8"))
    return data["attacks"], data["look_alikes"]


def corpus_round(name: str) -> tuple[list[str], list[str]]:
    """A helper round kept as development data (``memcourse/data/guard_corpus_round14.json``) and listed by
    id in ``tests/data/<name>.json``: (attacks refused, look-alikes written) when the round closed."""
    listed = json.loads((Path(__file__).parent / "data" / f"{name}.json").read_text(encoding="utf-8"))
    corpus = Path(__file__).parent.parent / "memcourse" / "data" / listed["corpus"]
    text = {case["id"]: case["base"] for case in json.loads(corpus.read_text(encoding="utf-8"))["cases"]}
    return [text[i] for i in listed["attacks"]], [text[i] for i in listed["look_alikes"]]


def refused(text: str) -> bool:
    """Refused by a guard (a secret, an injection, a user's rule); "nothing durable" is not a refusal."""
    return POLICY.decide(text).rule in GUARD_REFUSALS


#: Texts of earlier rounds' tables that the learned reader retrained in round 19 judges the other way
#: (docs/security.md, round 19): attacks it now writes, look-alikes it now refuses. It was retrained
#: on every development set and gained 16 held-out attacks and 1 benign text in all (one attack lost on blind);
#: these are what it cost among
#: the sentences the earlier reader had been tuned to pass. Each is a strict expected failure: when a
#: later change judges one right again the test fails, and the text goes back to being asserted.
CHANGED_BY_THE_ROUND_19_READER = json.loads(
    (Path(__file__).parent / "data" / "round19_reader_changes.json").read_text(encoding="utf-8"))


def known_changes(values: list, text_of: Callable = lambda value: value) -> list:
    """``values`` for ``pytest.mark.parametrize``, the round-19 changes marked as strict expected failures."""
    return [pytest.param(*(value if isinstance(value, tuple) else (value,)), marks=pytest.mark.xfail(
                strict=True, reason=f"round 19 reader: {CHANGED_BY_THE_ROUND_19_READER[text_of(value)]}"))
            if text_of(value) in CHANGED_BY_THE_ROUND_19_READER else value for value in values]


#: A probability no text reaches: a class threshold set to it is out of play.
NEVER = 1.01


def only_the_scoped_threshold(monkeypatch, scoped: bool = True) -> None:
    """The learned reader with its class thresholds out of play (since round 19 they alone refuse many
    texts a test means to be refused through a scope signal): what refuses a text is then the ``scoped``
    threshold (or, with ``scoped=False``, nothing of the reader's) or the grammar."""
    from dataclasses import replace

    from memcourse.guards import learned

    model = learned.load_model()
    thresholds = {"fact": NEVER, "request": NEVER, "preference": NEVER}
    if scoped:
        thresholds["scoped"] = model.thresholds["scoped"]
    monkeypatch.setattr(learned, "load_model", lambda: replace(model, thresholds=thresholds))


def family_tests(families: Families) -> tuple[Callable[[str, str], None], Callable[[str, str], None]]:
    """Two parametrised tests over ``families``: every attack is refused, every look-alike written."""
    attacks = known_changes([(family, text) for family, (texts, _) in families.items() for text in texts],
                            lambda value: value[1])
    look_alikes = known_changes([(family, text) for family, (_, texts) in families.items() for text in texts],
                                lambda value: value[1])

    @pytest.mark.parametrize("family, text", attacks)
    def test_attacks_are_refused(family: str, text: str) -> None:
        assert refused(text), f"{family}: {POLICY.decide(text)}"

    @pytest.mark.parametrize("family, text", look_alikes)
    def test_look_alikes_are_written(family: str, text: str) -> None:
        assert not refused(text), f"{family}: {POLICY.decide(text).reason}"

    return test_attacks_are_refused, test_look_alikes_are_written
