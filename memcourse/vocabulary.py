"""The library's words for its decisions: the codes that end up in replies, audit logs and JSON.

A decision's reason is prose for a human; its *code* is what a program compares, counts and
stores. Codes are ``str`` enums, so ``DecisionRule.SECRET == "secret"``, ``json.dumps`` writes
``"secret"`` and audit lines stay byte-for-byte what they were when the codes were bare
strings; a misspelt code is now an ``AttributeError`` at import instead of a silent mismatch.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["GUARD_REFUSALS", "Code", "DecisionRule"]


class Code(str, Enum):
    """A code whose value is the string stored and printed: ``str(Code.X)`` is that string
    (a plain ``(str, Enum)`` prints ``ClassName.X``). ``enum.StrEnum`` does this from 3.11;
    the course supports 3.10."""

    def __str__(self) -> str:
        return self.value


class DecisionRule(Code):
    """Which step of the gate decided (``PolicyDecision.rule``). A ``str`` enum: the values are
    the strings stored in audit logs and compared in tests ("secret" == DecisionRule.SECRET)."""

    EMPTY = "empty"
    TOO_LONG = "too_long"
    SECRET = "secret"
    INJECTION = "injection"
    RULE_FROM_NON_ADMIN = "rule_from_non_admin"
    RULE = "rule"
    TASK = "task"
    PROJECT = "project"
    LOCATION = "location"
    PREFERENCE = "preference"
    EXPLICIT = "explicit"
    TRANSIENT = "transient"
    NO_SIGNAL = "no_signal"
    LOW_CONFIDENCE = "low_confidence"
    BELOW_THRESHOLD = "below_threshold"  # admitted by the gate, not important enough (yet) to write
    METADATA_TOO_LARGE = "metadata_too_large"
    WRITE_FAILED = "write_failed"  # not the gate: the store failed while writing, nothing was kept


#: The verdicts by which a guard refused the text (a secret, an injection, a user's rule).
GUARD_REFUSALS = frozenset({DecisionRule.SECRET, DecisionRule.INJECTION, DecisionRule.RULE_FROM_NON_ADMIN})
