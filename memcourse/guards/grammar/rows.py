"""Joining a language's second layer of grammar onto its first.

Each language module writes its row in two parts: the first recognises the plain forms (a verb
at the start, a scope word), the second the forms that differ by word order or periphrasis
(a fronted object before the verb, an obligation or a future instead of an imperative, a claim
that the user's word outranks the agent's rules). Keeping them apart keeps each readable; the
feature the directive grammar reads is their union."""

from __future__ import annotations

__all__ = ["merged"]


def merged(base: dict[str, dict[str, str]], more: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """``base`` with each feature of ``more`` added as one more alternative (a feature only
    ``more`` has is taken as it is)."""
    out = {lang: dict(row) for lang, row in base.items()}
    for lang, row in more.items():
        target = out.setdefault(lang, {})
        for feature, pattern in row.items():
            target[feature] = f"{target[feature]}|{pattern}" if target.get(feature) else pattern
    return out
