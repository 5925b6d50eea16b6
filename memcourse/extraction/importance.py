"""How much a memory matters: a small, explainable score in [0, 1].

Recall ranks by relevance first; importance then nudges the score
(:func:`memcourse.recall.decay.importance_factor`, x0.95 to x1.05), so of two memories that
match a query about equally, the one that matters more comes first. The score follows the engineering guide's
advice (section 3.2): look at how long-lived and how goal-related a fact is, and keep the
function simple enough that every score can be explained.

Rule-based score (used for every rule candidate, and for a model candidate whose own
``importance`` is missing or invalid):

==================  =====  ==========================================================
memory type         base   why
==================  =====  ==========================================================
rule                0.9    shapes every answer (admin only)
preference          0.8    shapes every answer to this user
entity              0.7    stable facts: project, home, tools
task                0.7    what the user is working on now
decision            0.6    a choice to explain later
event               0.4    happened once; useful, rarely decisive
==================  =====  ==========================================================

Then: +0.1 when the user explicitly asked to remember it ("记住", "remember"), -0.3 when the
text reads as a passing state ("有点累", "tired"); the result is clamped to [0.1, 1.0].

A model may supply its own importance; it is used only if it is a real number in [0, 1]
(anything else is reported and the rule-based score is used instead).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memcourse.recognisers import TRANSIENT
from memcourse.records import MemoryType
from memcourse.text import STOPWORDS, tokenize

BASE = {
    MemoryType.RULE: 0.9,
    MemoryType.PREFERENCE: 0.8,
    MemoryType.ENTITY: 0.7,
    MemoryType.TASK: 0.7,
    MemoryType.DECISION: 0.6,
    MemoryType.EVENT: 0.4,
}
EXPLICIT_BONUS = 0.1
TRANSIENT_PENALTY = 0.3


def rule_importance(memory_type: MemoryType | str, content: str, *, explicit: bool = False) -> float:
    """The documented rule-based score for one memory."""
    score = BASE[MemoryType(memory_type)]
    if explicit:
        score += EXPLICIT_BONUS
    if TRANSIENT.search(content):
        score -= TRANSIENT_PENALTY
    return round(min(1.0, max(0.1, score)), 3)


def model_importance(value: Any) -> float | None:
    """A model-provided importance if it is usable (a finite number in [0, 1]), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        return None
    return value


# -- the write threshold: an explainable judgement -------------------------------------------
#: A new fact is written when its judged importance reaches this. Chosen on development data
#: only: ``python benchmarks/write_threshold.py`` sweeps 0.00..0.95 over
#: ``benchmarks/data/extraction_dev.json`` (the shipped set as a floor that may not drop) and
#: takes the middle of the best run, [0.45, 0.5] -> 0.475: below it a small event said once
#: (0.4) and every passing state; at or above it an event tied to an active task or said a
#: second time (0.5), and every decision, entity, task and preference said plainly (>= 0.6).
WRITE_THRESHOLD = 0.475
#: Each earlier mention of the same fact adds this much, up to :data:`REPETITION_CAP` (the
#: guide's ``min(keyword_hit * 0.1, 0.2)``).
REPETITION_STEP = 0.1
REPETITION_CAP = 0.2
#: Relevance to the user's goals: this much when at least :data:`GOAL_SHARE` of the
#: candidate's content words are words of one of the user's active task memories.
GOAL_BONUS = 0.1
GOAL_SHARE = 0.3
#: Words that frame a task rather than say what it is about ("the current task for phase 2 is").
_FRAMING = frozenset("用户 user current task phase goal 当前 任务 当前任务 前任 目标 阶段 我们 正在 现在 is the"
                     .split())


@dataclass(frozen=True)
class Part:
    """One visible part of a judgement: its name, the points it adds (or takes), and why."""

    name: str  # "stability", "goal", "repetition", "explicit"
    points: float
    why: str

    def __str__(self) -> str:
        return f"{self.name} {self.points:+.2f} ({self.why})"


@dataclass(frozen=True)
class Judgement:
    """How much a candidate matters, part by part, and whether that is enough to write it."""

    score: float
    parts: tuple[Part, ...]
    threshold: float
    exempt: str = ""  # why the threshold does not apply ("" when it does)
    mentions: int = 0  # earlier mentions of the same fact that were counted

    @property
    def passes(self) -> bool:
        return bool(self.exempt) or self.score >= self.threshold

    @property
    def reason(self) -> str:
        parts = "; ".join(str(part) for part in self.parts)
        if self.exempt:
            return f"importance {self.score:.2f} [{parts}]; never dropped by importance: {self.exempt}"
        verdict = "reaches" if self.passes else "is below"
        return f"importance {self.score:.2f} {verdict} the write threshold {self.threshold:.2f} [{parts}]"

    def summary(self) -> dict[str, Any]:
        """JSON-ready (for the audit log and the notebook)."""
        return {"score": self.score, "threshold": self.threshold, "passes": self.passes,
                "exempt": self.exempt, "mentions": self.mentions,
                "parts": [{"name": p.name, "points": p.points, "why": p.why} for p in self.parts]}


def goal_words(text: str) -> set[str]:
    """The content words of a goal or a candidate (the library's tokeniser, so Chinese is split
    into words): stopwords, plain numbers and task framing left out."""
    return {token for token in tokenize(text) if token not in STOPWORDS and token not in _FRAMING
            and not token.isdigit()}


def goal_overlap(content: str, goals: Sequence[str]) -> tuple[float, str, set[str]]:
    """The best share of ``content``'s words found in one goal: ``(share, goal, shared words)``."""
    words = goal_words(content)
    best: tuple[float, str, set[str]] = (0.0, "", set())
    if not words:
        return best
    for goal in goals:
        shared = words & goal_words(goal)
        share = len(shared) / len(words)
        if share > best[0]:
            best = (share, goal, shared)
    return best


def judge(memory_type: MemoryType | str, content: str, *, goals: Sequence[str] = (), earlier_mentions: int = 0,
          explicit: bool = False, admin: bool = False, threshold: float = WRITE_THRESHOLD) -> Judgement:
    """The write-time importance of one candidate, part by part (guide, section 3.2).

    ``goals``: the contents of the user's active task memories; ``earlier_mentions``: how many
    times the same fact was said before (see :mod:`memcourse.extraction.mentions`);
    ``explicit``: the message asked to remember; ``admin``: an administrator's rule."""
    memory_type = MemoryType(memory_type)
    if isinstance(earlier_mentions, bool) or not isinstance(earlier_mentions, int) or earlier_mentions < 0:
        raise ValueError(f"earlier_mentions must be a whole number >= 0, got {earlier_mentions!r}")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be a number in [0, 1], got {threshold!r}")
    parts = [Part("stability", BASE[memory_type], f"a {memory_type.value} memory")]
    passing = TRANSIENT.search(content)
    if passing:
        parts.append(Part("stability", -TRANSIENT_PENALTY, f"reads as a passing state ({passing.group()!r})"))
    share, goal, shared = goal_overlap(content, goals)
    if share >= GOAL_SHARE:
        parts.append(Part("goal", GOAL_BONUS, f"{share:.0%} of its words are in the task {goal[:60]!r} "
                          f"({', '.join(sorted(shared)[:4])})"))
    if earlier_mentions:
        points = min(REPETITION_STEP * earlier_mentions, REPETITION_CAP)
        times = "once" if earlier_mentions == 1 else f"{earlier_mentions} times"
        parts.append(Part("repetition", points, f"the same fact was said {times} before"))
    if explicit:
        parts.append(Part("explicit", EXPLICIT_BONUS, "the user asked to remember it"))
    score = round(min(1.0, max(0.1, sum(part.points for part in parts))), 3)
    exempt = ("an administrator's rule" if admin or memory_type is MemoryType.RULE
              else "the user asked to remember it" if explicit else "")
    return Judgement(score, tuple(Part(p.name, round(p.points, 3), p.why) for p in parts), float(threshold),
                     exempt, earlier_mentions)
