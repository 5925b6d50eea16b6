"""The grounding check of the memory graph: which sentences of an answer the retrieved
documents support. Memory may shape how an answer is given, never what counts as evidence:
a remembered statement that "supported" itself would let any stored claim pass as fact.
"""

from __future__ import annotations

import re
from typing import Any

from memcourse.text import split_sentences, token_set

__all__ = ["SUPPORT_THRESHOLD", "check_claims", "claims_of", "grounding_report", "remove_claims", "support"]

#: the share of a claim's words the evidence must contain for the claim to count as supported
SUPPORT_THRESHOLD = 0.8


def support(claim: str, evidence: str) -> float:
    """The share of the claim's words found in the evidence (1.0: every word is there)."""
    words = token_set(claim)
    return len(words & token_set(evidence)) / len(words) if words else 0.0


def check_claims(claims: list[str], evidence: list[str]) -> tuple[list[str], list[str]]:
    """Split claims into (supported, unsupported) against a list of evidence texts."""
    supported: list[str] = []
    unsupported: list[str] = []
    for claim in claims:
        best = max((support(claim, text) for text in evidence), default=0.0)
        (supported if best >= SUPPORT_THRESHOLD else unsupported).append(claim)
    return supported, unsupported


def grounding_report(
    claims: list[str],
    docs: list[dict[str, Any]],
    memories: list[dict[str, Any]],
    *,
    memory_as_evidence: bool = False,
) -> dict[str, Any]:
    """Check each claim against the retrieved documents, and only them.

    Returns ``grounded`` (no unsupported claim), ``supported``, ``unsupported``, ``evidence``
    (what the check accepted as evidence: ``doc:<id>`` labels) and ``from_memory``: for each
    unsupported claim that a recalled memory states, that memory's key. Memory is used to
    *explain* an unsupported claim ("the draft repeated memory X"), never to support one.

    ``memory_as_evidence=True`` is the bug notebook 13 shows: memories join the evidence, so
    a remembered statement supports itself and ``from_memory`` has nothing left to explain.
    """
    evidence = [doc["en"] + " " + doc["zh"] for doc in docs]
    labels = [f"doc:{doc['id']}" for doc in docs]
    if memory_as_evidence:  # the bug: a remembered statement now supports itself
        evidence += [memory["content"] for memory in memories]
        labels += [f"memory:{memory['key']}" for memory in memories]
    supported, unsupported = check_claims(claims, evidence)
    from_memory = {}
    for claim in unsupported:
        source = next((m["key"] for m in memories if support(claim, m["content"]) >= SUPPORT_THRESHOLD), None)
        if source is not None:
            from_memory[claim] = source
    return {
        "grounded": not unsupported,
        "supported": supported,
        "unsupported": unsupported,
        "evidence": labels,
        "from_memory": from_memory,
    }


def claims_of(text: str) -> list[str]:
    """Every sentence of a model's answer, line by line: each one is a claim to check."""
    claims: list[str] = []
    for line in text.split("\n"):
        claims += [s for s in split_sentences(line) if s not in claims]
    return claims


def remove_claims(answer: str, unsupported: list[str]) -> str:
    """The answer without the unsupported sentences (lines left empty are dropped)."""
    kept = []
    for line in answer.split("\n"):
        if line in unsupported:  # a whole-line claim (the deterministic draft's kind)
            continue
        for claim in split_sentences(line):
            if claim in unsupported:
                line = line.replace(claim, "", 1)
        line = re.sub(r"[ \t]{2,}", " ", line).strip()
        if line:
            kept.append(line)
    return "\n".join(kept)
