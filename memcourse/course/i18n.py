"""The course's messages in the learner's language: English (the source) or Chinese.

Why English is the key: the English text stays where it is read, in the module that prints it,
so a reader of ``progress.py`` still sees what the table says. Each course module wraps its
messages in :func:`t`, which looks the English template up in the catalog of the learner's
language and fills in its ``{fields}``. A message with no translation falls back to English,
and ``tests/test_i18n.py`` fails when a message of the course has none (or when a translation
loses or invents a field), so the Chinese catalog is complete, not best effort.

The language: ``MEMCOURSE_LANG`` (``zh``, ``zh_CN``, ``zh-TW``, ``en``, ...) when it is set;
otherwise the locale (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``: ``zh_CN.UTF-8`` means
Chinese); otherwise English. It is read at each call, so setting it in a running kernel
(``os.environ["MEMCOURSE_LANG"] = "zh"``) takes effect at the next message. The library
(``memcourse.records``, ``memcourse.stores``...) never speaks to the learner and is not
translated; code identifiers, commands, rule names and data attributes stay English everywhere.

The Chinese messages use the terms of ``docs/zh/terminology.md``.
"""

from __future__ import annotations

import os
import re
import textwrap
import unicodedata
import warnings

from memcourse.course.messages_zh import ZH

__all__ = ["LANGUAGES", "display_width", "fit", "language", "t"]

LANGUAGES = ("en", "zh")
CATALOGS = {"zh": ZH}
_warned: set[str] = set()


def _code(value: str) -> str:
    """``zh_CN.UTF-8`` -> ``zh``; ``C.UTF-8`` -> ``c``."""
    return re.split(r"[-_.@]", value.strip().lower(), maxsplit=1)[0]


def language() -> str:
    """``"zh"`` or ``"en"``, from ``MEMCOURSE_LANG`` or else the locale (see the module docstring)."""
    chosen = os.environ.get("MEMCOURSE_LANG", "").strip()
    if chosen:
        code = _code(chosen)
        if code in LANGUAGES:
            return code
        if chosen not in _warned:  # a typo should be visible, but must not stop grading
            _warned.add(chosen)
            warnings.warn(f"MEMCOURSE_LANG={chosen!r} is not a course language ({', '.join(LANGUAGES)}): "
                          "using English", stacklevel=2)
        return "en"
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "").strip()
        if value:
            return "zh" if _code(value) == "zh" else "en"
    return "en"


def t(message: str, /, **fields: object) -> str:
    """``message`` (an English template) in the learner's language, with ``fields`` filled in."""
    template = CATALOGS.get(language(), {}).get(message, message)
    return template.format(**fields) if fields else template


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: a Chinese character is two columns wide."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def fit(text: str, width: int, *, placeholder: str = "…") -> str:
    """``text`` cut (ending in ``placeholder``) and padded to exactly ``width`` terminal columns.
    Text of one-column characters is cut at a word, as ``textwrap.shorten`` does; Chinese has no
    spaces between words, so it is cut at a character."""
    if display_width(text) > width and display_width(text) == len(text):
        text = textwrap.shorten(text, width, placeholder=placeholder)
    elif display_width(text) > width:
        kept = ""
        for char in text:
            if display_width(kept + char + placeholder) > width:
                break
            kept += char
        text = kept.rstrip() + placeholder
    return text + " " * (width - display_width(text))
