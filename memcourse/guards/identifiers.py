"""Personal identifiers: numbers that identify a person or open their account.

Each detector checks what the number's own format guarantees, so that ordinary numbers are
left alone: a Chinese ID number carries a GB 11643 check digit and a real birth date, a card
number passes Luhn and is grouped like a card, an IBAN passes ISO 7064 mod 97. Before any of
them runs, UUIDs, hex hashes, dates and times are blanked out: a random UUID contains a
Luhn-valid 16-digit run about twice in a thousand, and LangGraph users key items by UUID.

Phone numbers (Chinese mobile, North American, Japanese mobile, national numbers written
behind a trunk ``0`` in groups, any ``+CC`` international number) and US social security numbers are found by their
shape; a bare 9- or 10-digit
number only counts next to a word saying what it is ("SSN", "phone", "电话").
"""

from __future__ import annotations

import re
from datetime import datetime

from memcourse.guards.findings import Finding, mask
from memcourse.guards.folded import FoldedPattern
from memcourse.guards.national_ids import ID_WORDS, PHONE_WORDS, national_ids
from memcourse.guards.normalise import Normalised, View

__all__ = ["find_identifiers", "is_chinese_id_number", "passes_luhn", "blank_non_identifiers"]

_CN_ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]


def is_chinese_id_number(candidate: str) -> bool:
    """GB 11643 check digit: a random 18-digit number passes only 1 time in 11."""
    if not isinstance(candidate, str) or not re.fullmatch(r"\d{17}[\dXx]", candidate):
        return False
    total = sum(int(d) * w for d, w in zip(candidate[:17], _CN_ID_WEIGHTS, strict=True))
    return "10X98765432"[total % 11] == candidate[17].upper()


def _plausible_birth_date(candidate: str) -> bool:
    try:
        born = datetime.strptime(candidate[6:14], "%Y%m%d")
    except ValueError:
        return False
    return 1900 <= born.year <= 2100


def passes_luhn(digits: str) -> bool:
    """The checksum every payment card number carries."""
    if not isinstance(digits, str) or not digits.isdigit():
        return False
    numbers = [int(d) for d in digits][::-1]
    total = sum(n if i % 2 == 0 else (n * 2 - 9 if n * 2 > 9 else n * 2) for i, n in enumerate(numbers))
    return total % 10 == 0


def _iban_valid(candidate: str) -> bool:
    text = re.sub(r"\s", "", candidate).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", text):
        return False
    rearranged = text[4:] + text[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1


# -- what is not an identifier, blanked before the search ----------------------------------
_NOT_IDENTIFIERS = [
    re.compile(r"[0-9A-Fa-f]{8}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{12}"),  # UUID
    re.compile(r"(?<![0-9A-Za-z])(?=[0-9a-f]*[a-f])[0-9a-f]{12,}(?![0-9A-Za-z])"
               r"|(?<![0-9A-Za-z])(?=[0-9A-F]*[A-F])[0-9A-F]{12,}(?![0-9A-Za-z])"),  # hashes
    re.compile(r"(?<!\d)(?:1[89]|2\d)\d\d[-/.年](?:0?[1-9]|1[0-2])[-/.月](?:0?[1-9]|[12]\d|3[01])日?"
               r"(?:[ T_]?\d{1,2}[:.时]\d{2}(?:[:.分]\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?!\d)"),
    re.compile(r"(?<!\d)(?:0?[1-9]|[12]\d|3[01])[-/.](?:0?[1-9]|[12]\d|3[01])[-/.](?:\d{4}|\d{2})"
               r"(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)?(?!\d)"),
    re.compile(r"(?<!\d)\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?!\d)"),
    re.compile(r"(?<![\d.])v?\d{1,3}(?:\.\d{1,3}){2,3}(?![\d.])"),  # versions and IP addresses
]
_DATETIME_DIGITS = (
    "%Y%m%d%H%M%S",
    "%Y%m%d%H%M",
    "%d%m%Y%H%M%S",
    "%m%d%Y%H%M%S",
    "%Y%m%d%H%M%S%f",
    "%d%m%Y%H%M",
    "%m%d%Y%H%M",
)


def blank_non_identifiers(text: str) -> str:
    """``text`` with UUIDs, hashes, dates, times and version numbers replaced by ``_``
    (same length, so positions still point into the original)."""
    for pattern in _NOT_IDENTIFIERS:
        # (an IBAN whose country letters are hex digits, DE or BE, reads as a hash: it is not one)
        text = pattern.sub(lambda m: m.group() if _IBAN.fullmatch(m.group()) and _iban_valid(m.group())
                           else "_" * len(m.group()), text)
    return text


def _looks_like_datetime(digits: str) -> bool:
    """A run of digits that reads as a moment: a compact date-time, or a Unix time in
    milliseconds between 2000 and 2100 (13 digits, like the obsolete 13-digit Visa)."""
    if len(digits) == 13 and 946_684_800_000 <= int(digits) <= 4_102_444_800_000:
        return True
    for layout in _DATETIME_DIGITS:
        try:
            moment = datetime.strptime(digits, layout)
        except ValueError:
            continue
        if 1900 <= moment.year <= 2200:
            return True
    return False


# -- the shapes --------------------------------------------------------------------------
_CN_ID = re.compile(r"(?<![0-9A-Za-z])[1-9]\d{5}(?:[ \-.]?\d){11}[ \-.]?[\dXx](?![0-9A-Za-z])")
# digits in groups, separated by one kind of separator; judged as a whole below
_DIGIT_GROUPS = re.compile(r"(?<![A-Za-z0-9_\-./])\d+(?:([ \-./_·•]{1,2})\d+(?:\1\d+)*)?(?![A-Za-z0-9_]"
                           r"|[\-./][A-Za-z0-9])")
_CN_MOBILE = re.compile(r"(?<![A-Za-z0-9_])(?:(?:\+|00)86[ \-]?)?1[3-9]\d(?:[ \-.]?\d){8}(?![\d])")
_US_PHONE = re.compile(
    r"(?<![A-Za-z0-9_])(?:\+?1[ .\-]?)?(?:\(\s*[2-9]\d{2}\s*\)[ .\-]?\s*|[2-9]\d{2}[ .\-])[2-9]\d{2}[ .\-]\d{4}(?!\d)"
)
_TW_PHONE = re.compile(r"(?<![A-Za-z0-9_])(?:\+886[ \-]?9|09)\d{2}[ \-]?\d{3}[ \-]?\d{3}(?!\d)")
#: A Taiwanese landline with its area code in parentheses: (02) 2345-6789, (04)2234-5678.
_TW_LANDLINE = re.compile(r"(?<![A-Za-z0-9_])[(（]0[2-8]\d{0,2}[)）][ \-]?\d{3,4}[ \-]?\d{4}(?!\d)")
#: A Russian mobile behind the trunk 8 (8 916 123-45-67, 8 (903) 123 45 67): +7 is international.
_RU_MOBILE = re.compile(r"(?<![A-Za-z0-9_])8[ \-]?(?:\(9\d{2}\)|9\d{2})[ \-]?\d{3}[ \-]?\d{2}[ \-]?\d{2}(?!\d)")
_JP_PHONE = re.compile(r"(?<![A-Za-z0-9_])(?:0[5789]0|\+81[ \-]?[5789]0)[ \-]?\d{4}[ \-]?\d{4}(?!\d)")
# National format behind a trunk "0" (Japan 03-1234-5678, 090-123-4567, 0120-123-456; Germany
# 030-1234-5678; France 06.12.34.56.78; UK 020 7946 0958; Australia 02 9876 5432): three or more
# groups joined by one kind of separator, 10 or 11 digits in all (checked below). Spaces join
# only three groups of 3-4 digits after the first, so a row of scores or lottery numbers
# ("05 12 23 34 45") is not a phone number; dates are blanked before any of this runs.
_NATIONAL_PHONE = re.compile(r"(?<![A-Za-z0-9_\-./+])0[1-9]\d{0,3}([\-.])\d{1,4}(?:\1\d{1,4}){1,3}(?![\dA-Za-z_]"
                             r"|[\-.]\d)")
_NATIONAL_PHONE_SPACED = re.compile(r"(?<![A-Za-z0-9_\-./+])(?<!\d )0[1-9]\d{0,3} \d{3,4} \d{3,4}(?![\dA-Za-z_]| \d)")
_INTL_PHONE = re.compile(r"(?<![A-Za-z0-9_+])\+[1-9]\d{0,2}(?:[ \-.]?\(?\d{1,4}\)?){2,5}(?!\d)")
_SSN = re.compile(r"(?<![A-Za-z0-9_])(?!000|666|9\d\d)\d{3}([ \-])(?!00)\d{2}\1(?!0000)\d{4}(?![\d])")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b")
_PHONE_WORD = (r"phone|mobile|cell|tel|call|whats ?app|wechat|电话|手机|手机号|联系方式|微信|電話|携帯|番号|"
               + PHONE_WORDS)
_BARE_PHONE = FoldedPattern(rf"(?:{_PHONE_WORD})\D{{0,15}}(?<!\d)(?P<number>[2-9]\d{{9}})(?!\d)", re.I)
_BARE_SSN = re.compile(r"(?:\bssn\b|social security(?: number| no\.?)?)\D{0,15}(?<!\d)(?P<number>\d{9})(?!\d)", re.I)
_ID_WORD = (
    r"passport(?: number| no\.?)?|driver'?s? licen[cs]e(?: number)?|national id(?: number)?|id card number|tax id|"
    r"account number|routing number|bank account|card number|社保号|社保卡号|社会保障号|身份证号码?|身份证|护照号码?"
    r"|护照|驾驶证号?|"
    r"驾照号?|银行账号|银行卡号|卡号|账号|税号|マイナンバー|口座番号|旅券番号|パスポート番号|免許証番号|保険証番号|"
    + ID_WORDS
)
_JOINERS = (r"number|no\.?|nr\.?|n[º°o]\.?|is|was|are|是|为|為|は|が|는|은|이|가|es|era|ist|lautet|war|est|"
             r"[ée]tait|это|de|mein|meine|my|mi|mon|ma|мой|мой номер")
_LABELLED_ID = FoldedPattern(
    # between the label and the number, only what joins them: "number", "no.", a copula or particle
    # in any gate language ("is", "是", "は", "는", "es", "lautet", "est", "это") and punctuation
    rf"(?P<label>{_ID_WORD})(?:[\s:：=#—\-]*(?:{_JOINERS})(?![^\W\d_]))*[\s:：=#—\-]*"
    rf"(?P<value>[A-Z]{{0,3}}\d[0-9A-Z]*(?:[ \-]\d[0-9A-Z]*)*)", re.I
)


def _card_shape(groups: list[str]) -> bool:
    """Grouped like a card: contiguous, 4-4-4-4(-3), 4-4-4-1..4 or Amex/Diners 4-6-4/5."""
    sizes = [len(g) for g in groups]
    if len(sizes) == 1:
        return True
    if sizes[:3] == [4, 6, 5] or sizes[:3] == [4, 6, 4]:
        return len(sizes) == 3
    return all(s == 4 for s in sizes[:-1]) and 1 <= sizes[-1] <= 4 and len(sizes) >= 3


def _scan_view(view: View, source: str) -> list[tuple[str, str, str]]:
    text = blank_non_identifiers(view.text)
    found: list[tuple[str, str, str]] = []
    taken: list[tuple[int, int]] = []

    def add(category: str, label: str, start: int, end: int) -> None:
        if any(a < end and start < b for a, b in taken):
            return
        taken.append((start, end))
        found.append((category, label, view.original(source, start, end)))

    for m in _CN_ID.finditer(text):
        digits = re.sub(r"[ \-.]", "", m.group())
        if is_chinese_id_number(digits) and _plausible_birth_date(digits):
            add("cn_id", "Chinese ID number", *m.span())
    for m in _DIGIT_GROUPS.finditer(text):
        groups = re.split(r"[^\d]+", m.group())
        digits = "".join(groups)
        if (
            13 <= len(digits) <= 19 and digits[0] in "23456" and _card_shape(groups)
            and passes_luhn(digits) and not is_chinese_id_number(digits) and not _looks_like_datetime(digits)
        ):
            add("card", "payment card number", *m.span())
    for label, start, end in national_ids(text):
        add("national_id", label, start, end)
    for m in _SSN.finditer(text):
        add("ssn", "US social security number", *m.span())
    for m in _BARE_SSN.finditer(text):
        add("ssn", "US social security number", *m.span("number"))
    for m in _CN_MOBILE.finditer(text):
        add("phone", "Chinese mobile number", *m.span())
    for pattern in (_US_PHONE, _JP_PHONE, _TW_PHONE, _TW_LANDLINE, _RU_MOBILE, _INTL_PHONE):
        for m in pattern.finditer(text):
            if len(re.sub(r"\D", "", m.group())) >= 9:
                add("phone", "phone number", *m.span())
    for pattern in (_NATIONAL_PHONE, _NATIONAL_PHONE_SPACED):
        for m in pattern.finditer(text):
            if 10 <= len(re.sub(r"\D", "", m.group())) <= 11:
                add("phone", "phone number", *m.span())
    for m in _BARE_PHONE.finditer(text):
        add("phone", "phone number", *m.span("number"))
    for m in _IBAN.finditer(text):
        if _iban_valid(m.group()):
            add("bank_account", "IBAN", *m.span())
    for m in _LABELLED_ID.finditer(text):
        value = m.group("value").strip(" -")
        if sum(ch.isdigit() for ch in value) >= 5 and len(value.replace(" ", "").replace("-", "")) >= 6:
            add("labelled_id", f"identifier ({m.group('label').strip()}) with its "
                f"number", m.start("label"), m.start("value") + len(value))
    return found


def find_identifiers(views: Normalised) -> list[Finding]:
    """Personal identifiers in the text's views (``text``, ``joined`` and decoded texts)."""
    findings: dict[tuple[str, str], Finding] = {}
    for view in views.views():
        for category, label, original in _scan_view(view, views.source):
            findings.setdefault((label, original), Finding("personal_id", label, mask(original), category, view.name))
    seen: dict[str, Finding] = {}
    for finding in findings.values():
        seen.setdefault(finding.label, finding)
    return list(seen.values())
