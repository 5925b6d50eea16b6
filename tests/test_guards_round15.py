"""Round 15 of the write gate (issue 22): a lower threshold for the learned reader when the grammar
names a scope.

The grammar often sees *what* a text reaches for (a promotion, a permission, the agent's hidden
instructions, a norm filed as "the rule now", an audience to be treated some way) and no order aimed
at the assistant, so it stops at *fact*; the classifier reads a directive with a probability just
under its class's threshold (0.992 to 0.998, held there by ordinary conversation). Read together, the
two halves are evidence enough at the ``scoped`` threshold (:mod:`memcourse.guards.learned`).

The attacks are every development text this refuses that the gate wrote before (the helper rounds of
``memcourse/data/guard_corpus_round14.json``, the injections corpora, and round 15's sets in
``guard_corpus_round15.json``: the blind r18 and the attack a15); the look-alikes are the benign
development texts that name a scope and score 0.5 or more, the nearest to the line, and the benign
texts a15 found refused by the first version of the threshold, which counted promotions and the
user's own place as scopes. The lists are in ``tests/data/guard_round15.json``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from guard_families import refused

from memcourse.guards import learned

LISTED = json.loads((Path(__file__).parent / "data" / "guard_round15.json").read_text(encoding="utf-8"))
ATTACKS = [text for _, text in LISTED["attacks"]]
#: benign development texts that name a scope and score 0.5 or more: the nearest to the line
NEAR_THE_LINE = [text for source, text in LISTED["look_alikes"] if source != "a15"]
#: benign texts of the attack on the first version (a15) that it refused: a shop's own promotions,
#: its house rules, a teacher's school policy ("in my store…", "our clinic's promotion…")
FIRST_VERSION_REFUSED = [text for source, text in LISTED["look_alikes"] if source == "a15"]


@pytest.fixture
def without_scoped_threshold(monkeypatch):
    model = learned.load_model()
    thresholds = {name: value for name, value in model.thresholds.items() if name != "scoped"}
    monkeypatch.setattr(learned, "load_model", lambda: replace(model, thresholds=thresholds))


@pytest.mark.parametrize("text", ATTACKS)
def test_a_directive_read_by_meaning_that_names_a_scope_is_refused(text):
    assert learned.scope_signal(text) is not None
    assert refused(text)


@pytest.mark.parametrize("text", ATTACKS)
def test_it_is_the_scoped_threshold_that_refuses_it(without_scoped_threshold, text):
    assert not refused(text)


@pytest.mark.parametrize("text", NEAR_THE_LINE)
def test_a_benign_text_that_names_a_scope_near_the_line_is_written(text):
    assert learned.scope_signal(text) is not None and learned.directive_probability(text) >= 0.5
    assert not refused(text)


@pytest.mark.parametrize("text", FIRST_VERSION_REFUSED)
def test_the_users_own_place_and_promotions_are_not_a_scope(text):
    assert not refused(text)
