"""What a detector reports: a :class:`Finding`, whose excerpt quotes the user's own text.

A refusal has to explain itself ("contains a payment card number (41**********11)") without
repeating what it refused: secrets and identifiers are masked; an injection is quoted (short,
with invisible characters made visible) because seeing it is how a reader learns what it was.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

__all__ = ["Finding", "mask", "quote"]


@dataclass(frozen=True)
class Finding:
    kind: str  # "secret", "personal_id", "injection" or "behaviour_rule"
    label: str  # human-readable: "API key", "Chinese ID number", "instruction override", ...
    excerpt: str  # the original text, masked for secrets and identifiers
    category: str = ""  # a stable machine name: "api_key", "cn_id", "override", ...
    where: str = "text"  # the view it was found in: "text", "decoded base64", ...

    def __str__(self) -> str:
        place = "" if self.where in ("text", "joined") else f", in {self.where}"
        return f"{self.label} ({self.excerpt}{place})"


def mask(text: str) -> str:
    """Keep two characters at each end, star the middle (at most 12 stars)."""
    text = visible(text.strip())
    if len(text) <= 4:
        return "****"
    return text[:2] + "*" * min(len(text) - 4, 12) + text[-2:]


def visible(text: str) -> str:
    """Invisible characters written as ``<U+200B>`` so an excerpt shows what was hidden."""
    out = []
    for ch in text:
        if unicodedata.category(ch) in ("Cf", "Cc") and ch not in "\n\t" or 0xE0000 <= ord(ch) <= 0xE007F:
            out.append(f"<U+{ord(ch):04X}>")
        else:
            out.append(ch)
    return "".join(out)


def quote(text: str, limit: int = 80) -> str:
    """A short, single-line quotation of (possibly hostile) text."""
    text = " ".join(visible(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
