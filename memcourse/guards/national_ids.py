"""National identity numbers of the gate's languages, judged by what their own formats guarantee.

Why a module of its own: an identifier detector that knows only Chinese ID numbers and US social
security numbers misses the Korean resident number, the Japanese My Number, the Spanish DNI, the
French NIR, the German tax id and the Russian SNILS and INN, although each is as personal. Most of
these carry a check digit, and the check is what keeps ordinary numbers (order numbers, tracking
codes, scores) out: a random number of the right length passes one time in 10, 11, 23, 97 or 101.

Where the format has no check (a Korean resident number issued since October 2020, a Russian
passport), the detector asks for more shape instead: the Korean number's first six digits must be
a real birth date and its seventh the sex-and-century digit, after the hyphen everyone writes; a
Russian passport number or INN counts only next to a word that says what it is (``identifiers.py``'s
labelled identifiers, whose words this module adds for every language of the gate).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import date

from memcourse.guards.folded import either_case

__all__ = ["ID_WORDS", "PHONE_WORDS", "national_ids"]

#: Words that say "this number identifies a person", in the languages the gate supports beyond
#: English, Chinese and Japanese (``identifiers.py`` holds those). Matched before a number.
ID_WORDS = (
    r"주민등록번호|주민번호|여권번호|여권 번호|운전면허번호|외국인등록번호|계좌번호|"
    r"身分證字號|身分證號碼?|身分證|護照號碼|護照號|帳號|銀行帳戶|個人番号|"
    r"dni|nie|n[uú]mero de pasaporte|pasaporte|n[uú]mero de la seguridad social|n[uú]mero de identidad|"
    r"cuenta bancaria|n[uú]mero de cuenta|"
    r"personalausweisnummer|ausweisnummer|reisepassnummer|passnummer|steuer-?id|steueridentifikationsnummer|"
    r"sozialversicherungsnummer|kontonummer|"
    r"num[ée]ro de s[ée]curit[ée] sociale|num[ée]ro de passeport|num[ée]ro fiscal|num[ée]ro d'identit[ée]|"
    r"carte d'identit[ée]|num[ée]ro de compte|"
    + either_case(r"номер паспорта|паспорт|снилс|инн|номер сч[её]та|расч[её]тный сч[её]т")
)
#: Words that say "this is a phone number", for the bare-number rule.
PHONE_WORDS = r"전화번호|전화|휴대폰|핸드폰|tel[ée]fono|m[oó]vil|handynummer|handy|telefonnummer|telefon|" \
              r"t[ée]l[ée]phone|portable|" + either_case(r"телефон|мобильный|номер телефона")


def _digits(text: str) -> list[int]:
    return [int(ch) for ch in text if ch.isdigit()]


def _real_date(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def korean_resident_number(text: str) -> bool:
    """YYMMDD-SNNNNNN: a real birth date and a sex/century digit 1-8 (the check digit was dropped
    for numbers issued since October 2020, so it is not required)."""
    d = _digits(text)
    century = {1: 1900, 2: 1900, 5: 1900, 6: 1900, 3: 2000, 4: 2000, 7: 2000, 8: 2000}.get(d[6])
    return century is not None and _real_date(century + d[0] * 10 + d[1], d[2] * 10 + d[3], d[4] * 10 + d[5])


def japanese_my_number(text: str) -> bool:
    """12 digits; the last is a check digit over the first 11 (weights 6,5,4,3,2,7,6,5,4,3,2)."""
    d = _digits(text)
    total = sum(x * w for x, w in zip(d[:11], (6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2), strict=False))
    remainder = total % 11
    return d[11] == (0 if remainder <= 1 else 11 - remainder)


_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def spanish_dni(text: str) -> bool:
    """8 digits and a letter (DNI), or X/Y/Z, 7 digits and a letter (NIE): the letter is mod 23."""
    compact = re.sub(r"[\s\-.]", "", text).upper()
    if compact[0] in "XYZ":
        compact = str("XYZ".index(compact[0])) + compact[1:]
    return _DNI_LETTERS[int(compact[:8]) % 23] == compact[8]


def french_nir(text: str) -> bool:
    """15 digits: sex, year, month, department, commune, order, and a key = 97 - (first 13 mod 97)
    (Corsica's 2A and 2B count as 19 and 18)."""
    compact = re.sub(r"\s", "", text).upper()
    body = compact[:13].replace("2A", "19").replace("2B", "18")
    return body.isdigit() and 97 - int(body) % 97 == int(compact[13:15])


def german_tax_id(text: str) -> bool:
    """11 digits, not starting with 0; in the first ten exactly one digit repeats (twice or three
    times); the last is a check digit by ISO 7064 MOD 11,10."""
    d = _digits(text)
    counts = [d[:10].count(x) for x in set(d[:10])]
    if d[0] == 0 or sorted(c for c in counts if c > 1) not in ([2], [3]):
        return False
    product = 10
    for x in d[:10]:
        total = (x + product) % 10 or 10
        product = (total * 2) % 11
    return (11 - product) % 10 == d[10]


def russian_snils(text: str) -> bool:
    """Nine digits and a two-digit check (123-456-789 01): the weighted sum of the nine (weights 9..1) mod 101."""
    d = _digits(text)
    total = sum(x * (9 - i) for i, x in enumerate(d[:9]))
    check = total if total < 100 else 0 if total in (100, 101) else total % 101 % 100
    return check == d[9] * 10 + d[10]


_TW_LETTERS = "ABCDEFGHJKLMNPQRSTUVXYWZIO"


def taiwan_id(text: str) -> bool:
    """A letter and nine digits (the first 1 or 2), checked by the weighted sum mod 10."""
    letter = _TW_LETTERS.index(text[0].upper()) + 10
    d = [letter // 10, letter % 10] + _digits(text)
    weights = (1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1)
    return sum(x * w for x, w in zip(d, weights, strict=False)) % 10 == 0


_EDGE_L = r"(?<![0-9A-Za-z])"
_EDGE_R = r"(?![0-9A-Za-z])"
#: (category label, pattern, validator)
_FORMATS: list[tuple[str, re.Pattern[str], Callable[[str], bool]]] = [
    ("Korean resident registration number", re.compile(_EDGE_L + r"\d{6}-[1-8]\d{6}" + _EDGE_R),
     korean_resident_number),
    # grouped 4-4-4 as it is printed on the card; twelve bare digits count only after a label
    ("Japanese My Number", re.compile(_EDGE_L + r"\d{4}([ \-])\d{4}\1\d{4}" + _EDGE_R), japanese_my_number),
    ("Spanish DNI/NIE", re.compile(_EDGE_L + r"(?:\d{8}|[XYZxyz][ \-]?\d{7})[ \-]?[A-Za-z]" + _EDGE_R), spanish_dni),
    ("French social security number (NIR)",
     re.compile(_EDGE_L + r"[12] ?\d{2} ?(?:0[1-9]|1[0-2]) ?(?:\d{2}|2[AaBb]) ?\d{3} ?\d{3} ?\d{2}" + _EDGE_R),
     french_nir),
    ("German tax id", re.compile(_EDGE_L + r"[1-9]\d(?: ?\d{3}){3}" + _EDGE_R), german_tax_id),
    ("Russian SNILS", re.compile(_EDGE_L + r"\d{3}-\d{3}-\d{3}[ \-]\d{2}" + _EDGE_R), russian_snils),
    ("Taiwanese ID number", re.compile(_EDGE_L + r"[A-Za-z][12]\d{8}" + _EDGE_R), taiwan_id),
]


def national_ids(text: str) -> Iterator[tuple[str, int, int]]:
    """(label, start, end) of every national identity number in ``text`` whose check passes."""
    for label, pattern, valid in _FORMATS:
        for match in pattern.finditer(text):
            if valid(match.group()):
                yield label, match.start(), match.end()
