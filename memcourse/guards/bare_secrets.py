"""Secrets that need no name: their shape alone says what they are.

- A wallet's recovery phrase is twelve to twenty-four words from one BIP-39 word list (the
  ``mnemonic`` package ships the lists in eleven languages). Nobody writes twelve of those words
  in a row by chance: the lists leave out "the", "is", "and", and every other word a sentence needs.
- A URL carries a key when a query parameter named for one has a value (``?token=…``, ``?sig=…``),
  or when a webhook or API path holds a long random segment (Slack, Discord, Teams, Bitrix24
  hooks): a document, a commit or a video link has neither.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from memcourse.guards.values import count_digits, count_letters

__all__ = ["recovery_phrases", "secret_urls"]


@lru_cache(maxsize=1)
def _wordlists() -> list[frozenset[str]]:
    """The BIP-39 word lists (English, Spanish, French, Italian, Portuguese, Czech, Turkish, Russian,
    Korean, Japanese, Chinese): a recovery phrase is twelve to twenty-four words from one of them."""
    from mnemonic import Mnemonic

    return [frozenset(unicodedata.normalize("NFC", word) for word in Mnemonic(language).wordlist)
            for language in Mnemonic.list_languages()]  # (the French and Spanish lists are stored decomposed)


#: Runs of short words separated by spaces (or Chinese characters one by one).
_WORD_RUN = re.compile(r"(?:[^\W\d_]{2,12}[ \t\-,]+){11,}[^\W\d_]{2,12}|(?:[\u3400-\u9fff][ \t]+){11,}[\u3400-\u9fff]")


def recovery_phrases(text: str) -> list[str]:
    """Runs of twelve or more words that all belong to one BIP-39 word list."""
    found = []
    for m in _WORD_RUN.finditer(unicodedata.normalize("NFC", text)):
        words = [w.lower() for w in re.split(r"[ \t\-,]+", m.group()) if w]
        for wordlist in _wordlists():
            best = longest = 0
            for word in words:
                longest = longest + 1 if word in wordlist else 0
                best = max(best, longest)
            if best >= 12:
                found.append(m.group())
                break
    return found


_URL = re.compile(r"\b(?:https?|wss?)://[^\s<>\"'»”]+", re.I)
_SECRET_QUERY = re.compile(
    r"[?&#](?:access_?token|token|api_?key|apikey|key|secret|sig|signature|auth|password|pass|pwd|code|private_token)"
    r"=(?P<value>[^&#\s]{8,})", re.I)
_HOOK_PATH = re.compile(r"hook|webhook|/rest/|/api/|/services/|/bot", re.I)


def secret_urls(text: str) -> list[str]:
    """URLs that carry a key: a credential-named query parameter with a value, or a webhook or API
    path with a long random segment (Slack, Discord, Teams, Bitrix24 hooks)."""
    found = []
    for m in _URL.finditer(text):
        url = m.group().rstrip(".,;:!?)")
        query = _SECRET_QUERY.search(url)
        if query and count_digits(query.group("value")) + sum(ch.isupper() for ch in query.group("value")) >= 2:
            found.append(url)
            continue
        if _HOOK_PATH.search(url):
            segments = re.split(r"[/?&=@]", url.split("://", 1)[1])[1:]
            if any(len(s) >= 16 and count_digits(s) >= 2 and count_letters(s) >= 2 for s in segments):
                found.append(url)
    return found
