"""Hidden texts: runs of base64, hex, percent-encoding or HTML entities that decode to readable
text. An instruction a person cannot read can still be read by a model that decodes it, so the
guards judge the decoded text as one more view (see :func:`memcourse.guards.normalise.normalise`).
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import urllib.parse

__all__ = ["decoded_texts"]


_B64 = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{16,}={0,2}")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[\s:]?){8,}")


def _readable(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text.strip():
        return None
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in text)
    return text if printable / len(text) >= 0.95 else None


def decoded_texts(source: str) -> list[tuple[str, str, tuple[int, int]]]:
    """(label, decoded text, original span) for every encoded run that decodes to readable text."""
    found = []
    for m in _B64.finditer(source):
        token = m.group()
        for variant in (token, token.replace("-", "+").replace("_", "/")):
            try:
                raw = base64.b64decode(variant + "=" * (-len(variant) % 4), validate=True)
            except (binascii.Error, ValueError):
                continue
            text = _readable(raw)
            if text and len(text) >= 6 and re.search(r"[A-Za-z\u3040-\u9fff]{3}", text):
                found.append(("decoded base64", text, m.span()))
                break
    for m in _HEX.finditer(source):
        digits = re.sub(r"[\s:]", "", m.group())
        if len(digits) % 2:
            digits = digits[:-1]
        try:
            text = _readable(bytes.fromhex(digits))
        except ValueError:
            continue
        if text and re.search(r"[A-Za-z\u3040-\u9fff]{3}", text):
            found.append(("decoded hex", text, m.span()))
    if re.search(r"%[0-9A-Fa-f]{2}.*%[0-9A-Fa-f]{2}", source):
        text = urllib.parse.unquote(source)
        if text != source:
            found.append(("decoded percent-encoding", text, (0, len(source))))
    if re.search(r"&#?[0-9A-Za-z]+;", source):
        text = html.unescape(source)
        if text != source:
            found.append(("decoded HTML entities", text, (0, len(source))))
    return found
