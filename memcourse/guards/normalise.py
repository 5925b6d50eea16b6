"""One normalisation step in front of every detector.

A detector that reads raw text is one spelling behind the attacker: "ignore" written with a
Cyrillic і, a zero-width space inside "pass​word", full-width ｓｋ－ letters, "p a s s w o r d",
traditional 無視, leetspeak "1gn0re", a base64 blob, invisible Unicode "tag" characters or a
right-to-left override that shows reversed text the right way round. None of these change what
a model reads; all of them change what a regex sees.

So every detector reads *views* of the text, never the text itself:

``text``      NFKC (full-width → ASCII, ligatures and compatibility forms unfolded), invisible
              characters removed (zero-width, bidi controls, tag characters, variation
              selectors), look-alike letters folded to their Latin skeleton with Unicode's
              confusables data (Cyrillic а → a; a capital whose small letter has no look-alike,
              Cyrillic К, only inside a word that spoofs Latin), accents dropped from Latin letters, every
              dash-like character (Unicode Pd, minus signs; ー and 〜 between digits) read as
              '-', and
              traditional Chinese converted to simplified (OpenCC's tables), so one keyword
              list covers both.
``joined``    ``text`` with letters split by spaces, dots, hyphens or newlines rejoined
              ("p a s s w o r d" → "password", "密 码" → "密码").
``leet``      ``joined`` with digits and symbols inside words read as letters ("1gn0re").
hidden texts  what the reader of the text could be made to see that the plain string hides:
              decoded base64/hex/percent/HTML-entity runs, the ASCII spelled by Unicode tag
              characters, text under a right-to-left override read in display order.

Each view remembers, for every character, which span of the *original* text it came from, so a
finding can quote (masked) what the user actually wrote. Queries are never normalised this way:
this is for judging text, not for ranking it.

The presence of hidden characters is itself recorded (:attr:`Normalised.signals`): an
instruction that needed invisible characters to get written is suspicious for that alone.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise

from memcourse.guards.hidden import decoded_texts
from memcourse.text import confusables

__all__ = ["View", "Normalised", "normalise", "fold_text", "is_cjk"]

#: Bidi embeddings, overrides and isolates: they reorder what is displayed.
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))
_RLO = {0x202E, 0x2067}  # right-to-left override / isolate: the text after it shows reversed
_BIDI_END = {0x202C, 0x2069}
#: Characters a reader never sees even though they are not format characters.
_INVISIBLE_EXTRA = {0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, 0x17B4, 0x17B5}
_TAG_FIRST, _TAG_LAST = 0xE0000, 0xE007F
_BLACK_FLAG = 0x1F3F4  # emoji subdivision flags (England, Scotland) legitimately use tag characters
#: Dash-like characters that are not in Unicode's dash-punctuation category (Pd): minus signs
#: and the hyphen bullet. Every Pd character (‐ ‑ ‒ – — ― ﹘ ﹣ － …) is folded to '-' as well.
_DASHES = {"\u2212", "\u2043", "\u2796", "\u02d7", "\u207b", "\u208b", "\ufe63", "\uff0d"}
#: Folded to '-' only between digits: in words they are letters or marks of their own.
_DASHES_BETWEEN_DIGITS = {"\u30fc", "\uff70", "\u301c", "\u3030", "\uff5e", "~", "\u2053", "\u2e3a", "\u2e3b"}
_LEET = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s", "€": "e"})


@dataclass
class View:
    """One way of reading the text, with the original span behind each character."""

    name: str
    text: str
    spans: list[tuple[int, int]]  # spans[i]: the original [start, end) that produced text[i]

    def original(self, source: str, start: int, end: int) -> str:
        """The original text behind ``self.text[start:end]``."""
        if not self.spans or start >= end:
            return ""
        begin = self.spans[start][0]
        finish = self.spans[min(end, len(self.spans)) - 1][1]
        return source[begin:finish]


@dataclass
class Normalised:
    """The views of one text, and what its hidden characters tell."""

    source: str
    text: View
    joined: View
    leet: list[View]
    hidden: list[View] = field(default_factory=list)
    signals: list[str] = field(default_factory=list)  # e.g. "zero-width characters inside words"

    def views(self, *, leet: bool = False) -> list[View]:
        """The views a detector should scan (``leet`` adds the digit-as-letter readings)."""
        found = [self.text]
        if self.joined.text != self.text.text:
            found.append(self.joined)
        if leet:
            found += [view for view in self.leet if view.text != self.joined.text]
        return found + self.hidden


def is_cjk(ch: str) -> bool:
    """Han, kana or hangul: scripts written without spaces between words."""
    cp = ord(ch)
    return (
        0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2FFFF
        or 0x3040 <= cp <= 0x30FF or 0xAC00 <= cp <= 0xD7AF or 0xF900 <= cp <= 0xFAFF
    )


# -- the tables (loaded once, lazily: they are not needed to import memcourse) -------------
@lru_cache(maxsize=1)
def _confusable_table() -> dict[str, str]:
    """Non-ASCII character -> the ASCII letter or digit it imitates (Unicode confusables data,
    as shipped by ``confusable_homoglyphs``). CJK characters are never folded."""
    data = confusables()

    def ascii_targets(char: str) -> list[str]:
        return [e["c"] for e in data.get(char, ()) if len(e["c"]) == 1 and e["c"].isascii() and e["c"].isalnum()]

    # the data links each character to one prototype, and a capital I's prototype is "l": a
    # Cyrillic І, a Greek Ι and a palochka Ӏ all map to "l". A look-alike is folded to the ASCII
    # letter of its own case among the prototype and the ASCII letters that share it (I ~ l),
    # so "Іgnore" reads "Ignore" and an AWS key with a Cyrillic І still matches.
    kin: dict[str, set[str]] = {}
    for a in map(chr, range(0x21, 0x7F)):
        if a.isalnum():
            for t in ascii_targets(a):
                kin.setdefault(t, set()).add(a)
                kin.setdefault(a, set()).add(t)
    table: dict[str, str] = {}
    for char in data:
        if len(char) != 1 or char.isascii() or is_cjk(char):
            continue
        direct = ascii_targets(char)
        if not direct:
            continue
        candidates = direct + sorted(k for t in direct for k in kin.get(t, ()) if k not in direct)
        if char.isalpha():
            letters = [c for c in candidates if c.isalpha()] or candidates
            cased = [c for c in letters if (c.isupper() if char.isupper() else c.islower() if char.islower() else True)]
            table[char] = (cased or letters)[0]
        else:
            table[char] = direct[0]
    return table


@lru_cache(maxsize=1)
def _t2s():
    from opencc import OpenCC

    return OpenCC("t2s")


@lru_cache(maxsize=4096)
def _simplified(run: str) -> str:
    return _t2s().convert(run)


def _is_invisible(ch: str) -> bool:
    cp = ord(ch)
    if cp in _INVISIBLE_EXTRA or 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF:
        return True
    return unicodedata.category(ch) == "Cf"


# -- building the views --------------------------------------------------------------------
def _canonical(source: str) -> tuple[View, list[str], str, list[str]]:
    """The ``text`` view, the signals, the ASCII spelled by tag characters, and the texts shown
    reversed by right-to-left overrides."""
    signals: list[str] = []
    tag_chars: list[str] = []
    reversed_runs: list[str] = []
    chars: list[str] = []
    spans: list[tuple[int, int]] = []
    confusables = _confusable_table()
    in_override = False
    override: list[str] = []
    previous_visible = ""
    inside_word_zero_width = False
    i = 0
    n = len(source)
    while i < n:
        ch = source[i]
        cp = ord(ch)
        if (32 <= cp < 127 or ch in "\t\n\r") and (i + 1 == n or source[i + 1] < "\x80"):
            # printable ASCII before ASCII: nothing to fold, hide or compose (the fast path; the
            # loop below would give the same result one Unicode lookup at a time)
            if in_override:
                override.append(ch)
            chars.append(ch)
            spans.append((i, i + 1))
            previous_visible = ch
            i += 1
            continue
        if _TAG_FIRST <= cp <= _TAG_LAST:
            flag = previous_visible and ord(previous_visible) == _BLACK_FLAG
            if not flag and 0xE0020 <= cp <= 0xE007E:
                tag_chars.append(chr(cp - 0xE0000))
            elif cp == 0xE007F:
                previous_visible = ""
            i += 1
            continue
        if cp in _BIDI:
            if cp in _RLO:
                in_override, override = True, []
            elif cp in _BIDI_END and in_override:
                in_override = False
                reversed_runs.append("".join(reversed(override)))
            if "bidi controls" not in signals:
                signals.append("bidi controls")
            i += 1
            continue
        if _is_invisible(ch):
            after = source[i + 1] if i + 1 < n else ""
            if (
                previous_visible.isalnum()
                and after.isalnum()
                and not (cp in (0x200C, 0x200D) and not previous_visible.isascii())
            ):
                inside_word_zero_width = True
            i += 1
            continue
        # one cluster: this character plus what NFKC would attach to it (combining marks,
        # half-width voicing marks), so they compose as they would in the whole string
        j = i + 1
        while j < n and (
            unicodedata.combining(source[j]) or unicodedata.normalize("NFKC", source[j])[:1] in ("\u3099", "\u309a")
            or "\u1160" <= source[j] <= "\u11ff"  # a Hangul vowel or final jamo: NFD Korean composes to syllables
        ):
            j += 1
        cluster = unicodedata.normalize("NFKC", "".join(c for c in source[i:j] if not _is_invisible(c)))
        if in_override:
            override.append(source[i:j])
        for out in cluster:
            if out in "\u2028\u2029\x85\x0b\x0c":
                out = "\n"
            elif not out.isascii():
                folded = confusables.get(out)
                if folded is not None and not _spoofs_latin(out, source, i, confusables):
                    folded = None  # "Кто": a Russian word, its capital К kept (see _spoofs_latin)
                if folded is None and unicodedata.category(out).startswith("L"):
                    base = unicodedata.normalize("NFD", out)[0]
                    if base.isascii() and base.isalpha():
                        folded = base  # é -> e: accents do not change a keyword
                if folded is not None:
                    out = folded
            if out != "-" and (out in _DASHES or unicodedata.category(out) == "Pd"):
                out = "-"  # 078–05–1120 and 138－1234－5678 are the numbers the detectors know
            chars.append(out)
            spans.append((i, j))
        previous_visible = source[j - 1]
        i = j
    _dashes_between_digits(chars)
    if in_override and override:
        reversed_runs.append("".join(reversed(override)))
    if tag_chars:
        signals.append("Unicode tag characters")
    if inside_word_zero_width:
        signals.append("zero-width characters inside words")
    _to_simplified(chars)
    return View("text", "".join(chars), spans), signals, "".join(tag_chars), reversed_runs


def _spoofs_latin(char: str, source: str, at: int, confusables: dict[str, str]) -> bool:
    """Is the look-alike ``char`` (at ``source[at]``) folded to its Latin letter?

    Always, unless it is a capital whose small letter has no Latin look-alike (Cyrillic К, Т, З, В,
    Н, М: к, т, з, в, н, м look like no Latin letter): folding such a capital and not its small letter
    would turn a sentence-initial Russian "Кто" into Latin "K" + Cyrillic "то", and "СМС" into "CMC"
    while "смс" stays "cмc", which no Russian keyword matches. So such a capital is folded only in a
    word that spoofs Latin, one that holds an ASCII letter or digit ("AКIA2E0A…", "Кey"); elsewhere it
    keeps its case pair, and the detectors' case-blind patterns match it. A word is the run of letters
    and digits around it."""
    small = char.lower()
    if small == char or confusables.get(small) is not None:
        return True
    start, end = at, at + 1
    while start > 0 and source[start - 1].isalnum():
        start -= 1
    while end < len(source) and source[end].isalnum():
        end += 1
    word = source[start:end]
    return any(c.isascii() for c in word)


def _dashes_between_digits(chars: list[str]) -> None:
    """Marks that only look like dashes when they group digits (the prolonged-sound mark ー in
    ルール, the wave dash 〜 in 1〜3日): read as '-' between two digits, left alone elsewhere."""
    for k in range(1, len(chars) - 1):
        if chars[k] in _DASHES_BETWEEN_DIGITS and chars[k - 1].isdigit() and chars[k + 1].isdigit():
            chars[k] = "-"


def _to_simplified(chars: list[str]) -> None:
    """Traditional → simplified, in place, one run of Han characters at a time; a run whose
    length would change keeps its characters (alignment with the original matters more)."""
    start = None
    for k in range(len(chars) + 1):
        han = k < len(chars) and len(chars[k]) == 1 and is_cjk(chars[k]) and not (0x3040 <= ord(chars[k]) <= 0x30FF)
        if han and start is None:
            start = k
        elif not han and start is not None:
            run = "".join(chars[start:k])
            converted = _simplified(run)
            if len(converted) == len(run):
                chars[start:k] = list(converted)
            start = None


_SEPARATORS = " \t\n.-_*·•|/\\~+,'\"`"
#: One character standing alone between separators: a letter of a split word ("p-w-d").
_SINGLE = re.compile(r"(?<![^\s.\-_*·•|/\\~+,'\"`])[^\s.\-_*·•|/\\~+,'\"`](?![^\s.\-_*·•|/\\~+,'\"`:;=?!])")


def _joined(view: View) -> View:
    """Rejoin letters split by separators, and CJK characters split by anything."""
    text, spans = view.text, view.spans
    keep = [True] * len(text)
    # CJK characters with only separators between them: drop the separators
    for m in re.finditer(r"(?<=[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff])[\s.\-_*·•"
                         r"|/\\~+]+(?=[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff])", text):
        for k in range(m.start(), m.end()):
            keep[k] = False
    # runs of three or more single letters/digits: join them; a gap that differs from the
    # run's usual gap ("i g n o r e   a l l") stays a word boundary
    singles = list(_SINGLE.finditer(text))
    run: list[re.Match] = []

    def flush(run: list[re.Match]) -> None:
        if len(run) < 3:
            return
        gaps = [text[a.end():b.start()] for a, b in pairwise(run)]
        usual = max(set(gaps), key=gaps.count)
        for (a, b), gap in zip(pairwise(run), gaps, strict=True):
            if gap == usual:
                for k in range(a.end(), b.start()):
                    keep[k] = False
            else:  # a word boundary: keep its punctuation ("s k - p r o j"), else one space
                marks = [k for k in range(a.end(), b.start()) if not text[k].isspace() and text[k] not in usual]
                for k in range(a.end(), b.start()):
                    keep[k] = k in marks if marks else k == a.end()

    for m in singles:
        if run and all(c in _SEPARATORS for c in text[run[-1].end():m.start()]) and m.start() > run[-1].end():
            run.append(m)
        else:
            flush(run)
            run = [m]
    flush(run)
    # one word per line ("ignore\nall\nprevious"): the line breaks are spaces
    for m in re.finditer(r"(?:^|(?<=\n))[^\s]{1,20}(?:\n[^\s]{1,20}){2,}(?=\n|$)", text):
        for k in range(m.start(), m.end()):
            if text[k] == "\n":
                text = text[:k] + " " + text[k + 1:]
    chars = [text[k] for k in range(len(text)) if keep[k]]
    kept_spans = [spans[k] for k in range(len(text)) if keep[k]]
    return View("joined", "".join(chars), kept_spans)


def _leet(view: View) -> list[View]:
    """Digits and symbols inside words read as letters; "1" is read both as i and as l."""
    out = []
    for one in ("i", "l"):
        table = dict(_LEET)
        table.update({ord("1"): one, ord("!"): "i", ord("|"): one})
        text = re.sub(r"[\w@$€!|]+", _leet_swapper(table), view.text)
        if len(text) == len(view.text):
            out.append(View(f"leet({one})", text, view.spans))
    return out


def _leet_swapper(table: dict[int, str]) -> Callable[[re.Match[str]], str]:
    """A ``re.sub`` callback that reads a word's digits and symbols as letters (words only)."""

    def swap(m: re.Match[str]) -> str:
        word = m.group()
        return word.translate(table) if any(c.isalpha() for c in word) else word

    return swap


def _plain_view(name: str, text: str, span: tuple[int, int]) -> View:
    """A hidden text, normalised like the rest, every character pointing at ``span``."""
    inner, _, _, _ = _canonical(text)
    return View(name, inner.text, [span] * len(inner.text))


def normalise(source: str, *, depth: int = 2) -> Normalised:
    """All the views of ``source`` (see the module docstring)."""
    if not isinstance(source, str):
        raise TypeError(f"text must be a string, got {type(source).__name__}")
    text, signals, tags, reversed_runs = _canonical(source)
    joined = _joined(text)
    hidden: list[View] = []
    whole = (0, len(source))
    if tags:
        hidden.append(_plain_view("Unicode tag characters", tags, whole))
    for run in reversed_runs:
        hidden.append(_plain_view("text under a right-to-left override", run, whole))
    if depth > 0:
        for label, decoded, span in decoded_texts(source):
            inner = normalise(decoded, depth=depth - 1)
            for view in inner.views(leet=True):
                hidden.append(
                    View(f"{label}: {view.name}" if view.name != "text" else label, view.text, [span] * len(view.text))
                )
            signals += [s for s in inner.signals if s not in signals]
    return Normalised(source, text, joined, _leet(joined), hidden, signals)


def fold_text(text: str) -> str:
    """The ``text`` view only, as a string (for compiling keyword lists the same way)."""
    return _canonical(text)[0].text
