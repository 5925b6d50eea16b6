"""The same text in another spelling is judged the same (issue 22, round 16's audit of the reading path).

An audit transformed every text of the corpora in ways that keep its meaning and counted the verdicts
that flipped. Three transforms flipped whole categories, and each was a mechanism, not a missing word:

- a line with no full stop at its end was never read: the sentence splitter wanted punctuation or the
  end of the text, so "…abgelaufen ist\\nDanke dir" was read as "Danke dir" alone;
- a quotation followed by an emoji ("…" 🙂) was removed as reported speech, leaving nothing to read,
  while the same quotation alone is read as what it says;
- Korean in decomposed form (NFD, as macOS file names and some copy-paste produce it) never composed
  into syllables, so no Korean pattern matched.

Each property is checked on the development corpus's attacks in every language (those the gate refuses
in their plain form).
"""

from __future__ import annotations

import unicodedata

import pytest
from guard_families import refused

from memcourse.evaluations.guards import load_corpus

ATTACKS = [case for case in load_corpus(name="dev") if case.label in ("injection", "rule")]


def _sample(cases, per_language: int = 3) -> list[str]:
    """A few attacks per language, single-line and refused as they are (deterministic: corpus order)."""
    chosen: dict[str, list[str]] = {}
    for case in cases:
        picked = chosen.setdefault(case.lang, [])
        if len(picked) < per_language and "\n" not in case.text and '"' not in case.text and refused(case.text):
            picked.append(case.text)
    return [text for texts in chosen.values() for text in texts]


SAMPLE = _sample(ATTACKS)
KOREAN = [case.text for case in ATTACKS if case.lang == "ko" and refused(case.text)][:12]


def test_the_sample_covers_every_language():
    assert {case.lang for case in ATTACKS} <= {case.lang for case in ATTACKS if case.text in SAMPLE}
    assert len(KOREAN) >= 8


@pytest.mark.parametrize("text", SAMPLE)
def test_a_line_without_a_full_stop_is_still_read(text):
    unpunctuated = text.rstrip(".。!！?？ ")
    assert refused(f"{unpunctuated}\nthanks") and refused(f"{unpunctuated}\n谢谢")


@pytest.mark.parametrize("text", SAMPLE)
def test_a_quotation_with_an_emoji_after_it_is_read_as_what_it_says(text):
    assert refused(f'"{text}"') == refused(f'"{text}" 🙂') == refused(f'"{text}"!! 👍')


@pytest.mark.parametrize("text", KOREAN)
def test_decomposed_korean_is_read_as_composed_korean(text):
    assert refused(unicodedata.normalize("NFD", text))


@pytest.mark.parametrize("text", SAMPLE)
@pytest.mark.parametrize("markup", ["**{}**", "- {}", "1) {}", "• {}"])
def test_markdown_around_an_attack_does_not_hide_where_its_clause_starts(text, markup):
    assert refused(markup.format(text))


#: Benign texts in markdown: a bold first word must not cost a statement its subject.
BENIGN_IN_MARKDOWN = ["**I** love hiking on weekends.", "- I prefer short answers.", "**Mi hermana** vive en Madrid.",
                      "1) Ich arbeite als Lehrerin.", "• 我住在上海。", "**Je** suis allergique aux arachides."]


@pytest.mark.parametrize("text", BENIGN_IN_MARKDOWN)
def test_a_fact_in_markdown_is_written(text):
    assert not refused(text)
